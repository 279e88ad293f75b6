import Foundation
@_spi(Generated) import HealthSignInCore

/// A server the bearer token of a grant is for (a FHIR server, say): its base URL, how it is asked, and how its
/// error answers read.
public struct ResourceServer: Sendable {
    /// The base URL; every request goes to a ``ResourcePath`` under it.
    public let baseURL: URL
    /// The family whose calls these are, for operation ids and log records.
    public let family: String
    /// The operation's name in operation ids, e.g. `FHIR`.
    public let operation: String
    /// The `Accept` header.
    public let accept: String
    /// The `Content-Type` of a body when the call names none.
    public let contentType: String
    /// The transport, URL policy, timeout, logger and middlewares of every request.
    public let options: ClientOptions
    /// The typed error of a response that is not 2xx.
    public let error: @Sendable (HTTPResponseMessage) -> any Error

    /// Creates a resource server.
    public init(
        baseURL: URL, family: String, operation: String, accept: String, contentType: String,
        options: ClientOptions, error: @escaping @Sendable (HTTPResponseMessage) -> any Error
    ) {
        self.baseURL = baseURL
        self.family = family
        self.operation = operation
        self.accept = accept
        self.contentType = contentType
        self.options = options
        self.error = error
    }

    /// Sends a request to `path` with `token` as its bearer token.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: where under the base URL.
    ///   - query: the query fields.
    ///   - body: the body, if any.
    ///   - contentType: the body's type, when it is not the server's usual one.
    ///   - accept: the `Accept` header, when it is not the server's usual one.
    ///   - token: the bearer token.
    ///   - transport: the transport of this request, e.g. one guarded by a credential lease.
    /// - Throws: the server's typed error for a response that is not 2xx, `ConfigurationError.insecureURL` for a
    ///   URL the policy refuses, and the transport's errors.
    public func send(
        _ method: HTTPRequestMethod, _ path: ResourcePath, query: FormFields, body: Data?, contentType: String?,
        accept: String? = nil, token: BearerToken, transport: (any HTTPTransport)? = nil
    ) async throws -> HTTPResponseMessage {
        var builder = try HTTPRequestBuilder(
            method: method, server: baseURL, serverName: "resource", path: "/" + path.percentEncoded)
        builder.query = query
        builder.headers["Accept"] = accept ?? self.accept
        builder.authorize(bearer: token)
        if let body { builder.setBody(body, contentType: contentType ?? self.contentType) }
        let request = try builder.build(timeout: options.timeout)
        try options.urlPolicy.check(request.url)
        let response = try await options.send(
            request, operation: OperationID(family: family, method: operation), transport: transport)
        guard response.isSuccess else { throw error(response) }
        return response
    }
}
