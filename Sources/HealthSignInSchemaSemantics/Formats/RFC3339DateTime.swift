/// A `date-time` as RFC 3339 §5.6 writes it (JSON Schema's `format: date-time`).
///
/// The fields are as written, not converted to UTC: `2024-01-15T10:00:00+01:00` and `2024-01-15T09:00:00Z` are
/// the same instant (equal `secondsSince1970`) but different values.
public struct RFC3339DateTime: Sendable, Hashable {
    /// The year, 0000–9999.
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, valid for the month and year.
    public let day: Int
    /// The hour, 0–23.
    public let hour: Int
    /// The minute, 0–59.
    public let minute: Int
    /// The second, 0–59, or 60 for a leap second (only at 23:59 UTC; see `init(_:)`).
    public let second: Int
    /// The digits after the point, as written (`""` when there is no fraction); any number of them.
    public let fraction: String
    /// The offset from UTC in minutes, east positive: 0 for `Z` (and for `-00:00`), -480 for `-08:00`.
    public let offsetMinutes: Int

    /// Reads `text` as exactly a `date-time`, or returns nil.
    ///
    /// Strict grammar: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, `T`/`t` and `Z`/`z` in either case, at least one
    /// fraction digit after a point, no surrounding or inner whitespace, a day valid for the month and year (leap
    /// years), hour ≤ 23, minute ≤ 59, second ≤ 60, offset hours ≤ 23 and minutes ≤ 59.
    ///
    /// A leap second (`60`) is accepted only where one can be inserted: as the last second of a UTC day, that is
    /// when the time converted to UTC reads 23:59 (`1998-12-31T23:59:60Z`, `1998-12-31T15:59:60-08:00`). This is
    /// RFC 3339 §5.7's rule and what the JSON Schema Test Suite expects (`23:58:60Z` and `22:59:60Z` are invalid);
    /// which days actually had one is a published table, not a grammar, so any day is accepted.
    public init?(_ text: String) {
        var cursor = ByteCursor(text)
        guard let date = RFC3339Date.read(&cursor), cursor.takeLetter(UInt8(ascii: "t")),
            let hour = cursor.number(digits: 2), cursor.take(UInt8(ascii: ":")),
            let minute = cursor.number(digits: 2), cursor.take(UInt8(ascii: ":")),
            let second = cursor.number(digits: 2),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var fraction = ""
        if cursor.take(UInt8(ascii: ".")) {
            let run = cursor.digitRun()
            guard !run.isEmpty else { return nil }
            fraction = String(decoding: cursor.bytes[run], as: UTF8.self)
        }
        guard let offset = Self.readOffset(&cursor), cursor.isAtEnd else { return nil }
        if second == 60 {
            let minuteOfDayInUTC = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
            guard minuteOfDayInUTC == 23 * 60 + 59 else { return nil }
        }
        year = date.year
        month = date.month
        day = date.day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.fraction = fraction
        offsetMinutes = offset
    }

    /// Whole seconds since 1970-01-01T00:00:00Z, rounded down: the instant is this plus `0.fraction` seconds, so
    /// callers can build a Foundation `Date` (1969-12-31T23:59:59.5Z is -1 and fraction `5`).
    ///
    /// A leap second is counted as the next second: 23:59:60Z reads as the following day's 00:00:00Z, as POSIX
    /// time has no second for it.
    public var secondsSince1970: Int64 {
        let days = Gregorian.daysSince1970(year: year, month: month, day: day)
        let secondOfDay = Int64(hour * 3600 + minute * 60 + second)
        return days * 86_400 + secondOfDay - Int64(offsetMinutes) * 60
    }

    /// Reads `Z`/`z` or `±HH:MM` and returns the offset in minutes, or nil when neither is at the cursor.
    private static func readOffset(_ cursor: inout ByteCursor) -> Int? {
        if cursor.takeLetter(UInt8(ascii: "z")) { return 0 }
        let sign: Int
        if cursor.take(UInt8(ascii: "+")) {
            sign = 1
        } else if cursor.take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        guard let hours = cursor.number(digits: 2), cursor.take(UInt8(ascii: ":")),
            let minutes = cursor.number(digits: 2), hours <= 23, minutes <= 59
        else { return nil }
        return sign * (hours * 60 + minutes)
    }
}
