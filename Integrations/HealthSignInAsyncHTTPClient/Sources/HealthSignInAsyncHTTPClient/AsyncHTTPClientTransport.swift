import AsyncHTTPClient
import Foundation
import HealthSignInHTTP
import NIOCore
import NIOHTTP1

/// An ``HTTPTransport`` over an AsyncHTTPClient `HTTPClient` the app already runs (Vapor's, Hummingbird's, or its own),
/// so the SDK's requests share its event loops, connection pool, TLS and proxy settings.
///
/// It keeps the contract every transport of the SDK keeps:
/// - each exchange ends by the request's timeout (a deadline for the whole exchange; `.infinity` is none) and by its
///   size limit, counted before the body is read when the server announces its length;
/// - it asks for `Accept-Encoding: identity` unless the request sets the field, and refuses a body in any content
///   coding with ``TransportError/Kind/unrequestedEncoding``;
/// - every status is a response: a redirect or a 401 is returned, never followed or answered;
/// - failures below HTTP are ``TransportError``, and a cancelled task ends its exchange with `CancellationError`.
///
/// Redirects and decompression are settings of the client, not of a request, so the transport checks the client it
/// is given: one that follows redirects (AsyncHTTPClient's default) could carry credentials to another host, and one
/// that decompresses could put more bytes in memory than the limit allows. Make the client with
/// ``AsyncHTTPClientTransport/clientConfiguration(_:)``:
///
/// ```swift
/// let client = HTTPClient(
///     eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration())
/// let transport = try AsyncHTTPClientTransport(client: client)
/// ```
///
/// The app owns the client: it shuts it down (`try await client.shutdown()`) after the last call.
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

    /// A transport over `client`.
    ///
    /// - Throws: ``AsyncHTTPClientTransportError`` when the client follows redirects or decompresses bodies, or
    ///   when its settings cannot be read to tell.
    public init(client: HTTPClient, configuration: Configuration = .init()) throws {
        try ClientSettings(of: client).check()
        self.client = client
        self.configuration = configuration
    }

    /// The settings a client for this transport needs, on top of `base`: redirects are not followed and bodies are
    /// not decompressed. Everything else in `base` (timeouts for connecting, the pool, TLS, proxy) is kept.
    public static func clientConfiguration(_ base: HTTPClient.Configuration = .init()) -> HTTPClient.Configuration {
        var configuration = base
        configuration.redirectConfiguration = .disallow
        configuration.decompression = .disabled
        return configuration
    }

    /// Sends `request`; see ``HTTPTransport`` for the contract.
    ///
    /// - Throws: ``ConfigurationError/invalidTimeout(_:)`` for a timeout that is NaN or not positive,
    ///   ``RequestEncodingError`` for a URL, method or header field that cannot be sent as it is (nothing is sent
    ///   then), ``TransportError`` for what happened on the way, `CancellationError` when the task is cancelled.
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

    /// The request as AsyncHTTPClient sends it, with `Accept-Encoding: identity` unless the request has the field.
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
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
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
