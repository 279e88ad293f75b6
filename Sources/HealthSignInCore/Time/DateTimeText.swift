import Foundation
import HealthSignInSchemaSemantics

/// Reads and writes `xsd:dateTime` / RFC 3339 timestamps without `DateFormatter`.
///
/// Writing always produces UTC with milliseconds (`2017-08-10T12:34:56.000Z`), the spelling HealthVault's
/// recommended canonical form uses. Reading accepts any number of fraction digits, `Z`, a `±HH:MM` offset, or no
/// zone at all (read as UTC, the way the Java HealthVault SDK writes `msg-time`).
public enum DateTimeText {
    /// The earliest instant written: 0001-01-01T00:00:00.000Z.
    static let earliest: TimeInterval = -62_135_596_800
    /// The latest instant written: 9999-12-31T23:59:59.999Z.
    static let latest: TimeInterval = 253_402_300_799.999

    /// The UTC millisecond spelling of `date`, e.g. `2017-08-10T12:34:56.000Z`.
    ///
    /// Any `Date` can be written, whatever a server or token made it: instants before year 1 or after year 9999
    /// (`xsd:dateTime`'s four-digit years) are written as the nearest of those bounds, and a NaN instant as the
    /// earliest.
    public static func format(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let clamped = seconds.isNaN ? earliest : min(max(seconds, earliest), latest)
        let totalMilliseconds = Int64((clamped * 1000).rounded())
        let (days, millisecondOfDay) = floorDivide(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(fromDays: days)
        let hour = millisecondOfDay / 3_600_000
        let minute = millisecondOfDay / 60_000 % 60
        let second = millisecondOfDay / 1000 % 60
        let millisecond = millisecondOfDay % 1000
        var text = ""
        text.reserveCapacity(24)
        text += pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
        text += "T" + pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(millisecond, 3) + "Z"
        return text
    }

    /// Parses an `xsd:dateTime`, or returns nil when `text` is not one.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// Parses the UTF-8 bytes of an `xsd:dateTime`, or returns nil when they do not spell one.
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = DigitScanner(bytes)
        guard let year = scanner.number(digits: 4), scanner.take(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2), scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")),
            let hour = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
            let minute = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
            let second = scanner.number(digits: 2)
        else { return nil }
        guard Gregorian.isValid(year: year, month: month, day: day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if scanner.take(UInt8(ascii: ".")) {
            var scale = 0.1
            var digits = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                digits += 1
            }
            guard digits > 0 else { return nil }
        }
        var offsetSeconds = 0
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
            offsetSeconds = 0
        } else if let sign = scanner.sign() {
            guard let offsetHour = scanner.number(digits: 2), scanner.take(UInt8(ascii: ":")),
                let offsetMinute = scanner.number(digits: 2), offsetHour < 24, offsetMinute < 60
            else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard scanner.isAtEnd else { return nil }
        let days = Gregorian.daysSince1970(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        // Rounded to whole microseconds so that a millisecond spelling reads back to exactly the date it came from.
        let interval = Double(seconds) + (fraction * 1_000_000).rounded() / 1_000_000
        return Date(timeIntervalSince1970: interval)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, days since 1970-01-01)

    static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, Int(remainder))
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A tiny cursor over ASCII digits, used by the date parsers.
struct DigitScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func number(digits count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func sign() -> Int? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }
}
