import AsyncHTTPClient
import Foundation
import HealthSignInHTTP
import NIOCore
import NIOHTTP1

/// An `HTTPTransport` over any AsyncHTTPClient `HTTPClient` the app already runs (`HTTPClient.shared`, Vapor's,
/// Hummingbird's, or its own), so the SDK's requests share its event loops, connection pool, TLS and proxy settings.
///
/// It keeps the contract every transport of the SDK keeps, whatever the client's configuration, by how it makes each
/// request:
/// - each exchange ends by the request's timeout (a deadline for the whole exchange, body included; `.infinity` is
///   none) and by its size limit, counted before the body is read when the server announces its length;
/// - it asks for `Accept-Encoding: identity` unless the request sets the field, and refuses a body in any content
///   coding with `TransportError/Kind/unrequestedEncoding`, so a client that decompresses never gets to;
/// - every status is a response: a redirect or a 401 is returned, never followed or answered. Every request's body
///   (an empty one too) goes out as a stream that can be read once, which AsyncHTTPClient does not send again, so even
///   a client that follows redirects returns a 301, 302, 307 or 308 itself. On the wire the request is the same: a
///   known length as `Content-Length`, none for a `GET` without a body. A redirect that turns the request into a
///   `GET` without its body (a 303, or a 301 or 302 answering a `POST`) is one such a client follows; the transport
///   then refuses the response it got there with a `TransportError`, so nothing from another address passes for the
///   answer. That `GET` carried no body, and, to another origin, no `Authorization` or `Cookie`; a client made with
///   ``clientConfiguration(_:)`` sends no such `GET` at all;
/// - failures below HTTP are `TransportError`, and a cancelled task ends its exchange with `CancellationError`.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport(client: .shared)
/// ```
///
/// The app owns the client: it shuts down a client it made (`try await client.shutdown()`) after the last call.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// How the transport is set up.
    public struct Configuration: Sendable {
        /// The timeout for requests that do not set their own: the whole exchange, from connecting to the last byte
        /// of the body. `.infinity` means none.
        public var timeout: TimeInterval
        /// The most bytes of body a response may have, for requests that do not set their own.
        public var maximumResponseSize: Int

        /// Creates a configuration.
        public init(timeout: TimeInterval = 30, maximumResponseSize: Int = HTTPResponseMessage.defaultMaximumBodySize) {
            self.timeout = timeout
            self.maximumResponseSize = maximumResponseSize
        }
    }

    /// The client requests go through.
    public let client: HTTPClient
    /// The defaults for requests that set no timeout or size limit.
    public let configuration: Configuration

    /// A transport over `client`, however it is configured.
    public init(client: HTTPClient = .shared, configuration: Configuration = .init()) {
        self.client = client
        self.configuration = configuration
    }

    /// `base` with redirects not followed and bodies not decompressed, for a client of the SDK's own: the transport
    /// works over any client, and over one made so, no redirect is ever followed (see the type's discussion).
    public static func clientConfiguration(_ base: HTTPClient.Configuration = .init()) -> HTTPClient.Configuration {
        var configuration = base
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        return configuration
    }

    /// Sends `request`; see `HTTPTransport` for the contract.
    ///
    /// - Throws: `ConfigurationError/invalidTimeout(_:)` for a timeout that is NaN or not positive,
    ///   `RequestEncodingError` for a URL, method or header field that cannot be sent as it is (nothing is sent
    ///   then), `TransportError` for what happened on the way, `CancellationError` when the task is cancelled.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        let deadline = try TransportDeadline(request.timeout ?? configuration.timeout)
        // A negative limit refuses every body, as the SDK's transports do (NIO stops the process on one).
        let limit = max(0, request.maximumResponseSize ?? configuration.maximumResponseSize)
        let outgoing = try Self.clientRequest(for: request)
        try Task.checkCancellation()
        let end: NIODeadline =
            deadline.milliseconds == 0 ? .distantFuture : .now() + .milliseconds(Int64(deadline.milliseconds))
        do {
            let response = try await client.execute(outgoing, deadline: end)
            if response.history.count > 1 {
                throw TransportError(
                    .other, url: request.url,
                    detail:
                        "the HTTPClient followed a \(response.history[0].responseHead.status.code) redirect; the "
                        + "response of the address it led to is refused")
            }
            let headers = Self.headerFields(response.headers)
            try Self.checkCodings(headers, url: request.url)
            if let announced = response.headers.first(name: "content-length").flatMap(Int.init), announced > limit {
                throw TransportError(
                    .responseTooLarge, url: request.url,
                    detail: "the body announces \(announced) bytes; at most \(limit)")
            }
            let body = try await Self.collect(
                response.body, upTo: limit, until: deadline.milliseconds == 0 ? nil : end, url: request.url)
            return HTTPResponseMessage(
                status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch {
            throw TransportErrorMapping.error(for: error, url: request.url, limit: limit)
        }
    }

    /// The body, read within what is left of the timeout: AsyncHTTPClient's deadline ends with the response's head,
    /// and a body trickled after it would hold the call for as long as the server likes.
    private static func collect(
        _ body: HTTPClientResponse.Body, upTo limit: Int, until end: NIODeadline?, url: URL
    ) async throws -> ByteBuffer {
        guard let end else { return try await body.collect(upTo: limit) }
        let remaining = max(0, (end - .now()).nanoseconds)
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: limit) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(remaining))
                return nil
            }
            defer { group.cancelAll() }
            guard let buffer = try await group.next() ?? nil else {
                throw TransportError(.timedOut, url: url, detail: "the body did not arrive within the timeout")
            }
            return buffer
        }
    }

    /// The request as AsyncHTTPClient sends it, with `Accept-Encoding: identity` unless the request has the field, and
    /// its body as a stream read once, which keeps a client that follows redirects from sending it again.
    static func clientRequest(for request: HTTPRequestMessage) throws -> HTTPClientRequest {
        try request.headers.checkSyntax()
        try request.checkNoUserinfo()
        guard HTTPHeaderFields.isToken(request.method.rawValue) else {
            throw RequestEncodingError.invalidURL("the method '\(request.method.rawValue)' is not a token")
        }
        guard let scheme = request.url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            request.url.host?.isEmpty == false
        else {
            throw RequestEncodingError.invalidURL("'\(Redaction.url(request.url))' is not an http or https URL")
        }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if request.headers["Accept-Encoding"] == nil {
            outgoing.headers.add(name: "Accept-Encoding", value: "identity")
        }
        let body = request.body ?? Data()
        outgoing.body = .stream(ReadOnce(body: ByteBuffer(bytes: body)), length: .known(Int64(body.count)))
        return outgoing
    }

    /// The response's header fields in order.
    static func headerFields(_ headers: HTTPHeaders) -> HTTPHeaderFields {
        var fields = HTTPHeaderFields()
        for (name, value) in headers { fields.add(name, value) }
        return fields
    }

    /// Refuses a body in a content coding, or in a transfer coding other than `chunked` (which the client decodes).
    static func checkCodings(_ headers: HTTPHeaderFields, url: URL) throws {
        func codings(_ name: String) -> [String] {
            headers.values(name).flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                .filter { !$0.isEmpty && $0 != "identity" }
        }
        let content = codings("Content-Encoding")
        if !content.isEmpty {
            throw TransportError(
                .unrequestedEncoding, url: url,
                detail:
                    "the body is in the content coding \(content.joined(separator: ", ")), and identity was asked for")
        }
        let transfer = codings("Transfer-Encoding")
        let other = transfer.filter { $0 != "chunked" }
        if !other.isEmpty {
            throw TransportError(
                .unrequestedEncoding, url: url,
                detail: "the body is in the transfer coding \(other.joined(separator: ", "))")
        }
        // NIO's parser reads `chunked, chunked` as chunked once; other parsers on the way may not.
        if transfer.count > 1 {
            throw TransportError(.other, url: url, detail: "the body is chunked more than once")
        }
    }
}

/// A body AsyncHTTPClient can read once: one buffer, then the end (nothing for an empty body). A stream is never sent
/// again, so a redirect answering it is returned rather than followed.
struct ReadOnce: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let body: ByteBuffer

    func makeAsyncIterator() -> Iterator { Iterator(next: body.readableBytes == 0 ? nil : body) }

    struct Iterator: AsyncIteratorProtocol {
        var next: ByteBuffer?

        mutating func next() async -> ByteBuffer? {
            defer { next = nil }
            return next
        }
    }
}
