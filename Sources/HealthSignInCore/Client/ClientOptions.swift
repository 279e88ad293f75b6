import Foundation

/// How a client reaches its servers: the transport, which URLs it may use, how long a request may take, where log
/// records go and the middlewares every request passes through. Every generated client's configuration holds one,
/// and the flows hand theirs to the clients they make.
public struct ClientOptions: Sendable {
    /// Sends requests; replace it to use another HTTP stack or a test double.
    public var transport: any HTTPTransport
    /// Which URLs requests may go to: https only, unless plain http to this machine is allowed (for tests).
    public var urlPolicy: URLPolicy
    /// How long a request may take, or nil for the transport's default.
    public var timeout: TimeInterval?
    /// Receives redacted log records, or nil for none.
    public var logger: (any LogSink)?
    /// The steps every request passes through before the transport, first to last (see `HTTPClientMiddleware`).
    public var middlewares: [any HTTPClientMiddleware]
    /// The most bytes of body a response may have: the transport stops a bigger one as it streams (a response that
    /// comes back bigger from a transport that does not is refused too), with a `TransportError` of kind
    /// `TransportError.Kind.responseTooLarge`.
    public var maximumResponseSize: Int

    /// `HTTPResponseMessage.defaultMaximumBodySize`, 16 MiB.
    public static let defaultMaximumResponseSize = HTTPResponseMessage.defaultMaximumBodySize

    /// Creates options; the defaults send over `URLSession` to https URLs only, without logging or middlewares.
    public init(
        transport: any HTTPTransport = DefaultHTTPTransport(), urlPolicy: URLPolicy = .init(),
        timeout: TimeInterval? = nil, logger: (any LogSink)? = nil, middlewares: [any HTTPClientMiddleware] = [],
        maximumResponseSize: Int = defaultMaximumResponseSize
    ) {
        self.transport = transport
        self.urlPolicy = urlPolicy
        self.timeout = timeout
        self.logger = logger
        self.middlewares = middlewares
        self.maximumResponseSize = maximumResponseSize
    }
}
