import Foundation

/// How a client reaches its servers: the transport, which URLs it may use, how long a request may take and where log
/// records go. Every generated client's configuration holds one, and the flows hand theirs to the clients they make.
public struct ClientOptions: Sendable {
    /// Sends requests; replace it to use another HTTP stack or a test double.
    public var transport: any HTTPTransport
    /// Which URLs requests may go to: https only, unless plain http to this machine is allowed (for tests).
    public var urlPolicy: URLPolicy
    /// How long a request may take, or nil for the transport's default.
    public var timeout: TimeInterval?
    /// Receives redacted log records, or nil for none.
    public var logger: (any LogSink)?

    /// Creates options; the defaults send over `URLSession` to https URLs only, without logging.
    public init(
        transport: any HTTPTransport = URLSessionTransport(), urlPolicy: URLPolicy = .init(),
        timeout: TimeInterval? = nil, logger: (any LogSink)? = nil
    ) {
        self.transport = transport
        self.urlPolicy = urlPolicy
        self.timeout = timeout
        self.logger = logger
    }
}
