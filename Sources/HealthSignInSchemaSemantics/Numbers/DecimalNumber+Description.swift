extension DecimalNumber: CustomStringConvertible {
    /// A normalized spelling that is itself JSON number text and reads back as the same value.
    ///
    /// Plain digits for magnitudes from 10^-6 up to 10^21 (`100`, `0.001`, `-2.5`), scientific notation beyond
    /// (`1e21`, `1.5e-7`, `1e1000000000`), the same thresholds as ECMAScript's `Number.prototype.toString`, so no
    /// spelling grows with the exponent.
    public var description: String {
        guard !isZero else { return "0" }
        let text = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        var spelling = isNegative ? "-" : ""
        // The thresholds bound order, so the counts below are small.
        if exponent >= 0 && order <= 21 {
            spelling += text
            spelling += String(repeating: "0", count: Int(exponent))
        } else if exponent < 0 && order > -6 {
            if order > 0 {
                let point = text.index(text.startIndex, offsetBy: Int(order))
                spelling += text[..<point]
                spelling += "."
                spelling += text[point...]
            } else {
                spelling += "0."
                spelling += String(repeating: "0", count: Int(-order))
                spelling += text
            }
        } else {
            spelling += text.prefix(1)
            if text.count > 1 {
                spelling += "."
                spelling += text.dropFirst()
            }
            spelling += "e"
            spelling += String(order - 1)
        }
        return spelling
    }
}
