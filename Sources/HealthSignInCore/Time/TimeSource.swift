import Foundation

/// A source of the current wall-clock time.
///
/// Everything in the SDK that puts a time on the wire (HealthVault `msg-time` and `signing-time`) or decides
/// whether a credential has expired asks a `TimeSource`, so tests can freeze or advance time exactly.
public protocol TimeSource: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system's clock.
public struct SystemClock: TimeSource {
    /// Creates the system clock.
    public init() {}

    /// The current instant, as the operating system reports it.
    public func now() -> Date { Date() }
}
