import Foundation
import HealthSignInCore

/// Sends through another transport after `rewrite` has had its way with each request: how rule tests bend one rule of
/// a request the SDK built.
public struct RewritingTransport: HTTPTransport {
    /// Changes each request before it is sent.
    public let rewrite: @Sendable (HTTPRequestMessage) -> HTTPRequestMessage
    private let network: any HTTPTransport

    /// Creates a transport that rewrites each request with `rewrite` and sends it through `network` (the real
    /// network by default, or an in-process test server's transport).
    public init(
        through network: any HTTPTransport = DefaultHTTPTransport(),
        rewrite: @escaping @Sendable (HTTPRequestMessage) -> HTTPRequestMessage
    ) {
        self.network = network
        self.rewrite = rewrite
    }

    /// Sends the rewritten request.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        try await network.send(rewrite(request))
    }
}
