import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport against a real HTTP server on 127.0.0.1.
final class URLSessionHTTPTransportTests: XCTestCase {
    private static let server = Result { try LocalServer(script: "Tests/Tools/http_probe.py") }

    private func url(_ path: String) throws -> URL {
        try XCTUnwrap(URL(string: path, relativeTo: Self.server.get().baseURL)?.absoluteURL)
    }

    func testSendsMethodHeadersAndBodyAsGiven() async throws {
        let transport = URLSessionHTTPTransport()
        let request = HTTPRequestMessage(
            method: .post, url: try url("/echo?a=1"),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Probe": "yes"],
            body: Data("grant_type=refresh_token".utf8)
        )
        let response = try await transport.send(request)
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.mediaType, "application/json")
        let echo = try XCTUnwrap(JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        XCTAssertEqual(echo["method"] as? String, "POST")
        XCTAssertEqual(echo["path"] as? String, "/echo?a=1")
        XCTAssertEqual(echo["body"] as? String, "grant_type=refresh_token")
        XCTAssertEqual((echo["headers"] as? [String: String])?["X-Probe"], "yes")
    }

    func testRedirectsAreReturnedNotFollowed() async throws {
        let response = try await URLSessionHTTPTransport().send(
            HTTPRequestMessage(method: .get, url: try url("/redirect"), headers: ["Authorization": "Bearer secret"]))
        XCTAssertEqual(response.status, 302)
        XCTAssertEqual(response.headers["location"], "/echo")
    }

    func testARedirectToAnotherHostIsNotFollowedWithTheCredentials() async throws {
        let response = try await URLSessionHTTPTransport().send(
            HTTPRequestMessage(
                method: .post, url: try url("/redirect-away"),
                headers: ["Authorization": "Bearer secret", "x-vital-api-key": "key"], body: Data("a=b".utf8)
            ))
        XCTAssertEqual(response.status, 307, "the redirect is the answer; nothing was sent to collector.example")
        XCTAssertEqual(response.headers["location"], "https://collector.example/steal")
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

    func testErrorStatusesAreResponses() async throws {
        let response = try await URLSessionHTTPTransport().send(
            HTTPRequestMessage(method: .get, url: try url("/status/503")))
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(response.retryAfter(now: Date()), 7)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "<html>down</html>")
    }

    func testTimeoutIsATransportError() async throws {
        let transport = URLSessionHTTPTransport(configuration: .init(timeout: 0.6))
        let started = Date()
        do {
            _ = try await transport.send(HTTPRequestMessage(method: .get, url: try url("/slow")))
            XCTFail("expected a timeout")
        } catch let error as TransportError {
            XCTAssertEqual(error.kind, .timedOut)
            XCTAssertEqual(error.host, "127.0.0.1")
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(elapsed, 0.55, "the request was given its full timeout")
        XCTAssertLessThan(elapsed, 2.5, "the timeout ended the request before the server answered")
    }

    func testCancellationCancelsTheRequest() async throws {
        let slow = try url("/slow")
        let task = Task { try await URLSessionHTTPTransport().send(HTTPRequestMessage(method: .get, url: slow)) }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        let started = Date()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5, "cancellation should not wait for the server")
    }

    func testConnectionRefusedIsCannotConnect() async throws {
        // A port nothing listens on: bind and release one first.
        let closed = try XCTUnwrap(URL(string: "http://127.0.0.1:9/"))
        do {
            _ = try await URLSessionHTTPTransport(configuration: .init(timeout: 5)).send(
                HTTPRequestMessage(method: .get, url: closed))
            XCTFail("expected a transport error")
        } catch let error as TransportError {
            XCTAssertEqual(error.kind, .cannotConnect)
        }
    }
}
