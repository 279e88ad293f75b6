extension DecimalNumber {
    /// Whether `self / divisor` is an integer, exactly, as JSON Schema's `multipleOf` asks (0.3 is a multiple of
    /// 0.1, 0.31 is not; 1e400 is a multiple of 2 and not of 3).
    ///
    /// `multipleOf` must be above zero; a zero divisor gives false (nothing is a multiple of it), and a negative
    /// one is taken by its magnitude, as the multiples of -d are those of d.
    ///
    /// With self = A·10^p and divisor = B·10^q (A and B without trailing zeros), the quotient is an integer only
    /// when p ≥ q (A has no factor 10 to cancel a smaller p), and then exactly when B divides A·10^(p−q). Only B's
    /// factors 2 and 5 can use the power of ten, and B has fewer than 4 per digit of each, so A·10^min(p−q, 4·|B|)
    /// decides it: the work grows with the digit counts (A's plus a few times B's, times B's), never with the
    /// exponents, so `1e1000000000` costs what `1e5` does. There is no cap; the answer is always exact.
    public func isMultiple(of divisor: DecimalNumber) -> Bool {
        guard !divisor.isZero else { return false }
        guard !isZero else { return true }
        let scale = exponent - divisor.exponent
        guard scale >= 0 else { return false }
        // Capped by a digit count, the number of zeros fits in Int.
        let zeros = Int(min(scale, 4 * Int64(divisor.digits.count)))
        return DigitDivision.divides(divisor.digits, digits, zeros: zeros)
    }
}
