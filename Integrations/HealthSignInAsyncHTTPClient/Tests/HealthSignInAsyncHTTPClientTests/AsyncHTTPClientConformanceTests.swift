import AsyncHTTPClient
import HealthSignInAsyncHTTPClient
import HealthSignInHTTP
import HealthSignInTesting
import NIOSSL
import XCTest

/// The transport keeps the contract of every transport of the SDK over any client: the test kit's whole conformance
/// suite, against its own HTTP server on 127.0.0.1 and the SDK's HTTPS probe (`Tests/Tools/http_probe.py --tls`), with
/// no check skipped, on a client configured as `HTTPClient.shared` is (following 20 redirects, decompressing), on
/// AsyncHTTPClient's default configuration, and on one made with `clientConfiguration()`.
final class AsyncHTTPClientConformanceTests: XCTestCase {
    private static func configurations() -> [(String, HTTPClient.Configuration)] {
        [
            ("as HTTPClient.shared", .singletonConfiguration), ("the default", HTTPClient.Configuration()),
            ("clientConfiguration()", AsyncHTTPClientTransport.clientConfiguration()),
        ]
    }

    /// Runs `body` with a client of `configuration` that trusts the probe's authority, shut down after it.
    private func withClient(
        _ configuration: HTTPClient.Configuration, trusting probe: TLSProbe,
        _ body: (HTTPClient) async throws -> Void
    ) async throws {
        var configuration = configuration
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(probe.authority.path)
        configuration.tlsConfiguration = tls
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await body(client)
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    func testTheTransportKeepsTheContractOverAnyClient() async throws {
        let probe = try TLSProbe()
        defer { probe.stop() }
        for (name, configuration) in Self.configurations() {
            try await withClient(configuration, trusting: probe) { client in
                let suite = HTTPTransportConformance(tlsServer: probe.baseURL) { timeout in
                    AsyncHTTPClientTransport(client: client, configuration: .init(timeout: timeout))
                }
                let report = try await suite.run()
                for failure in report.failures { XCTFail("\(name): \(failure)") }
                XCTAssertEqual(report.passed.count, HTTPTransportConformance.Check.allCases.count, "\(name): \(report)")
                XCTAssertTrue(report.skipped.isEmpty, "\(name): \(report.skipped)")
            }
        }
    }

    /// The body goes out as a stream read once, and the wire is what it was with bytes: no length on a `GET` without a
    /// body, `Content-Length: 0` on an empty `POST`, the length of a body.
    func testTheWireIsTheSameWithTheBodyAsAStream() async throws {
        let probe = try TLSProbe()
        defer { probe.stop() }
        try await withClient(.singletonConfiguration, trusting: probe) { client in
            let transport = AsyncHTTPClientTransport(client: client)
            let echo = probe.baseURL.appendingPathComponent("echo")
            func headers(_ method: HTTPRequestMethod, _ body: Data?) async throws -> [String: String] {
                let response = try await transport.send(HTTPRequestMessage(method: method, url: echo, body: body))
                let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                return object?["headers"] as? [String: String] ?? [:]
            }
            let get = try await headers(.get, nil)
            XCTAssertNil(get["Content-Length"])
            XCTAssertNil(get["Transfer-Encoding"])
            XCTAssertEqual(get["Accept-Encoding"], "identity")
            let emptyPost = try await headers(.post, nil)
            XCTAssertEqual(emptyPost["Content-Length"], "0")
            let post = try await headers(.post, Data("a=b".utf8))
            XCTAssertEqual(post["Content-Length"], "3")
        }
    }

    /// A 303 answering a `POST` turns it into a `GET` without its body, which a following client follows: the
    /// response it got there is refused, never passed off as the answer. A client that does not follow returns the 303.
    func testAResponseFromARedirectTheClientFollowedIsRefused() async throws {
        let probe = try TLSProbe()
        defer { probe.stop() }
        let request = HTTPRequestMessage(
            method: .post, url: probe.baseURL.appendingPathComponent("see-other"), body: Data("secret=1".utf8))
        try await withClient(.singletonConfiguration, trusting: probe) { client in
            await XCTAssertThrowsErrorAsync(try await AsyncHTTPClientTransport(client: client).send(request)) { error in
                XCTAssertEqual((error as? TransportError)?.kind, .other, "\(error)")
                XCTAssertTrue("\(error)".contains("followed a 303 redirect"), "\(error)")
            }
        }
        try await withClient(AsyncHTTPClientTransport.clientConfiguration(), trusting: probe) { client in
            let response = try await AsyncHTTPClientTransport(client: client).send(request)
            XCTAssertEqual(response.status, 303)
        }
    }

    func testTheSharedClientIsTheDefault() {
        XCTAssertTrue(AsyncHTTPClientTransport().client === HTTPClient.shared)
        // snippet doc-async-http-client-transport
        let transport = AsyncHTTPClientTransport(client: .shared)
        // end snippet
        XCTAssertTrue(transport.client === HTTPClient.shared)
    }

    func testRequestsGoThroughTheAppsClientAndItsPool() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let transport = AsyncHTTPClientTransport(client: client)
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
