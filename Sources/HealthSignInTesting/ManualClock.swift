import Foundation
import HealthSignInCore

/// A clock that reports a time you set, for tests and reproducible examples.
///
/// ```swift
/// let clock = ManualClock(Date(timeIntervalSince1970: 1_502_368_496))
/// clock.advance(by: 60)
/// ```
public final class ManualClock: TimeSource, @unchecked Sendable {
    // @unchecked: `current` is only read or written while `lock` is held.
    private let lock = Lock()
    private var current: Date

    /// Creates a clock stopped at `date`.
    public init(_ date: Date) { current = date }

    /// The time the clock was last set to.
    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward (or backward, for a negative interval), within `Date.distantPast` to
    /// `Date.distantFuture`; a NaN interval leaves it where it is.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = Self.bounded(current.addingTimeInterval(seconds), else: current) }
    }

    /// Sets the clock to `date`, within `Date.distantPast` to `Date.distantFuture`; a date that is NaN is ignored.
    public func set(_ date: Date) { lock.withLock { current = Self.bounded(date, else: current) } }

    private static func bounded(_ date: Date, else unchanged: Date) -> Date {
        date.timeIntervalSince1970.isNaN ? unchanged : min(max(date, .distantPast), .distantFuture)
    }
}
