import Foundation

/// A response whose status or body matched none of the shapes the method's schema declares: an HTML error page,
/// a 502 from a proxy, a body in the wrong format.
///
/// The complete response is kept for inspection, but ``description`` shows only the status, media type and size:
/// bodies can carry tokens and health data.
public struct UnexpectedResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The method that received the response, e.g. `RequestToken`.
    public let operation: String
    /// The response as received.
    public let response: HTTPResponseMessage
    /// Why the response was not understood, when something more specific than the status is known.
    public let reason: String?

    /// Creates an error for `response`.
    public init(operation: String, response: HTTPResponseMessage, reason: String? = nil) {
        self.operation = operation
        self.response = response
        self.reason = reason
    }

    /// The HTTP status.
    public var status: Int { response.status }

    /// Whether the failure is likely temporary: 408, 425, 429 and every 5xx.
    public var isTransient: Bool { [408, 425, 429].contains(status) || (500...599).contains(status) }

    /// A one-line summary without the body.
    public var description: String {
        let type = response.mediaType ?? "no content type"
        let detail = reason.map { ": \($0)" } ?? ""
        return "\(operation): unexpected HTTP \(status) response (\(type), \(response.body.count) bytes)\(detail)"
    }
}

extension HTTPResponseMessage {
    /// The delay a `Retry-After` header asks for, in seconds from `now` (delta-seconds or an HTTP date), or nil.
    public func retryAfter(now: Date) -> TimeInterval? {
        guard let value = headers["Retry-After"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
