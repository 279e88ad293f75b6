import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// No server can make the SDK hold an unbounded response: the transport stops a response at its size limit while it
/// streams (the emulator would go on sending a gibibyte), with a typed error, whether the length was announced or
/// not; a generated client's limit comes from its options.
final class BoundedInputTests: XCTestCase {
    private static let shared = Emulator.shared
    private var emulator: Emulator!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
    }

    private func streamed() async throws -> Int {
        let stats = try await emulator.read("stream/stats")
        return try XCTUnwrap(stats["bytes"] as? Int)
    }

    private func assertTooLarge(_ error: any Error, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual((error as? TransportError)?.kind, .responseTooLarge, "\(error)", file: file, line: line)
        XCTAssertEqual((error as? any SDKError)?.recovery, ErrorRecovery.none, file: file, line: line)
    }

    func testAStreamFarOverTheLimitEndsWithATypedErrorWhileItStreams() async throws {
        let transports: [any HTTPTransport] = [
            DefaultHTTPTransport(timeout: 20), URLSessionHTTPTransport(configuration: .init(timeout: 20)),
        ]
        let limit = ClientOptions.defaultMaximumResponseSize
        for transport in transports {
            for announce in ["0", "1"] {
                let url = emulator.url("/_stream/bytes").appending(queryItems: [
                    .init(name: "announce", value: announce)
                ])
                await XCTAssertThrowsErrorAsync(
                    try await transport.send(
                        HTTPRequestMessage(method: .get, url: url, maximumResponseSize: limit))
                ) { self.assertTooLarge($0) }
                // Let the emulator notice the client hung up before reading how far it got.
                try await Task.sleep(nanoseconds: 300_000_000)
                let sent = try await streamed()
                XCTAssertLessThan(
                    sent, 4 * limit, "\(transport), announce \(announce): the server got \(sent) bytes out of 1 GiB")
            }
            let small = emulator.url("/_stream/bytes").appending(queryItems: [.init(name: "bytes", value: "100000")])
            let fits = try await transport.send(
                HTTPRequestMessage(method: .get, url: small, maximumResponseSize: 100_000))
            XCTAssertEqual(fits.body.count, 100_000)
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: small, maximumResponseSize: 99_999))
            ) { self.assertTooLarge($0) }
        }
    }

    func testAGeneratedClientTakesItsLimitFromItsOptionsWhateverTheTransport() async throws {
        let base = emulator.url("/smart/fhir")
        func client(limit: Int, transport: any HTTPTransport) -> SMARTAPIClient {
            SMARTAPIClient(
                configuration: .init(
                    servers: .init(fhir: base),
                    options: ClientOptions(
                        transport: transport, urlPolicy: URLPolicy(allowsInsecureLoopback: true),
                        maximumResponseSize: limit)))
        }
        let network = DefaultHTTPTransport()
        let document = try await client(limit: ClientOptions.defaultMaximumResponseSize, transport: network)
            .getConfiguration()
        XCTAssertNotNil(document.tokenEndpoint)
        await XCTAssertThrowsErrorAsync(try await client(limit: 200, transport: network).getConfiguration()) {
            self.assertTooLarge($0)
        }
        // A transport that ignores the limit delivers the whole body; the client refuses it all the same.
        let careless = RecordingTransport { request in
            var request = request
            request.maximumResponseSize = nil
            return try await network.send(request)
        }
        await XCTAssertThrowsErrorAsync(try await client(limit: 200, transport: careless).getConfiguration()) {
            self.assertTooLarge($0)
        }
    }
}
