import Foundation

/// The base URLs of a generated HTTP client, one per server of its family's `protocol.json`, and the header fields
/// its requests send.
public protocol HTTPServerSet: Sendable, Hashable {
    /// The servers at their `protocol.json` defaults (a server without one is not configured).
    init()
    /// The header fields every request of the family sends, from its `protocol.json`.
    static var defaultHeaders: HTTPHeaderFields { get }
    /// The family's name, as log records show it.
    static var family: String { get }
}

/// How a generated HTTP client reaches its servers: their URLs, the options every client shares, and the header
/// fields its requests send (``HTTPServerSet/defaultHeaders`` unless set).
///
/// ```swift
/// let client = VitalAPIClient(configuration: .init(servers: .init(api: url), transport: transport))
/// ```
public struct HTTPClientConfiguration<Servers: HTTPServerSet>: Sendable {
    /// The base URLs.
    public var servers: Servers
    /// The transport, URL policy, timeout, logger and middlewares.
    public var options: ClientOptions
    /// Header fields every request sends.
    public var headers: HTTPHeaderFields

    /// Creates a configuration.
    // `options` has no default here, so that `.init()` calls the initializer below.
    public init(servers: Servers = .init(), options: ClientOptions, headers: HTTPHeaderFields = Servers.defaultHeaders)
    {
        self.servers = servers
        self.options = options
        self.headers = headers
    }

    /// Creates a configuration from the parts of its options.
    public init(
        servers: Servers = .init(), transport: any HTTPTransport = DefaultHTTPTransport(),
        urlPolicy: URLPolicy = .init(),
        headers: HTTPHeaderFields = Servers.defaultHeaders, timeout: TimeInterval? = nil,
        logger: (any LogSink)? = nil, middlewares: [any HTTPClientMiddleware] = []
    ) {
        self.init(
            servers: servers,
            options: ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares),
            headers: headers)
    }
}

@_spi(Generated) extension HTTPClientConfiguration {
    /// The core that sends the requests of `family`'s client with this configuration.
    public func core(family: String) -> HTTPClientCore {
        HTTPClientCore(family: family, options: options, headers: headers)
    }
}
