import Foundation

/// A client sdkgen generates for a family on the HTTP binding: the family's servers and the configuration that
/// reaches them. Each of the family's methods is an `async throws` method of the client.
///
/// Code that works with any family's client can be written once:
///
/// ```swift
/// func withTimeout<Client: HTTPAPIClient>(_ client: Client, _ seconds: TimeInterval) -> Client {
///     var client = client
///     client.configuration.options.timeout = seconds
///     return client
/// }
/// ```
public protocol HTTPAPIClient: Sendable {
    /// The family's base URLs, one per server of its `protocol.json`.
    associatedtype Servers: HTTPServerSet
    /// How the client reaches the server.
    var configuration: HTTPClientConfiguration<Servers> { get set }
    /// Creates a client.
    init(configuration: HTTPClientConfiguration<Servers>)
}

extension HTTPAPIClient {
    /// How the client reaches the server.
    public typealias Configuration = HTTPClientConfiguration<Servers>
}

@_spi(Generated) extension HTTPAPIClient {
    /// Sends the client's requests with its configuration, logging under the family's name.
    public var core: HTTPClientCore { configuration.core(family: Servers.family) }
}
