import Foundation

/// A request's timeout, checked before anything is sent: `.infinity` means none; NaN, zero and negative values are
/// configuration mistakes, never a crash or a request without an end.
struct TransportDeadline: Sendable {
    /// The timeout in milliseconds as libcurl takes it; 0 for none.
    let milliseconds: Int

    /// - Throws: ``ConfigurationError/invalidTimeout(_:)`` when `timeout` is NaN, zero or negative.
    init(_ timeout: TimeInterval) throws(ConfigurationError) {
        guard !timeout.isNaN, timeout > 0 else { throw .invalidTimeout(timeout) }
        // Past a year is no deadline a caller waits for: the same as none.
        milliseconds = timeout >= 31_536_000 ? 0 : max(1, Int((timeout * 1000).rounded(.up)))
    }
}
