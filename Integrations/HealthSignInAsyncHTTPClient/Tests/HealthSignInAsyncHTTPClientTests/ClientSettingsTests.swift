import AsyncHTTPClient
import HealthSignInAsyncHTTPClient
import HealthSignInHTTP
import XCTest

/// A client that would follow redirects or decompress bodies is refused before it carries anything.
final class ClientSettingsTests: XCTestCase {
    private func refusal(_ configuration: HTTPClient.Configuration) async throws -> AsyncHTTPClientTransportError? {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        defer { Task { try? await client.shutdown() } }
        do {
            _ = try AsyncHTTPClientTransport(client: client)
            return nil
        } catch let error as AsyncHTTPClientTransportError {
            return error
        }
    }

    func testTheDefaultClientFollowsRedirectsAndIsRefused() async throws {
        let refusal = try await refusal(HTTPClient.Configuration())
        XCTAssertEqual(refusal, .clientFollowsRedirects)
        XCTAssertEqual(refusal?.recovery, .reconfigure)
    }

    func testAClientThatDecompressesIsRefused() async throws {
        var configuration = AsyncHTTPClientTransport.clientConfiguration()
        configuration.decompression = .enabled(limit: .ratio(10))
        let refusal = try await refusal(configuration)
        XCTAssertEqual(refusal, .clientDecompresses)
    }

    /// The documentation's example makes a client the transport accepts.
    func testTheDocumentedClientIsAccepted() async throws {
        // snippet doc-async-http-client-transport
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration())
        let transport = try AsyncHTTPClientTransport(client: client)
        // end snippet
        XCTAssertTrue(transport.client === client)
        try await client.shutdown()
    }

    func testTheTransportsOwnConfigurationKeepsTheRestOfTheBase() async throws {
        var base = HTTPClient.Configuration()
        base.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 3
        let configuration = AsyncHTTPClientTransport.clientConfiguration(base)
        XCTAssertEqual(configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit, 3)
        let refusal = try await refusal(configuration)
        XCTAssertNil(refusal)
    }
}
