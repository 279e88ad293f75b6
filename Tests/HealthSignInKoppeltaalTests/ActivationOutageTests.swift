import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// A short outage during activation is waited out, so it does not cost the patient their single-use code; a
/// refusal is final at once.
final class ActivationOutageTests: XCTestCase {
    private static let json: HTTPHeaderFields = ["Content-Type": "application/json"]

    /// A session whose Authorize and Token endpoints answer from `authorize` and `token` in order.
    private func session(
        authorize: [Result<HTTPResponseMessage, TransportError>], token: [HTTPResponseMessage],
        window: TimeInterval = 30
    ) throws -> (KoppeltaalSession, RecordingTransport) {
        let tokenResponse = try Fixtures.data("Koppeltaal/Token/response.json")
        let authorizeAnswers = LockedValue(authorize)
        let tokenAnswers = LockedValue(token)
        let transport = RecordingTransport { request in
            if request.url.lastPathComponent == "Authorize" {
                let next = authorizeAnswers.withValue { $0.isEmpty ? nil : $0.removeFirst() }
                return try next?.get()
                    ?? HTTPResponseMessage(
                        status: 200, headers: Self.json, body: Data(#"{"authorization_code": "c"}"#.utf8))
            }
            return tokenAnswers.withValue { $0.isEmpty ? nil : $0.removeFirst() }
                ?? HTTPResponseMessage(status: 200, headers: Self.json, body: tokenResponse)
        }
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                    client: OAuthClientCredentials(clientID: "c", secret: "s", method: .unencodedBasic),
                    redirectURI: "app://cb",
                    endpoints: EndpointOverrides(
                        authorization: URL(string: "https://kt.example/OAuth2/Koppeltaal/Authorize"),
                        token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token"))),
                activationRetryWindow: window,
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport))))
        return (session, transport)
    }

    private func paths(_ transport: RecordingTransport) -> [String] {
        transport.requests.map(\.url.lastPathComponent)
    }

    func testConnectionErrorsAnd5xxAreWaitedOut() async throws {
        let (session, transport) = try session(
            authorize: [
                .failure(TransportError(.connectionLost, url: nil, detail: "reset")),
                .success(HTTPResponseMessage(status: 503, headers: ["Retry-After": "1"], body: Data("busy".utf8))),
            ],
            token: [
                HTTPResponseMessage(status: 500, headers: Self.json, body: Data(#"{"error": "server_error"}"#.utf8)),
                HTTPResponseMessage(status: 502, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8)),
                HTTPResponseMessage(status: 429, headers: ["Retry-After": "0"], body: Data()),
            ])
        let started = Date()
        _ = try await session.activate(code: "123456")
        XCTAssertEqual(paths(transport), ["Authorize", "Authorize", "Authorize", "Token", "Token", "Token", "Token"])
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1, "the Retry-After was honoured")
        guard case .active = try await session.status() else { return XCTFail("not activated") }
    }

    func testARefusalIsNotRetried() async throws {
        let (session, transport) = try session(
            authorize: [],
            token: [
                HTTPResponseMessage(status: 400, headers: Self.json, body: Data(#"{"error": "invalid_grant"}"#.utf8))
            ])
        do {
            _ = try await session.activate(code: "123456")
            XCTFail("activated")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .codeRejected)
            XCTAssertEqual(error.serverError?.code, .invalidGrant)
        }
        XCTAssertEqual(paths(transport), ["Authorize", "Token"])
    }

    func testAnOutageLongerThanTheWindowSurfaces() async throws {
        let (session, transport) = try session(
            authorize: [.success(HTTPResponseMessage(status: 503, headers: ["Retry-After": "120"], body: Data()))],
            token: [],
            window: 30)
        do {
            _ = try await session.activate(code: "123456")
            XCTFail("activated")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.status, 503)
        }
        XCTAssertEqual(paths(transport), ["Authorize"], "a Retry-After beyond the window is not waited for")
    }
}
