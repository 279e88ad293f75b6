import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInKoppeltaal

/// A mobile launch run with canary secrets (portal password, client secret, activation and authorization codes,
/// access and refresh tokens, PKCE verifier): none shows in the session's state, results, errors or logs, and the
/// file store keeps them only where they belong, readable by the owner.
final class SecretCanaryTests: XCTestCase {
    private static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    private static func tokens(_ generation: Int) -> HTTPResponseMessage {
        json(
            200,
            """
            {"access_token": "\(SecretCanary.named("access-\(generation)"))", "token_type": "Bearer", "expires_in": 900,
             "refresh_token": "\(SecretCanary.named("refresh-\(generation)"))", "patient": "https://example/Patient/1"}
            """)
    }

    func testNoSecretShowsAnywhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCredentialStore(directory: directory)
        let log = LogCapture()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let refreshes = LockedValue(0)
        let transport = RecordingTransport { request in
            switch request.url.path {
            case let path where path.hasSuffix("/MobileLaunch"):
                return Self.json(200, #"{"activation_code": "\#(SecretCanary.named("activation"))", "expires_in": 7}"#)
            case let path where path.hasSuffix("/Authorize"):
                return Self.json(200, #"{"authorization_code": "\#(SecretCanary.named("authorization"))"}"#)
            case let path where path.hasSuffix("/Token"):
                let generation = refreshes.withValue { count -> Int in
                    count += 1
                    return count
                }
                // The third redemption is refused, so that the session's error is checked too.
                return generation < 3 ? Self.tokens(generation) : Self.json(400, #"{"error": "invalid_grant"}"#)
            case let path where path.hasSuffix("/Revoke"):
                return HTTPResponseMessage(status: 200)
            default:
                let authorized = request.headers["Authorization"] == "Bearer " + SecretCanary.named("access-2")
                return authorized
                    ? Self.json(200, "{}")
                    : HTTPResponseMessage(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            }
        }
        let base = URL(string: "https://kt.example/OAuth2/Koppeltaal")!
        let backend = KoppeltaalBackend(
            configuration: .init(
                launchURL: base,
                credentials: BasicCredentials(username: "portal", password: SecretCanary.named("portal")),
                transport: transport
            ))
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                    client: OAuthClientCredentials(
                        clientID: "RANJKA", secret: SecretCanary.named("client"), method: .unencodedBasic),
                    redirectURI: "app://cb",
                    endpoints: EndpointOverrides(
                        authorization: base.appendingPathComponent("Authorize"),
                        token: base.appendingPathComponent("Token"),
                        revocation: base.appendingPathComponent("Revoke"))), pkce: .always,
                session: OAuthSessionSettings(
                    store: store, options: ClientOptions(transport: transport, logger: log), clock: clock)))

        let activation = try await backend.mobileLaunch(clientID: "RANJKA", patient: "p", user: "u")
        let context = try await session.activate(code: activation.code)
        let response = try await session.fhir(.fhir("Patient", id: "1"))
        let state = try await XCTUnwrapAsync(
            try await store.recordedState(OAuthSessionState<LaunchContext>.self, for: session.storeKey))
        try SecretCanary.assertStoredOnlyUnder(
            ["accessToken", "refreshToken"], in: store.fileURL(for: session.storeKey))
        var thrown: (any Error)?
        clock.advance(by: 3_600)
        do {
            _ = try await session.fhir(.fhir("Patient", id: "1"))
        } catch {
            thrown = error
        }
        let revocation = try await session.revoke()

        XCTAssertEqual(response.status, 200)
        SecretCanary.assertHidden(
            [
                activation, context, state, try XCTUnwrap(state.grant), try await session.status(),
                try XCTUnwrap(thrown), revocation,
                session.configuration.registration,
            ] + transport.requests)
        SecretCanary.assertHidden(in: log)
    }
}
