import AsyncHTTPClient
import HealthSignInAsyncHTTPClient
import HealthSignInHTTP
import HealthSignInTesting
import NIOSSL
import XCTest

/// The transport keeps the contract of every transport of the SDK: the test kit's whole conformance suite, against
/// its own HTTP server on 127.0.0.1 and the SDK's HTTPS probe (`Tests/Tools/http_probe.py --tls`), with no check
/// skipped.
final class AsyncHTTPClientConformanceTests: XCTestCase {
    func testTheTransportKeepsTheContract() async throws {
        let probe = try TLSProbe()
        defer { probe.stop() }
        var base = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(probe.authority.path)
        base.tlsConfiguration = tls
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration(base))
        _ = try AsyncHTTPClientTransport(client: client)
        let suite = HTTPTransportConformance(tlsServer: probe.baseURL) { timeout -> any HTTPTransport in
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

/// The SDK's probe server over TLS, with a test authority of its own, started for one test.
private struct TLSProbe {
    let process: Process
    let directory: URL
    let baseURL: URL
    var authority: URL { directory.appendingPathComponent("ca.pem") }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ahc-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../../Tests/Tools/http_probe.py").standardizedFileURL
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--tls", directory.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The probe prints `READY <port>` once it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { throw TransportError(.other, url: nil, detail: "the probe did not start") }
            line.append(byte)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("READY "), let port = Int(text.dropFirst(6)),
            let url = URL(string: "https://127.0.0.1:\(port)")
        else { throw TransportError(.other, url: nil, detail: "the probe said \(text)") }
        baseURL = url
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
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
