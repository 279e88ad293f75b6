import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ``HTTPTransport`` contract, checked for every transport: `URLSessionHTTPTransport` and (on Linux)
/// `CurlHTTPTransport` against a real HTTP server on 127.0.0.1, and the test kit's `TestServerTransport` against an
/// in-process server with its faults. Each subject answers the probes its server can play; what is particular to one
/// transport is in its own tests.
final class TransportConformanceTests: XCTestCase {
    private static let server = Result { try LocalServer(script: "Tests/Tools/http_probe.py") }
    private static let kit = SMARTTestServer()

    /// What a check asks of a subject's server.
    enum Probe {
        /// Echoes the request as JSON (network servers only).
        case echo
        /// A 302 to `/echo`, a 307 to another host, a 401 with a challenge, a gzip body, chunked and interim
        /// responses (network servers only).
        case redirect, redirectAway, challenge, gzip, chunked, interim
        /// A 503 with `Retry-After: 7`.
        case serviceUnavailable
        /// A 200 with a body of more than 4 bytes.
        case sizable
        /// An answer that takes longer than any timeout of the suite.
        case slow
        /// An answer that takes its time, for a caller to cancel on the way (network servers only: the test kit's
        /// answers take no time).
        case unhurried
        /// An answer whose connection ends before the body does.
        case cutShort
        /// An origin nothing answers at.
        case unreachable
    }

    /// A transport under the suite, made with a timeout, and the URL of each probe its server plays.
    struct Subject {
        let name: String
        let make: (TimeInterval) -> any HTTPTransport
        /// The probe's URL, with the server set up to play it, or nil when this server cannot.
        let url: (Probe) throws -> URL?
    }

    private func subjects() throws -> [Subject] {
        let base = try Self.server.get().baseURL
        let network = { (probe: Probe) -> URL? in
            let paths: [Probe: String] = [
                .echo: "/echo?a=1", .redirect: "/redirect", .redirectAway: "/redirect-away", .challenge: "/challenge",
                .gzip: "/gzip", .chunked: "/chunked", .interim: "/interim", .serviceUnavailable: "/status/503",
                .sizable: "/echo", .slow: "/slow", .unhurried: "/slow", .cutShort: "/cut-length",
            ]
            if probe == .unreachable { return URL(string: "http://127.0.0.1:9/") }
            return paths[probe].flatMap { URL(string: $0, relativeTo: base)?.absoluteURL }
        }
        var subjects = [
            Subject(
                name: "URLSession", make: { URLSessionHTTPTransport(configuration: .init(timeout: $0)) }, url: network)
        ]
        #if canImport(Glibc)
            subjects.append(
                Subject(
                    name: "curl", make: { CurlHTTPTransport(configuration: .init(timeout: $0, proxy: .none)) },
                    url: network))
        #endif
        let kit = Self.kit
        subjects.append(
            Subject(name: "test kit", make: { kit.transport(timeout: $0) }) { probe in
                let endpoint = kit.jwksURL
                // A fault a check did not use (its request refused before sending) must not play in the next.
                kit.faults.removeAll()
                switch probe {
                case .sizable: break
                case .serviceUnavailable: kit.faults.inject(.status(503, retryAfter: 7), at: endpoint)
                case .slow: kit.faults.inject(.slow(seconds: 600), at: endpoint)
                case .cutShort: kit.faults.inject(.loseResponse, at: endpoint)
                case .unreachable: return URL(string: "https://unreachable.test/")
                default: return nil
                }
                return endpoint
            })
        return subjects
    }

    /// Runs `check` for every subject whose server plays `probe`.
    private func forEach(
        playing probe: Probe, timeout: TimeInterval = 30,
        _ check: (String, any HTTPTransport, URL) async throws -> Void
    ) async throws {
        var checked = 0
        for subject in try subjects() {
            guard let url = try subject.url(probe) else { continue }
            try await check(subject.name, subject.make(timeout), url)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 0, "no subject plays \(probe)")
    }

    private func kind(of error: any Error) -> TransportError.Kind? { (error as? TransportError)?.kind }

    func testSendsMethodHeadersAndBodyAsGiven() async throws {
        try await forEach(playing: .echo) { name, transport, url in
            let request = HTTPRequestMessage(
                method: .post, url: url,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Probe": "yes"],
                body: Data("grant_type=refresh_token".utf8))
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
        try await forEach(playing: .redirect) { name, transport, url in
            let response = try await transport.send(
                HTTPRequestMessage(method: .get, url: url, headers: ["Authorization": "Bearer secret"]))
            XCTAssertEqual(response.status, 302, name)
            XCTAssertEqual(response.headers["location"], "/echo", name)
        }
    }

    func testARedirectToAnotherHostIsNotFollowedWithTheCredentials() async throws {
        try await forEach(playing: .redirectAway) { name, transport, url in
            let response = try await transport.send(
                HTTPRequestMessage(
                    method: .post, url: url, headers: ["Authorization": "Bearer secret", "x-vital-api-key": "key"],
                    body: Data("a=b".utf8)))
            XCTAssertEqual(
                response.status, 307, "\(name): the redirect is the answer; nothing went to collector.example")
            XCTAssertEqual(response.headers["location"], "https://collector.example/steal", name)
        }
    }

    func testAnAuthenticationChallengeIsReturnedAtOnce() async throws {
        try await forEach(playing: .challenge) { name, transport, url in
            let started = Date()
            let response = try await transport.send(
                HTTPRequestMessage(method: .get, url: url, headers: ["Authorization": "Basic eDp5"]))
            XCTAssertEqual(response.status, 401, name)
            XCTAssertEqual(response.headers["WWW-Authenticate"], "Basic realm=\"probe\"", name)
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), #"{"error":"unauthorized"}"#, name)
            XCTAssertLessThan(Date().timeIntervalSince(started), 2, name)
        }
    }

    func testABodyInAContentCodingNobodyAskedForIsRefused() async throws {
        try await forEach(playing: .gzip) { name, transport, url in
            await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url)), name)
            {
                XCTAssertEqual(self.kind(of: $0), .unrequestedEncoding, "\(name): \($0)")
            }
        }
    }

    func testChunkedBodiesAndInterimResponsesAreRead() async throws {
        try await forEach(playing: .chunked) { name, transport, url in
            let chunked = try await transport.send(HTTPRequestMessage(method: .get, url: url))
            XCTAssertEqual(String(decoding: chunked.body, as: UTF8.self), "hello, world", name)
        }
        try await forEach(playing: .interim) { name, transport, url in
            let interim = try await transport.send(HTTPRequestMessage(method: .get, url: url))
            XCTAssertEqual(interim.status, 200, name)
            XCTAssertEqual(String(decoding: interim.body, as: UTF8.self), "final", name)
        }
    }

    func testErrorStatusesAreResponses() async throws {
        try await forEach(playing: .serviceUnavailable) { name, transport, url in
            let response = try await transport.send(HTTPRequestMessage(method: .get, url: url))
            XCTAssertEqual(response.status, 503, name)
            XCTAssertEqual(response.retryAfter(now: Date()), 7, name)
        }
    }

    func testABodyCutShortIsNeverAResponse() async throws {
        try await forEach(playing: .cutShort) { name, transport, url in
            // A typed transport error; its kind is each transport's (curl's is `connectionLost`, URLSession's on
            // Linux `other`).
            await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url)), name)
            {
                XCTAssertNotNil(self.kind(of: $0), "\(name): \($0)")
            }
        }
    }

    func testTimeoutIsATransportError() async throws {
        try await forEach(playing: .slow, timeout: 0.6) { name, transport, url in
            let started = Date()
            await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url)), name)
            {
                XCTAssertEqual(self.kind(of: $0), .timedOut, "\(name): \($0)")
                XCTAssertEqual(($0 as? TransportError)?.host, url.host, name)
            }
            XCTAssertLessThan(
                Date().timeIntervalSince(started), 2.5, "\(name): the timeout ended the request before the answer")
        }
    }

    func testATimeoutThatIsNotAPositiveNumberIsAConfigurationErrorAndInfinityIsNone() async throws {
        try await forEach(playing: .serviceUnavailable) { name, transport, url in
            for timeout in [TimeInterval.nan, -1, 0] {
                var request = HTTPRequestMessage(method: .get, url: url)
                request.timeout = timeout
                await XCTAssertThrowsErrorAsync(try await transport.send(request), name) {
                    guard case .invalidTimeout? = $0 as? ConfigurationError else {
                        return XCTFail("\(name), \(timeout): \($0)")
                    }
                }
            }
        }
        try await forEach(playing: .serviceUnavailable) { name, transport, url in
            var unbounded = HTTPRequestMessage(method: .get, url: url)
            unbounded.timeout = .infinity
            let response = try await transport.send(unbounded)
            XCTAssertEqual(response.status, 503, name)
        }
    }

    func testTheSizeLimitEndsAResponseThatGoesBeyondIt() async throws {
        try await forEach(playing: .sizable) { name, transport, url in
            var request = HTTPRequestMessage(method: .get, url: url)
            request.maximumResponseSize = 4
            await XCTAssertThrowsErrorAsync(try await transport.send(request), name) {
                XCTAssertEqual(self.kind(of: $0), .responseTooLarge, "\(name): \($0)")
            }
        }
    }

    func testCancellationCancelsTheRequest() async throws {
        try await forEach(playing: .unhurried) { name, transport, url in
            let task = Task { try await transport.send(HTTPRequestMessage(method: .get, url: url)) }
            try await Task.sleep(nanoseconds: 200_000_000)
            task.cancel()
            let started = Date()
            await XCTAssertThrowsErrorAsync(try await task.value) {
                XCTAssertTrue($0 is CancellationError, "\(name): \($0)")
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 1, "\(name): cancellation waited for the server")
        }
    }

    func testAnOriginNothingAnswersAtIsCannotConnect() async throws {
        try await forEach(playing: .unreachable, timeout: 5) { name, transport, url in
            await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url)), name)
            {
                XCTAssertEqual(self.kind(of: $0), .cannotConnect, "\(name): \($0)")
            }
        }
    }

    // MARK: - URLSession's own

    func testAGivenSessionConfigurationIsKeptAndRedirectsStillRefused() async throws {
        let base = try Self.server.get().baseURL
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpAdditionalHeaders = ["X-From-Configuration": "kept"]
        let transport = URLSessionHTTPTransport(sessionConfiguration: sessionConfiguration)
        let echo = try await transport.send(HTTPRequestMessage(method: .get, url: base.appendingPathComponent("echo")))
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: echo.body) as? [String: Any])
        XCTAssertEqual((fields["headers"] as? [String: String])?["X-From-Configuration"], "kept")
        let redirect = try await transport.send(
            HTTPRequestMessage(method: .get, url: base.appendingPathComponent("redirect")))
        XCTAssertEqual(redirect.status, 302)
        // The caller's configuration object is not changed.
        XCTAssertNotNil(sessionConfiguration.httpCookieStorage)
    }

    func testAGivenSessionIsUsedOnlyWithADelegateThatRefusesRedirects() async throws {
        let base = try Self.server.get().baseURL
        let session = URLSession(
            configuration: .ephemeral, delegate: URLSessionHTTPTransportDelegate(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let transport = try URLSessionHTTPTransport(session: session)
        let redirect = try await transport.send(
            HTTPRequestMessage(method: .get, url: base.appendingPathComponent("redirect")))
        XCTAssertEqual(redirect.status, 302)

        let following = URLSession(configuration: .ephemeral)
        defer { following.finishTasksAndInvalidate() }
        XCTAssertThrowsError(try URLSessionHTTPTransport(session: following)) {
            XCTAssertEqual($0 as? ConfigurationError, .redirectsFollowed)
        }
    }

    func testTheDefaultTransportReadsAChunkedBodyWithATrailer() async throws {
        // URLSession on Linux stops the process on this response (a trailer after the last chunk).
        let base = try Self.server.get().baseURL
        let response = try await DefaultHTTPTransport().send(
            HTTPRequestMessage(method: .get, url: base.appendingPathComponent("chunked-trailer")))
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello, world")
        XCTAssertNil(response.headers["X-Trailer"], "a trailer field is not a header field")
    }
}
