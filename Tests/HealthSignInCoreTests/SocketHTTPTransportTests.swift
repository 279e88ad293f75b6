#if canImport(Glibc)
    import Foundation
    import HealthSignInCore
    import HealthSignInTestSupport
    import XCTest

    /// The Linux transport's TLS against a real HTTPS server on 127.0.0.1, with certificates of a test authority:
    /// one for the address, one for another name.
    final class SocketHTTPTransportTests: XCTestCase {
        private static let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("socket-transport-tls-\(UUID().uuidString)")
        private static let servers = Result { () throws -> (valid: LocalServer, otherName: LocalServer) in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let valid = try LocalServer(script: "Tests/Tools/http_probe.py", arguments: ["--tls", directory.path])
            let otherName = try LocalServer(
                script: "Tests/Tools/http_probe.py", arguments: ["--tls", directory.path, "--wrong-name"])
            return (valid, otherName)
        }

        private var authority: URL { Self.directory.appendingPathComponent("ca.pem") }

        private func url(_ server: LocalServer, _ path: String) throws -> URL {
            try XCTUnwrap(URL(string: "https://127.0.0.1:\(server.port)\(path)"))
        }

        private func assertInsecure(_ error: any Error, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual((error as? TransportError)?.kind, .insecureConnection, "\(error)", file: file, line: line)
        }

        func testAServerWhoseAuthorityIsTrustedAnswersOverTLS() async throws {
            let server = try Self.servers.get().valid
            let transport = SocketHTTPTransport(
                configuration: .init(timeout: 5, additionalCertificateAuthorities: authority))
            let echo = try await transport.send(
                HTTPRequestMessage(method: .post, url: try url(server, "/echo?a=1"), body: Data("a=b".utf8)))
            XCTAssertEqual(echo.status, 200)
            let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: echo.body) as? [String: Any])
            XCTAssertEqual(fields["path"] as? String, "/echo?a=1")
            XCTAssertEqual(fields["body"] as? String, "a=b")
            let chunked = try await transport.send(HTTPRequestMessage(method: .get, url: try url(server, "/chunked")))
            XCTAssertEqual(String(decoding: chunked.body, as: UTF8.self), "hello, world")
        }

        func testAnAuthorityTheSystemDoesNotTrustIsRefused() async throws {
            let server = try Self.servers.get().valid
            await XCTAssertThrowsErrorAsync(
                try await SocketHTTPTransport(configuration: .init(timeout: 5)).send(
                    HTTPRequestMessage(method: .get, url: try url(server, "/echo"), headers: ["Authorization": "x"]))
            ) { self.assertInsecure($0) }
        }

        func testACertificateForAnotherNameIsRefused() async throws {
            let server = try Self.servers.get().otherName
            let transport = SocketHTTPTransport(
                configuration: .init(timeout: 5, additionalCertificateAuthorities: authority))
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: try url(server, "/echo")))
            ) { self.assertInsecure($0) }
        }

        func testAnUnreadableAuthoritiesFileFailsEveryHTTPSRequestWithTheReason() async throws {
            let server = try Self.servers.get().valid
            let missing = Self.directory.appendingPathComponent("missing.pem")
            let transport = SocketHTTPTransport(
                configuration: .init(timeout: 5, additionalCertificateAuthorities: missing))
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: try url(server, "/echo")))
            ) {
                self.assertInsecure($0)
                XCTAssertTrue("\($0)".contains("missing.pem"), "\($0)")
            }
        }
    }
#endif
