import Foundation
import HealthSignInCore

/// Sends through URLSession after `rewrite` has had its way with each request: how emulator rule tests bend one rule
/// of a request the SDK built.
public struct RewritingTransport: HTTPTransport {
    /// Changes each request before it is sent.
    public let rewrite: @Sendable (HTTPRequestMessage) -> HTTPRequestMessage
    private let network = DefaultHTTPTransport()

    /// Creates a transport that rewrites each request with `rewrite`.
    public init(rewrite: @escaping @Sendable (HTTPRequestMessage) -> HTTPRequestMessage) { self.rewrite = rewrite }

    /// Sends the rewritten request.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        try await network.send(rewrite(request))
    }
}
