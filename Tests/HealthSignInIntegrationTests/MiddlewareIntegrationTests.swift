import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Middlewares set on a flow's options, against the test kit's in-process Junction server: every request passes them
/// with its operation, they can change the request, and a retry can tell a token refresh from a data call.
final class MiddlewareIntegrationTests: XCTestCase {
    private var server: VitalTestServer!

    override func setUp() async throws {
        server = VitalTestServer()
    }

    private var hosts: VitalHostMap { .all(VitalHosts(api: server.apiURL, auth: server.authURL)) }

    private func core(_ middlewares: [any HTTPClientMiddleware]) -> VitalSession {
        VitalSession(
            configuration: .init(
                store: InMemoryCredentialStore(), hosts: hosts, transport: server.transport, middlewares: middlewares))
    }

    private func signInToken() async throws -> String {
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey(VitalTestServer.sandboxUSKey), environment: .sandboxUS, hosts: hosts,
                transport: server.transport))
        return try await backend.signInToken(forClientUserID: "alice").signInToken
    }

    func testEveryRequestPassesTheMiddlewaresInOrderWithItsOperation() async throws {
        let outer = Recorder(name: "outer")
        let inner = Recorder(name: "inner")
        let app = core([outer, inner])
        _ = try await app.signIn(token: try await signInToken())
        _ = try await app.connectedProviders()
        server.expireAccessTokens()
        _ = try await app.connectedProviders()

        // After the server expired the token, the data call gets a 401, the refresh follows, then the replay.
        XCTAssertEqual(
            outer.operations,
            [
                "Vital.ExchangeSignInToken", "Vital.GetConnectedProviders", "Vital.GetConnectedProviders",
                "Vital.RefreshToken", "Vital.GetConnectedProviders",
            ])
        XCTAssertEqual(inner.operations, outer.operations)
        // The first middleware sees the request first and the response last.
        XCTAssertEqual(
            Recorder.log.current.prefix(4),
            [
                "outer → Vital.ExchangeSignInToken", "inner → Vital.ExchangeSignInToken",
                "inner ← 200", "outer ← 200",
            ])
        // What the outer one added reached the inner one, and the server answered the changed request.
        XCTAssertTrue(inner.sawTag)
    }

    func testARetryMiddlewareRetriesDataCallsButNeverARefresh() async throws {
        let retry = RetryDataCalls()
        let app = core([retry])
        _ = try await app.signIn(token: try await signInToken())

        // One 503 on the data endpoint: the middleware sends the call again, and the caller sees the answer.
        server.faults.inject(.status(503), at: server.apiURL.appendingPathComponent("v2/user/providers"))
        await XCTAssertEqualAsync(try await app.connectedProviders().map(\.slug), ["oura"])
        XCTAssertEqual(retry.retried, ["Vital.GetConnectedProviders"])

        // One 503 on the token endpoint during a refresh: not retried by the middleware.
        server.expireAccessTokens()
        server.faults.inject(.status(503), at: server.tokenURL)
        do {
            _ = try await app.connectedProviders()
            XCTFail("the refresh's 503 was expected to reach the caller")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.response.status, 503)
        }
        XCTAssertEqual(retry.retried, ["Vital.GetConnectedProviders"])
        XCTAssertEqual(retry.seen.filter { $0 == "Vital.RefreshToken" }.count, 1)
    }

    func testAMiddlewareCannotSendWhereTheURLPolicyRefuses() async throws {
        let app = core([Redirecting(to: URL(string: "http://example.com/elsewhere")!)])
        do {
            _ = try await app.signIn(token: try await signInToken())
            XCTFail("a request to a non-loopback http URL was expected to be refused")
        } catch let error as ConfigurationError {
            XCTAssertEqual(error, .insecureURL(host: "example.com"))
        }
    }
}

/// Records the operations it sees and adds a header the next middleware can see.
private final class Recorder: HTTPClientMiddleware, @unchecked Sendable {
    static let log = LockedValue<[String]>([])
    let name: String
    private let state = LockedValue<(operations: [String], sawTag: Bool)>(([], false))

    init(name: String) { self.name = name }

    var operations: [String] { state.current.operations }
    var sawTag: Bool { state.current.sawTag }

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        state.withValue {
            $0.operations.append(operation.description)
            if request.headers["X-Middleware"] == "outer" { $0.sawTag = true }
        }
        Self.log.withValue { $0.append("\(name) → \(operation)") }
        var request = request
        if name == "outer" { request.headers["X-Middleware"] = "outer" }
        let response = try await next(request)
        Self.log.withValue { $0.append("\(name) ← \(response.status)") }
        return response
    }
}

/// Sends a data call once more after a 5xx; never a token refresh, which must not be replayed.
private final class RetryDataCalls: HTTPClientMiddleware, @unchecked Sendable {
    private let state = LockedValue<(seen: [String], retried: [String])>(([], []))
    var seen: [String] { state.current.seen }
    var retried: [String] { state.current.retried }

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        state.withValue { $0.seen.append(operation.description) }
        let response = try await next(request)
        guard (500..<600).contains(response.status), operation.method != "RefreshToken",
            operation.method != "ExchangeSignInToken"
        else { return response }
        state.withValue { $0.retried.append(operation.description) }
        return try await next(request)
    }
}

/// Points every request elsewhere.
private struct Redirecting: HTTPClientMiddleware {
    let url: URL

    init(to url: URL) { self.url = url }

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        var request = request
        request.url = url
        return try await next(request)
    }
}
