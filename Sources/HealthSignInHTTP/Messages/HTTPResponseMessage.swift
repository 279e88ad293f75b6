import Foundation

/// An HTTP response as a transport returns it: status, headers and the complete body.
///
/// `description` shows the status, the headers (credentials redacted) and the body size, never the body itself,
/// because response bodies carry tokens and health data.
public struct HTTPResponseMessage: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The status code, e.g. 200.
    public var status: Int
    /// Header fields in the order received.
    public var headers: HTTPHeaderFields
    /// The body bytes (empty when there were none).
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaderFields = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The media type of `Content-Type` without parameters, lowercased (e.g. `application/json`), or nil.
    public var mediaType: String? {
        guard let value = headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The status, headers (credentials redacted) and body size.
    public var description: String {
        (["HTTP \(status)"] + headers.redactedLines + ["<\(body.count) bytes>"]).joined(separator: "\n")
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["response": description], displayStyle: .struct) }
}

extension HTTPResponseMessage {
    /// The most bytes of body a transport accepts by default, 16 MiB: more than any real response of the four
    /// families needs (the largest are HealthVault pages of full things, whose size the server bounds well below it),
    /// and little enough that no server can exhaust memory.
    public static let defaultMaximumBodySize = 16 << 20

    /// The most bytes a response's header section may take, 80 KiB: the status lines, the fields of the head (and of
    /// any interim response) and the trailers after a chunked body, together. It is what HTTP/1.1 parsers such as
    /// llhttp allow. A transport refuses a response past it with a `TransportError` of kind `responseTooLarge`, so
    /// that no server can grow a client by header lines the body's limit does not count.
    public static let maximumHeaderSectionSize = 80 << 10
}
