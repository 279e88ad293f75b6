import Foundation
import HealthSignInCore

/// The network of several in-process servers, for an app or a service that talks to more than one at once: each
/// request goes to the server that answers at its origin, and one that none of them answers fails as an unreachable
/// host would (`TransportError` of kind `cannotConnect`).
///
/// Give it to every client under test, and each server's ``TestServer/ledger`` shows what reached that server:
///
/// ```swift
/// let hospitalA = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-a.test/fhir")!)
/// let hospitalB = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-b.test/fhir")!)
/// let network = TestServerNetwork(hospitalA.transport, hospitalB.transport)
/// ```
public struct TestServerNetwork: HTTPTransport {
    /// The servers' networks, asked in order which one answers a request's origin.
    public let transports: [TestServerTransport]

    /// A network of the servers `transports` reach.
    public init(_ transports: [TestServerTransport]) { self.transports = transports }

    /// A network of the servers `transports` reach.
    public init(_ transports: TestServerTransport...) { self.init(transports) }

    /// Answers `request` from the server at its origin, or throws what the network would.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        guard let transport = transports.first(where: { $0.serves(request.url) }) else {
            throw TransportError(
                .cannotConnect, url: request.url, detail: "no in-process test server answers at this origin")
        }
        return try await transport.send(request)
    }
}
