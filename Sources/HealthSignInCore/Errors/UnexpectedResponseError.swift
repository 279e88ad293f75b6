import Foundation

/// A response whose status or body matched none of the shapes the method's schema declares: an HTML error page,
/// a 502 from a proxy, a body in the wrong format.
///
/// The complete response is kept for inspection, but ``description`` shows only the status, media type, size, the
/// server's own short explanation when the body has one (``serverMessage``), and what to check: bodies can carry
/// tokens and health data.
public struct UnexpectedResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The method that received the response, e.g. `RequestToken`.
    public let operation: String
    /// The response as received.
    public let response: HTTPResponseMessage
    /// Why the response was not understood, or what to check, when something more specific than the status is known.
    public let reason: String?
    /// The server's explanation in the body, when it has the shape of one (`detail`, `message`, `error_description`,
    /// `error` or `title` of a JSON object, an OperationOutcome's `diagnostics`, or a `text/plain` body): at most 200
    /// characters of text, with the request's credentials removed should the server have repeated one.
    public let serverMessage: String?

    /// Creates an error for `response`.
    public init(operation: String, response: HTTPResponseMessage, reason: String? = nil) {
        self.init(operation: operation, response: response, reason: reason, secrets: [])
    }

    /// Creates an error for `response`, keeping `secrets` out of ``serverMessage``.
    init(operation: String, response: HTTPResponseMessage, reason: String?, secrets: [String]) {
        self.operation = operation
        self.response = response
        self.reason = reason
        self.serverMessage = ServerMessage.text(in: response, removing: secrets)
    }

    /// This error for a response to a request that carried `credential` (in words): a 401 or 403 then says to check it.
    func refusing(_ credential: String?, secrets: [String]) -> UnexpectedResponseError {
        let check = credential.flatMap { credential in
            [401, 403].contains(status) ? "the server refused \(credential); check it" : nil
        }
        return UnexpectedResponseError(
            operation: operation, response: response, reason: reason ?? check, secrets: secrets)
    }

    /// The HTTP status.
    public var status: Int { response.status }

    /// Whether the failure is likely temporary: 408, 425, 429 and every 5xx.
    public var isTransient: Bool { [408, 425, 429].contains(status) || (500...599).contains(status) }

    /// A one-line summary without the body: the status, the server's explanation if any, and what to check.
    public var description: String {
        let type = response.mediaType ?? "no content type"
        let message = serverMessage.map { ", the server says \"\($0)\"" } ?? ""
        let detail = reason.map { ": \($0)" } ?? ""
        return
            "\(operation): unexpected HTTP \(status) response (\(type), \(response.body.count) bytes\(message))\(detail)"
    }
}

extension HTTPResponseMessage {
    /// The server's own short explanation in an error body, when the body has the shape of one: an OAuth 2.0 error
    /// (`error`, then `: error_description`), or the `detail`, `message`, `error_description`, `error` or `title` of
    /// a JSON object, or an OperationOutcome's first `diagnostics`, or a `text/plain` body in UTF-8. At most 200
    /// characters, control characters removed; nil for anything else.
    public var serverMessage: String? { ServerMessage.text(in: self, removing: []) }
}

/// The short explanation an error body carries in one of the shapes servers use.
enum ServerMessage {
    private static let members = ["detail", "message", "error_description", "error", "title"]

    static func text(in response: HTTPResponseMessage, removing secrets: [String]) -> String? {
        let body = response.body
        guard body.count <= 65_536 else { return nil }
        guard let object = (try? JSONValue.parse(body))?.objectValue else {
            // Some servers answer in words (the Koppeltaal reference auth service's plain 401).
            guard response.mediaType == "text/plain", let words = String(data: body, encoding: .utf8) else {
                return nil
            }
            return cleaned(words.trimmingCharacters(in: .whitespacesAndNewlines), removing: secrets)
        }
        var candidates: [String] = []
        if let error = object["error"]?.stringValue, let description = object["error_description"]?.stringValue {
            candidates.append("\(error): \(description)")
        }
        candidates += members.compactMap { object[$0]?.stringValue }
        candidates += (object["issue"]?.arrayValue ?? []).compactMap { $0.objectValue?["diagnostics"]?.stringValue }
        return cleaned(candidates.first(where: { !$0.isEmpty }) ?? "", removing: secrets)
    }

    /// `message` without control characters or `secrets`, at most 200 characters; nil when nothing is left.
    private static func cleaned(_ message: String, removing secrets: [String]) -> String? {
        var text = String(
            String.UnicodeScalarView(message.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        guard !text.isEmpty else { return nil }
        for secret in secrets where secret.count >= 4 {
            text = text.replacingOccurrences(of: secret, with: Redaction.placeholder)
        }
        return text.count > 200 ? String(text.prefix(200)) + "…" : text
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
