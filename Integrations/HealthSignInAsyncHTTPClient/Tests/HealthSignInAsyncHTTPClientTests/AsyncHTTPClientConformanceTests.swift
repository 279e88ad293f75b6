import AsyncHTTPClient
import HealthSignInAsyncHTTPClient
import HealthSignInHTTP
import HealthSignInTesting
import XCTest

/// The transport keeps the contract of every transport of the SDK: the test kit's whole conformance suite, against
/// its own HTTP server on 127.0.0.1, with no check skipped.
final class AsyncHTTPClientConformanceTests: XCTestCase {
    func testTheTransportKeepsTheContract() async throws {
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration())
        _ = try AsyncHTTPClientTransport(client: client)
        let suite = HTTPTransportConformance { timeout -> any HTTPTransport in
            // The client passed the check above, so this does not throw; if it did, every check would fail.
            do {
                return try AsyncHTTPClientTransport(client: client, configuration: .init(timeout: timeout))
            } catch {
                return UnusableTransport()
            }
        }
        let report = try await suite.run()
        try await client.shutdown()
        for failure in report.failures { XCTFail("\(failure)") }
        XCTAssertEqual(report.passed.count, HTTPTransportConformance.Check.allCases.count, "\(report)")
        XCTAssertTrue(report.skipped.isEmpty, "\(report.skipped)")
    }

    func testRequestsGoThroughTheAppsClientAndItsPool() async throws {
        var base = HTTPClient.Configuration()
        base.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration(base))
        let transport = try AsyncHTTPClientTransport(client: client)
        XCTAssertTrue(transport.client === client)
        try await client.shutdown()
        await XCTAssertThrowsErrorAsync(
            try await transport.send(HTTPRequestMessage(method: .get, url: URL(string: "http://127.0.0.1:9/")!))
        ) { error in
            XCTAssertNotNil(error as? TransportError, "a client shut down is a transport error: \(error)")
        }
    }
}

/// Stands in for a transport that could not be made; every request fails.
private struct UnusableTransport: HTTPTransport {
    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        throw TransportError(.other, url: request.url, detail: "the transport could not be made")
    }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that `expression` throws, and passes the error to `check`.
func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("no error was thrown", file: file, line: line)
    } catch {
        check(error)
    }
}
