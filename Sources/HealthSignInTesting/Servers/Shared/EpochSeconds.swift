import Foundation

/// Seconds since 1970 as a token's `iat` and `exp` carry them, from whatever a test's clock or settings say: NaN is 0,
/// anything past 10^12 seconds either way is held there, and sums saturate, so that an odd clock or lifetime gives an
/// odd token rather than stopping the process.
enum EpochSeconds {
    private static let bound = 1_000_000_000_000

    /// `date` in whole seconds.
    static func of(_ date: Date) -> Int { from(date.timeIntervalSince1970) }

    /// `seconds`, whole.
    static func from(_ seconds: TimeInterval) -> Int {
        guard !seconds.isNaN else { return 0 }
        return Int(max(-Double(bound), min(Double(bound), seconds)))
    }

    /// `base + offset`, held to `Int`'s range.
    static func adding(_ base: Int, _ offset: Int) -> Int {
        let (sum, overflow) = base.addingReportingOverflow(offset)
        return overflow ? (offset > 0 ? .max : .min) : sum
    }
}
