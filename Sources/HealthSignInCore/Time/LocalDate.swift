import HealthSignInSchemaSemantics

/// A calendar date without a time or time zone, spelled `YYYY-MM-DD` on the wire (JSON Schema `format: date`).
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, e.g. 1990.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, 1 to 31.
    public let day: Int

    /// Creates a date, or returns nil when the combination does not exist in the Gregorian calendar.
    public init?(year: Int, month: Int, day: Int) {
        guard (0...9999).contains(year), Gregorian.isValid(year: year, month: month, day: day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, or returns nil when `text` is not such a date.
    public init?(_ text: String) {
        var text = text
        guard let date = text.withUTF8({ LocalDate(utf8: $0) }) else { return nil }
        self = date
    }

    /// Parses the UTF-8 bytes of `YYYY-MM-DD`, or returns nil when they do not spell such a date.
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        var scanner = DigitScanner(bytes)
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2), scanner.isAtEnd
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The wire spelling, `YYYY-MM-DD`.
    public var description: String {
        DateTimeText.pad(year, 4) + "-" + DateTimeText.pad(month, 2) + "-" + DateTimeText.pad(day, 2)
    }

    /// Orders dates chronologically.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
