import Foundation

/// An HTTP request as the SDK hands it to a transport.
///
/// `description` never shows credentials: credential headers, the query string and the body are redacted.
public struct HTTPRequestMessage: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The request method.
    public var method: HTTPRequestMethod
    /// The absolute URL, including any query.
    public var url: URL
    /// Header fields in the order they will be sent.
    public var headers: HTTPHeaderFields
    /// The body bytes, or nil for none.
    public var body: Data?
    /// How long the transport may wait for the whole exchange, or nil for the transport's default.
    public var timeout: TimeInterval?
    /// The most bytes of body the response may have, or nil for the transport's default; a transport stops a bigger
    /// response with ``TransportError/Kind/responseTooLarge``.
    public var maximumResponseSize: Int?

    /// Creates a request.
    public init(
        method: HTTPRequestMethod, url: URL, headers: HTTPHeaderFields = [:], body: Data? = nil,
        timeout: TimeInterval? = nil, maximumResponseSize: Int? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// Refuses a URL with userinfo (`user:password@host`): clients send it as `Authorization: Basic`, a credential
    /// nobody set as a header, to whatever host the URL names. Credentials go in a header field instead, and every
    /// transport checks this before it sends anything; a transport for another HTTP client calls it too.
    ///
    /// - Throws: ``RequestEncodingError/invalidURL(_:)`` for a URL with a user or a password.
    public func checkNoUserinfo() throws(RequestEncodingError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return }
        if components.percentEncodedUser != nil || components.percentEncodedPassword != nil {
            throw .invalidURL(
                "the URL carries userinfo (user:password@), which would go out as Authorization: Basic; send "
                    + "credentials in a header field instead")
        }
    }

    /// The method and URL (query redacted), headers (credentials redacted) and body size.
    public var description: String {
        var lines = ["\(method) \(Redaction.url(url))"]
        lines += headers.redactedLines
        if let body { lines.append("<\(body.count) bytes>") }
        return lines.joined(separator: "\n")
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["request": description], displayStyle: .struct) }
}
