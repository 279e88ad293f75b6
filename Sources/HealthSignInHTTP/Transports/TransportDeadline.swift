import Foundation

/// A request's timeout, checked before anything is sent: `.infinity` means none; NaN, zero and negative values are
/// configuration mistakes, never a crash or a request without an end.
///
/// A transport for another HTTP client reads the request's timeout through it, so that it keeps the
/// ``HTTPTransport`` contract the SDK's own transports keep.
public struct TransportDeadline: Sendable, Hashable {
    /// The timeout in whole milliseconds, rounded up; 0 for none (libcurl's convention).
    public let milliseconds: Int

    /// Reads `timeout` (seconds).
    ///
    /// - Throws: ``ConfigurationError/invalidTimeout(_:)`` when `timeout` is NaN, zero or negative.
    public init(_ timeout: TimeInterval) throws(ConfigurationError) {
        guard !timeout.isNaN, timeout > 0 else { throw .invalidTimeout(timeout) }
        // Past a year is no deadline a caller waits for: the same as none.
        milliseconds = timeout >= Self.never ? 0 : max(1, Int((timeout * 1000).rounded(.up)))
    }

    private init(milliseconds: Int) { self.milliseconds = milliseconds }

    /// What is left of the deadline once `elapsed` seconds have gone: at least a millisecond, so that it stays one.
    func after(_ elapsed: TimeInterval) -> TransportDeadline {
        milliseconds == 0 ? self : TransportDeadline(milliseconds: max(1, milliseconds - Int(elapsed * 1000)))
    }

    /// The timeout in seconds, or nil for none.
    public var seconds: TimeInterval? { milliseconds == 0 ? nil : TimeInterval(milliseconds) / 1000 }

    /// A year: timeouts this long or longer are none.
    public static let never: TimeInterval = 31_536_000
}
