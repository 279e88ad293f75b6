extension PatternParser {
    /// Reads `*`, `+`, `?` or `{...}`, each optionally followed by `?` for lazy, if one is next.
    mutating func parseQuantifier() throws(ECMAPatternError) -> PatternQuantifier? {
        guard let scalar = peek else { return nil }
        let start = index
        var minimum = 0
        var maximum = PatternQuantifier.unbounded
        switch scalar {
        case "*":
            index += 1
        case "+":
            index += 1
            minimum = 1
        case "?":
            index += 1
            maximum = 1
        case "{":
            guard let braces = scanBraces(at: start) else { throw .syntax("incomplete quantifier", at: start) }
            if let high = braces.high, Self.compareDecimal(braces.low, high) > 0 {
                throw .syntax("numbers out of order in {} quantifier", at: start)
            }
            minimum = Self.decimalValue(braces.low)
            maximum = braces.high.map(Self.decimalValue) ?? PatternQuantifier.unbounded
            index = braces.end
        default:
            return nil
        }
        var greedy = true
        if peek == "?" {
            index += 1
            greedy = false
        }
        return PatternQuantifier(minimum: minimum, maximum: maximum, greedy: greedy)
    }

    /// The digits of `{n}`, `{n,}` or `{n,m}` starting at `start` (`high` nil when unbounded), and where the
    /// quantifier ends; nil when the braces do not form one.
    func scanBraces(
        at start: Int
    ) -> (low: ArraySlice<Unicode.Scalar>, high: ArraySlice<Unicode.Scalar>?, end: Int)? {
        var cursor = start + 1
        let low = digits(from: &cursor)
        guard !low.isEmpty else { return nil }
        var high: ArraySlice<Unicode.Scalar>? = low
        if scalar(at: cursor) == "," {
            cursor += 1
            let upper = digits(from: &cursor)
            high = upper.isEmpty ? nil : upper
        }
        guard scalar(at: cursor) == "}" else { return nil }
        return (low, high, cursor + 1)
    }

    private func digits(from cursor: inout Int) -> ArraySlice<Unicode.Scalar> {
        let start = cursor
        while let scalar = scalar(at: cursor), ("0"..."9").contains(scalar) {
            cursor += 1
        }
        return text[start..<cursor]
    }

    /// The value of decimal digits, saturating: a count past 2^62 cannot be reached within any step limit.
    static func decimalValue(_ digits: ArraySlice<Unicode.Scalar>) -> Int {
        let ceiling = 1 << 62
        var value = 0
        for digit in digits {
            guard value < ceiling / 10 else { return ceiling }
            value = value * 10 + Int(digit.value - 0x30)
        }
        return min(value, ceiling)
    }

    /// Compares two runs of decimal digits exactly, however long, so saturation never hides `{n,m}` with n > m.
    static func compareDecimal(_ left: ArraySlice<Unicode.Scalar>, _ right: ArraySlice<Unicode.Scalar>) -> Int {
        let left = left.drop { $0 == "0" }
        let right = right.drop { $0 == "0" }
        if left.count != right.count {
            return left.count < right.count ? -1 : 1
        }
        for (l, r) in zip(left, right) where l != r {
            return l.value < r.value ? -1 : 1
        }
        return 0
    }
}
