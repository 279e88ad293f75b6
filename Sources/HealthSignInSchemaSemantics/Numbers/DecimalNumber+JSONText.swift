extension DecimalNumber {
    /// The largest exponent magnitude read, as written and in scientific notation: below 10^18, every exponent
    /// arithmetic here (adding digit counts, subtracting exponents) stays far inside `Int`.
    static let maximumExponent: Int64 = 999_999_999_999_999_999

    /// Reads `jsonText` as exactly RFC 8259's `number`, or returns nil.
    ///
    /// The grammar is `[ "-" ] ( "0" / digit1-9 *DIGIT ) [ "." 1*DIGIT ] [ ( "e" / "E" ) [ "-" / "+" ] 1*DIGIT ]`:
    /// no `+` sign, no leading zero (`01`), no bare point (`1.`, `.5`), no empty exponent (`1e`), no `NaN` or
    /// `Infinity`, no whitespace. The significand may have any number of digits.
    ///
    /// One limit beyond the grammar: an exponent beyond ±(10^18 − 1), as written or once the number is put in
    /// scientific notation (`d.ddd` × 10^n, the form `description` prints), is refused with nil; such a magnitude is
    /// past 10^(10^18) or below its inverse, out of any use, and the limit keeps the exponent arithmetic exact. Zero
    /// takes any exponent, as it is zero whatever the exponent.
    public init?(jsonText: String) {
        var cursor = ByteCursor(jsonText)
        let isNegative = cursor.take(UInt8(ascii: "-"))
        let integerPart = cursor.digitRun()
        guard let firstDigit = integerPart.first.map({ cursor.bytes[$0] }),
            firstDigit != UInt8(ascii: "0") || integerPart.count == 1
        else { return nil }
        var fractionPart = integerPart.endIndex..<integerPart.endIndex
        if cursor.take(UInt8(ascii: ".")) {
            fractionPart = cursor.digitRun()
            guard !fractionPart.isEmpty else { return nil }
        }
        var writtenExponent: Int64 = 0
        if cursor.takeLetter(UInt8(ascii: "e")) {
            let exponentIsNegative = !cursor.take(UInt8(ascii: "+")) && cursor.take(UInt8(ascii: "-"))
            let exponentPart = cursor.digitRun()
            guard !exponentPart.isEmpty else { return nil }
            let significant = cursor.bytes[exponentPart].drop { $0 == UInt8(ascii: "0") }
            // Eighteen digits or fewer are at most maximumExponent, and cannot overflow below.
            if significant.count > 18 {
                // Only zero has a value whatever its exponent.
                let hasNonzeroDigit =
                    cursor.bytes[integerPart].contains { $0 != UInt8(ascii: "0") }
                    || cursor.bytes[fractionPart].contains { $0 != UInt8(ascii: "0") }
                guard !hasNonzeroDigit, cursor.isAtEnd else { return nil }
                self.init(0)
                return
            }
            let magnitude = significant.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            writtenExponent = exponentIsNegative ? -magnitude : magnitude
        }
        guard cursor.isAtEnd else { return nil }
        let digits = (cursor.bytes[integerPart] + cursor.bytes[fractionPart]).map { $0 - UInt8(ascii: "0") }
        self.init(isNegative: isNegative, digits: digits, exponent: writtenExponent - Int64(fractionPart.count))
        guard abs(order - 1) <= Self.maximumExponent || isZero else { return nil }
    }

    /// The shortest decimal spelling of a finite `value` (the digits of Swift's `description`, which reads back as
    /// the same `Double`), e.g. 0.1 for 0.1 rather than 0.1000000000000000055511151231257827; nil for NaN and the
    /// infinities.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        // Swift spells finite doubles as "0.1", "-0.0", "1e-05" or "1.7976931348623157e+308", all JSON numbers.
        self.init(jsonText: value.description)
    }
}
