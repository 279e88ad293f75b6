/// A `full-date` (RFC 3339 §5.6, JSON Schema's `format: date`): `YYYY-MM-DD`, a valid day for the month and year.
public struct RFC3339Date: Sendable, Hashable {
    /// The year, 0000–9999 as written.
    public let year: Int
    /// The month, 1–12.
    public let month: Int
    /// The day of the month, 1–31 and valid for the month and year.
    public let day: Int

    /// Reads `text` as exactly a `full-date`, or returns nil: four-digit year, two-digit month and day, hyphens,
    /// nothing before or after (no whitespace, no time, no sign or fifth year digit), and a day that exists
    /// (February 29 only in leap years, 1900 not being one and 2000 being one).
    public init?(_ text: String) {
        var cursor = ByteCursor(text)
        guard let date = Self.read(&cursor), cursor.isAtEnd else { return nil }
        self = date
    }

    private init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Reads a `full-date` at the cursor, for `date-time` too; nil when the bytes there do not spell a valid one.
    static func read(_ cursor: inout ByteCursor) -> RFC3339Date? {
        guard let year = cursor.number(digits: 4), cursor.take(UInt8(ascii: "-")),
            let month = cursor.number(digits: 2), cursor.take(UInt8(ascii: "-")),
            let day = cursor.number(digits: 2),
            Gregorian.isValid(year: year, month: month, day: day)
        else { return nil }
        return RFC3339Date(year: year, month: month, day: day)
    }
}
