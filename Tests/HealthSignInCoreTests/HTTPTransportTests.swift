import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transports against a real HTTP server on 127.0.0.1: each behaviour of the ``HTTPTransport`` contract for every
/// transport of this platform, then what is particular to each.
final class HTTPTransportTests: XCTestCase {
    private static let server = Result { try LocalServer(script: "Tests/Tools/http_probe.py") }

    private func url(_ path: String) throws -> URL {
        try XCTUnwrap(URL(string: path, relativeTo: Self.server.get().baseURL)?.absoluteURL)
    }

    /// Every transport of this platform, by name, with `timeout`.
    private func transports(timeout: TimeInterval = 30) -> [(String, any HTTPTransport)] {
        var transports: [(String, any HTTPTransport)] = [
            ("URLSession", URLSessionHTTPTransport(configuration: .init(timeout: timeout)))
        ]
        #if canImport(Glibc)
            transports.append(("socket", SocketHTTPTransport(configuration: .init(timeout: timeout))))
        #endif
        return transports
    }

    func testSendsMethodHeadersAndBodyAsGiven() async throws {
        let request = HTTPRequestMessage(
            method: .post, url: try url("/echo?a=1"),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Probe": "yes"],
            body: Data("grant_type=refresh_token".utf8)
        )
        for (name, transport) in transports() {
            let response = try await transport.send(request)
            XCTAssertEqual(response.status, 200, name)
            XCTAssertEqual(response.mediaType, "application/json", name)
            let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            XCTAssertEqual(echo["method"] as? String, "POST", name)
            XCTAssertEqual(echo["path"] as? String, "/echo?a=1", name)
            XCTAssertEqual(echo["body"] as? String, "grant_type=refresh_token", name)
            let headers = echo["headers"] as? [String: String]
            XCTAssertEqual(headers?["X-Probe"], "yes", name)
            XCTAssertEqual(headers?["Accept-Encoding"], "identity", name)
        }
    }

    func testRedirectsAreReturnedNotFollowed() async throws {
        for (name, transport) in transports() {
            let response = try await transport.send(
                HTTPRequestMessage(method: .get, url: try url("/redirect"), headers: ["Authorization": "Bearer secret"])
            )
            XCTAssertEqual(response.status, 302, name)
            XCTAssertEqual(response.headers["location"], "/echo", name)
        }
    }

    func testARedirectToAnotherHostIsNotFollowedWithTheCredentials() async throws {
        for (name, transport) in transports() {
            let response = try await transport.send(
                HTTPRequestMessage(
                    method: .post, url: try url("/redirect-away"),
                    headers: ["Authorization": "Bearer secret", "x-vital-api-key": "key"], body: Data("a=b".utf8)
                ))
            XCTAssertEqual(
                response.status, 307, "\(name): the redirect is the answer; nothing went to collector.example")
            XCTAssertEqual(response.headers["location"], "https://collector.example/steal", name)
        }
    }

    func testAnAuthenticationChallengeIsReturnedAtOnce() async throws {
        for (name, transport) in transports() {
            let started = Date()
            let response = try await transport.send(
                HTTPRequestMessage(method: .get, url: try url("/challenge"), headers: ["Authorization": "Basic eDp5"]))
            XCTAssertEqual(response.status, 401, name)
            XCTAssertEqual(response.headers["WWW-Authenticate"], "Basic realm=\"probe\"", name)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"error":"unauthorized"}"#, name)
            XCTAssertLessThan(Date().timeIntervalSince(started), 2, name)
        }
    }

    func testABodyInAContentCodingNobodyAskedForIsRefused() async throws {
        for (name, transport) in transports() {
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: try url("/gzip")))
            ) {
                XCTAssertEqual(($0 as? TransportError)?.kind, .unrequestedEncoding, "\(name): \($0)")
            }
        }
    }

    func testChunkedBodiesAndInterimResponsesAreRead() async throws {
        for (name, transport) in transports() {
            let chunked = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/chunked")))
            XCTAssertEqual(String(decoding: chunked.body, as: UTF8.self), "hello, world", name)
            let interim = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/interim")))
            XCTAssertEqual(interim.status, 200, name)
            XCTAssertEqual(String(decoding: interim.body, as: UTF8.self), "final", name)
        }
    }

    func testAGivenSessionConfigurationIsKeptAndRedirectsStillRefused() async throws {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpAdditionalHeaders = ["X-From-Configuration": "kept"]
        let transport = URLSessionHTTPTransport(sessionConfiguration: sessionConfiguration)
        let echo = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/echo")))
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: echo.body) as? [String: Any])
        XCTAssertEqual((fields["headers"] as? [String: String])?["X-From-Configuration"], "kept")
        let redirect = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/redirect")))
        XCTAssertEqual(redirect.status, 302)
        // The caller's configuration object is not changed.
        XCTAssertNotNil(sessionConfiguration.httpCookieStorage)
    }

    func testAGivenSessionIsUsedOnlyWithADelegateThatRefusesRedirects() async throws {
        let session = URLSession(
            configuration: .ephemeral, delegate: URLSessionHTTPTransportDelegate(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let transport = try URLSessionHTTPTransport(session: session)
        let redirect = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/redirect")))
        XCTAssertEqual(redirect.status, 302)

        let following = URLSession(configuration: .ephemeral)
        defer { following.finishTasksAndInvalidate() }
        XCTAssertThrowsError(try URLSessionHTTPTransport(session: following)) {
            XCTAssertEqual($0 as? ConfigurationError, .redirectsFollowed)
        }
    }

    func testTheDefaultTransportReadsAChunkedBodyWithATrailer() async throws {
        // URLSession on Linux stops the process on this response (a trailer after the last chunk).
        let response = try await DefaultHTTPTransport().send(
            HTTPRequestMessage(method: .get, url: try url("/chunked-trailer")))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello, world")
        XCTAssertNil(response.headers["X-Trailer"], "a trailer field is not a header field")
    }

    func testErrorStatusesAreResponses() async throws {
        for (name, transport) in transports() {
            let response = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/status/503")))
            XCTAssertEqual(response.status, 503, name)
            XCTAssertEqual(response.retryAfter(now: Date()), 7, name)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "<html>down</html>", name)
        }
    }

    func testTimeoutIsATransportError() async throws {
        for (name, transport) in transports(timeout: 0.6) {
            let started = Date()
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: try url("/slow")))
            ) {
                XCTAssertEqual(($0 as? TransportError)?.kind, .timedOut, "\(name): \($0)")
                XCTAssertEqual(($0 as? TransportError)?.host, "127.0.0.1", name)
            }
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertGreaterThan(elapsed, 0.55, "\(name): the request was given its full timeout")
            XCTAssertLessThan(elapsed, 2.5, "\(name): the timeout ended the request before the server answered")
        }
    }

    func testCancellationCancelsTheRequest() async throws {
        let slow = try url("/slow")
        for (name, transport) in transports() {
            let task = Task { try await transport.send(HTTPRequestMessage(method: .get, url: slow)) }
            try await Task.sleep(nanoseconds: 200_000_000)
            task.cancel()
            let started = Date()
            await XCTAssertThrowsErrorAsync(try await task.value) {
                XCTAssertTrue($0 is CancellationError, "\(name): \($0)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 1, "\(name): cancellation waited for the server")
        }
    }

    func testConnectionRefusedIsCannotConnect() async throws {
        // A port nothing listens on.
        let closed = try XCTUnwrap(URL(string: "http://127.0.0.1:9/"))
        for (name, transport) in transports(timeout: 5) {
            await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: closed))) {
                XCTAssertEqual(($0 as? TransportError)?.kind, .cannotConnect, "\(name): \($0)")
            }
        }
    }
}
