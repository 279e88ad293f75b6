/// A JSON number (RFC 8259 §6 text) held as sign, decimal digits and exponent, so it can be compared, tested and
/// divided exactly, whatever its size or spelling (1, 1.0, 10e-1 and 0.1e1 are the same number).
///
/// The value is kept normalized: no leading or trailing zero digits, and one zero with no sign, so `==` and hashing
/// are by numeric value (-0 == 0). Nothing expands the exponent: `1e1000000000` takes a digit and an `Int64`.
public struct DecimalNumber: Sendable, Hashable {
    /// Whether the number is below zero; never for zero.
    public let isNegative: Bool
    /// The significant digits (0–9), most significant first, without leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    /// The power of ten the digits are scaled by: the value is ±digits × 10^exponent; 0 for zero. `Int64` rather
    /// than `Int` so the limits are the same on 32-bit platforms (watchOS's arm64_32).
    let exponent: Int64

    /// The number `value`, exactly.
    public init(_ value: Int64) {
        var magnitude = value.magnitude
        var reversed: [UInt8] = []
        while magnitude > 0 {
            reversed.append(UInt8(magnitude % 10))
            magnitude /= 10
        }
        self.init(isNegative: value < 0, digits: reversed.reversed(), exponent: 0)
    }

    /// The number `value`, exactly; with it a literal such as `DecimalNumber(5)` needs no type annotation.
    public init(_ value: Int) {
        self.init(Int64(value))
    }

    /// The number ±`digits` × 10^`exponent`, normalized; `digits` may have leading and trailing zeros.
    init(isNegative: Bool, digits: [UInt8], exponent: Int64) {
        guard let first = digits.firstIndex(where: { $0 != 0 }), let last = digits.lastIndex(where: { $0 != 0 })
        else {
            self.isNegative = false
            self.digits = []
            self.exponent = 0
            return
        }
        self.isNegative = isNegative
        self.digits = Array(digits[first...last])
        self.exponent = exponent + Int64(digits.count - 1 - last)
    }

    /// The power of ten just above the magnitude: a nonzero number is at least 10^(order − 1) and below 10^order.
    var order: Int64 { exponent + Int64(digits.count) }

    /// Whether the number is zero (however it was written: `0`, `-0.0`, `0e5`).
    public var isZero: Bool { digits.isEmpty }

    /// Whether the number is an integer in JSON Schema's sense: its fractional part is zero, however it is
    /// written (`1.0`, `1e2` and `1.5e1` are integers; `1.25e1` and `1e-1` are not).
    public var isInteger: Bool { exponent >= 0 }

    /// The exact value when it is an integer in `Int64`'s range, else nil (`1e19`, `0.5`, `1e1000000000`).
    public var int64Value: Int64? {
        // Normalized, a nonzero number with a negative exponent has a fraction, and more than 19 digits in all
        // exceed Int64; checking first keeps a huge exponent from driving the loop below.
        guard exponent >= 0, order <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for digit in digits + [UInt8](repeating: 0, count: Int(exponent)) {
            let (shifted, overflowShift) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowShift, !overflowSum else { return nil }
            magnitude = sum
        }
        if isNegative {
            return magnitude <= Int64.min.magnitude ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }
}
