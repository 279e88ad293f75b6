import Foundation
import HealthSignInCore

/// The network an app's test sends through instead of sockets: an `HTTPTransport` that hands every request to an
/// in-process test server and returns its answer, with the server's faults played on the way.
///
/// A request for an origin the server does not answer fails as an unreachable host would, with `TransportError`
/// of kind `cannotConnect`. Take one from the server: `server.transport`, or `server.transport(timeout:)` for a
/// client whose patience a ``TestServerFault/slow(seconds:)`` answer should outlast.
public struct TestServerTransport: HTTPTransport {
    private let server: any InProcessServer
    /// How long a request waits for its answer unless it sets its own timeout, or nil for as long as it takes.
    public let timeout: TimeInterval?

    init(server: any InProcessServer, timeout: TimeInterval?) {
        self.server = server
        self.timeout = timeout
    }

    /// Answers `request` from the server, or throws what the network would (`TransportError`, `CancellationError`);
    /// a URL with userinfo is a `RequestEncodingError`, as with every transport.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        // As every transport does, before anything reaches the server.
        try request.checkNoUserinfo()
        return try await server.answer(request, timeout: timeout)
    }

    /// The same network, with requests that wait at most `timeout` seconds unless they set their own.
    func timingOut(after timeout: TimeInterval) -> TestServerTransport {
        TestServerTransport(server: server, timeout: timeout)
    }

    /// Whether the server answers at `url`'s origin.
    func serves(_ url: URL) -> Bool { server.serves(url) }
}
