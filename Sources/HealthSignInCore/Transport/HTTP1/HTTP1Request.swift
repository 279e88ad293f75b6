import Foundation

/// The bytes of an HTTP/1.1 request (RFC 9112) for a ``HTTPRequestMessage``: its method, target, `Host`, its own
/// fields in order, then the framing fields the transport owns, then the body.
///
/// The transport owns `Host`, `Content-Length`, `Transfer-Encoding` and `Connection`: the request's own values for
/// them are dropped, so a request cannot frame itself differently from its body. `Accept-Encoding: identity` and a
/// `User-Agent` are added unless the request has its own.
enum HTTP1Request {
    /// The `User-Agent` sent when a request has none.
    static let userAgent = "HealthSignInSDK"

    /// Methods whose requests carry no body, so no `Content-Length: 0` is sent for them.
    private static let bodilessMethods: Set<String> = ["GET", "HEAD", "DELETE", "OPTIONS", "TRACE"]

    private static let transportOwned: Set<String> = ["host", "content-length", "transfer-encoding", "connection"]

    /// The request's bytes.
    ///
    /// - Throws: ``RequestEncodingError/invalidHeaderField(_:)`` when a field cannot travel as it is,
    ///   ``RequestEncodingError/invalidURL(_:)`` when the URL has no host or the method is not a token.
    static func bytes(for request: HTTPRequestMessage) throws(RequestEncodingError) -> Data {
        try request.headers.checkSyntax()
        guard HTTPHeaderFields.isToken(request.method.rawValue) else {
            throw .invalidURL("the method '\(request.method.rawValue)' is not a token")
        }
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
            let host = components.percentEncodedHost, !host.isEmpty
        else { throw .invalidURL("the URL has no host") }
        var target: String = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        let hostValue = hostField(host: host, port: components.port, scheme: components.scheme)
        var head = "\(request.method.rawValue) \(target) HTTP/1.1\r\nHost: \(hostValue)\r\n"
        head += fieldLines(of: request)
        head += "Connection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        if let body = request.body { bytes.append(body) }
        return bytes
    }

    /// The request's own fields, then `Accept-Encoding`, `User-Agent` and `Content-Length` as the transport sets them.
    private static func fieldLines(of request: HTTPRequestMessage) -> String {
        var lines = ""
        for field in request.headers where !transportOwned.contains(field.name.lowercased()) {
            lines += "\(field.name): \(field.value)\r\n"
        }
        if request.headers["Accept-Encoding"] == nil { lines += "Accept-Encoding: identity\r\n" }
        if request.headers["User-Agent"] == nil { lines += "User-Agent: \(userAgent)\r\n" }
        if let body = request.body {
            lines += "Content-Length: \(body.count)\r\n"
        } else if !bodilessMethods.contains(request.method.rawValue) {
            lines += "Content-Length: 0\r\n"
        }
        return lines
    }

    /// `host[:port]`, the port only when it is not the scheme's default; IPv6 literals keep their brackets.
    private static func hostField(host: String, port: Int?, scheme: String?) -> String {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let defaultPort = scheme?.lowercased() == "https" ? 443 : 80
        guard let port, port != defaultPort else { return bracketed }
        return "\(bracketed):\(port)"
    }
}
