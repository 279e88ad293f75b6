import Foundation
import HealthSignInHTTP

/// A transport of the app's own, written against the HTTP layer alone: a middleware's view of every request, then
/// the default transport.
struct CountingTransport: HTTPTransport {
    let base: any HTTPTransport = DefaultHTTPTransport()
    let count: @Sendable (HTTPRequestMessage) -> Void

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        count(request)
        return try await base.send(request)
    }
}
