/// The integer a JSON number denotes, decided exactly from its text as JSON Schema counts integers: any number whose
/// value is whole, however it is spelled (`1`, `1.0`, `1e2`, `-0`, `1.50e1`).
///
/// Nothing goes through `Double`, which rounds beyond 2^53, and no digits are expanded: the exponent is weighed
/// against the significant digits first, so `1e1000000000` costs as little as `1e1`.
public enum JSONIntegerValue: Sendable, Equatable {
    /// A whole number whose magnitude fits in 64 bits.
    case integer(negative: Bool, magnitude: UInt64)
    /// A whole number too large for 64 bits.
    case tooLarge
    /// A number with a fractional part.
    case fractional

    /// Exponents saturate here: no text that fits in memory has enough digits to offset a larger one.
    private static let exponentCeiling = 1 << 40

    /// The value of `text`, a JSON number.
    public init(_ text: String) {
        // The digits before the exponent are read as one sequence, the fraction's counted to scale the value.
        var digitCount = 0
        var fractionDigits = 0
        var firstNonZero = -1
        var lastNonZero = -1
        var negative = false
        var exponent = 0
        var exponentNegative = false
        var inFraction = false
        var inExponent = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"):
                if inExponent { exponentNegative = true } else { negative = true }
            case UInt8(ascii: "."):
                inFraction = true
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int(byte &- UInt8(ascii: "0"))
                if inExponent {
                    if exponent < Self.exponentCeiling { exponent = exponent * 10 + digit }
                } else {
                    if digit != 0 {
                        if firstNonZero < 0 { firstNonZero = digitCount }
                        lastNonZero = digitCount
                    }
                    if inFraction { fractionDigits += 1 }
                    digitCount += 1
                }
            default:
                // `+` in an exponent; the JSON number grammar allows nothing else.
                break
            }
        }
        guard firstNonZero >= 0 else {
            // Zero however written, `-0` included: JSON Schema compares values, and -0 equals 0.
            self = .integer(negative: false, magnitude: 0)
            return
        }
        let trailingZeros = digitCount - 1 - lastNonZero
        let scale = (exponentNegative ? -exponent : exponent) - fractionDigits + trailingZeros
        // The last significant digit is not zero, so it stands below the units when the scale is negative.
        guard scale >= 0 else {
            self = .fractional
            return
        }
        // UInt64.max has 20 digits.
        guard lastNonZero - firstNonZero + 1 + scale <= 20 else {
            self = .tooLarge
            return
        }
        self = Self.magnitude(of: text, digits: firstNonZero...lastNonZero, scale: scale, negative: negative)
    }

    /// The digits at `digits` of `text`'s digit sequence times ten to the power `scale`, when that fits in 64 bits.
    private static func magnitude(
        of text: String, digits: ClosedRange<Int>, scale: Int, negative: Bool
    ) -> JSONIntegerValue {
        var magnitude: UInt64 = 0
        var position = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if digits.contains(position) {
                guard let next = appending(UInt64(byte &- UInt8(ascii: "0")), to: magnitude) else { return .tooLarge }
                magnitude = next
            }
            position += 1
        }
        for _ in 0..<scale {
            guard let next = appending(0, to: magnitude) else { return .tooLarge }
            magnitude = next
        }
        return .integer(negative: negative, magnitude: magnitude)
    }

    private static func appending(_ digit: UInt64, to value: UInt64) -> UInt64? {
        let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
        let (sum, carry) = tens.addingReportingOverflow(digit)
        return overflow || carry ? nil : sum
    }
}

extension JSONIntegerValue {
    /// The whole number as `T`, or nil when it has a fraction or `T` cannot hold it.
    public func value<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        guard case .integer(let negative, let magnitude) = self else { return nil }
        if negative && magnitude > 0 {
            guard T.isSigned, magnitude <= UInt64(truncatingIfNeeded: T.min.magnitude) else { return nil }
            // Two's complement of the magnitude, which also reaches `min`, whose magnitude `max` cannot hold.
            return T(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(truncatingIfNeeded: T.max) else { return nil }
        return T(truncatingIfNeeded: magnitude)
    }

    /// Whether the number is whole, however it is spelled: JSON Schema's `integer`.
    public var isInteger: Bool {
        if case .fractional = self { return false }
        return true
    }
}
