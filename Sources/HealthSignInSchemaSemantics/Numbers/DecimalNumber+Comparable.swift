extension DecimalNumber: Comparable {
    /// Whether `lhs` is below `rhs` by value, decided from signs, magnitudes' orders and digits without expanding
    /// either exponent.
    public static func < (lhs: DecimalNumber, rhs: DecimalNumber) -> Bool {
        let (left, right) = (lhs.signum, rhs.signum)
        guard left == right else { return left < right }
        switch compareMagnitudes(lhs, rhs) {
        case .smaller: return left > 0
        case .larger: return left < 0
        case .same: return false
        }
    }

    /// How two magnitudes compare.
    enum MagnitudeOrder {
        case smaller, same, larger
    }

    /// -1, 0 or 1 as the number is negative, zero or positive.
    var signum: Int {
        isZero ? 0 : (isNegative ? -1 : 1)
    }

    /// How |`lhs`| compares with |`rhs`|.
    static func compareMagnitudes(_ lhs: DecimalNumber, _ rhs: DecimalNumber) -> MagnitudeOrder {
        if lhs.isZero || rhs.isZero {
            return lhs.isZero ? (rhs.isZero ? .same : .smaller) : .larger
        }
        // Normalized, the first digit is nonzero, so the power of ten just above the number decides first.
        if lhs.order != rhs.order { return lhs.order < rhs.order ? .smaller : .larger }
        for (left, right) in zip(lhs.digits, rhs.digits) where left != right {
            return left < right ? .smaller : .larger
        }
        // Neither has trailing zeros, so the one with more digits has a nonzero digit the other lacks.
        if lhs.digits.count == rhs.digits.count { return .same }
        return lhs.digits.count < rhs.digits.count ? .smaller : .larger
    }
}
