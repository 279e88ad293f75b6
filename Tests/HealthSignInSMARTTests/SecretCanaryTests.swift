import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInSMART

/// A SMART launch and a backend client run with canary secrets (client secret, private key, authorization code,
/// access and refresh tokens, `state`, PKCE verifier, client assertion): none shows in the session's state, results,
/// errors, requests or logs, and the file store keeps them only where they belong, readable by the owner.
final class SecretCanaryTests: XCTestCase {
    private static let base = URL(string: "https://ehr.example/fhir")!

    /// The SMART IG's P-384 example key, whose private part is public; its `d` is checked as a secret.
    private static let privateKey = "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5"
    private static let key = """
        {"kty": "EC", "crv": "P-384", "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384",
         "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
         "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI", "d": "\(privateKey)"}
        """

    private static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    private static func tokens(_ generation: Int) -> HTTPResponseMessage {
        json(
            200,
            """
            {"access_token": "\(SecretCanary.named("access-\(generation)"))", "token_type": "Bearer",
             "expires_in": 900, "scope": "launch/patient offline_access patient/*.rs",
             "refresh_token": "\(SecretCanary.named("refresh-\(generation)"))", "patient": "123"}
            """)
    }

    /// The EHR: discovery, a token endpoint that refuses its third refresh, revocation, and a FHIR server that takes
    /// only the newest access token.
    private static func server(tokenRequests: LockedValue<Int>) -> RecordingTransport {
        RecordingTransport { request in
            switch request.url.path {
            case "/fhir/.well-known/smart-configuration":
                return json(
                    200,
                    """
                    {"authorization_endpoint": "https://ehr.example/auth/authorize",
                     "token_endpoint": "https://ehr.example/auth/token",
                     "revocation_endpoint": "https://ehr.example/auth/revoke",
                     "capabilities": ["launch-standalone"], "code_challenge_methods_supported": ["S256"]}
                    """)
            case "/auth/token":
                if String(decoding: request.body ?? Data(), as: UTF8.self).contains("client_credentials") {
                    return json(
                        200,
                        #"{"access_token": "\#(SecretCanary.named("backend"))", "token_type": "Bearer", "expires_in": 300}"#
                    )
                }
                let generation = tokenRequests.withValue { count -> Int in
                    count += 1
                    return count
                }
                return generation < 3 ? tokens(generation) : json(400, #"{"error": "invalid_grant"}"#)
            case "/auth/revoke":
                return HTTPResponseMessage(status: 200)
            default:
                let current = ["access-2", "backend"].map { "Bearer " + SecretCanary.named($0) }
                return current.contains(request.headers["Authorization"] ?? "")
                    ? json(200, #"{"resourceType": "Patient", "id": "123"}"#)
                    : HTTPResponseMessage(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            }
        }
    }

    func testNoSecretShowsAnywhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCredentialStore(directory: directory)
        let log = LogCapture()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let transport = Self.server(tokenRequests: LockedValue(0))
        let session = SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: Self.base,
                    client: OAuthClientCredentials(clientID: "canary-app", secret: SecretCanary.named("client")),
                    redirectURI: "app://cb"), scope: "launch/patient offline_access patient/*.rs",
                session: OAuthSessionSettings(
                    store: store, options: ClientOptions(transport: transport, logger: log), clock: clock)))
        let signer = try ClientAssertionSigner(key: JSONWebKey(json: Data(Self.key.utf8)), algorithm: .es384)
        let backend = SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: Self.base, client: OAuthClientCredentials(clientID: "canary-backend", signer: signer)),
                scope: "system/*.rs",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport, logger: log))))

        let authorization = try await session.standaloneAuthorizationURL()
        let state = try XCTUnwrap(FakeSMARTServer.state(in: authorization))
        try SecretCanary.assertStoredOnlyUnder(["state"], in: store.fileURL(for: session.storeKey), also: [state])
        let redirect = try XCTUnwrap(FakeSMARTServer.redirect(for: authorization, code: SecretCanary.named("code")))
        let context = try await session.completeAuthorization(redirectURL: redirect)
        let response = try await session.fhir(.fhir("Patient", id: "123"))
        let stored = try await XCTUnwrapAsync(
            try await store.recordedState(OAuthSessionState<SMARTLaunchContext>.self, for: session.storeKey))
        try SecretCanary.assertStoredOnlyUnder(
            ["accessToken", "refreshToken"], in: store.fileURL(for: session.storeKey))
        var thrown: (any Error)?
        clock.advance(by: 3_600)
        do {
            _ = try await session.fhir(.fhir("Patient", id: "123"))
        } catch {
            thrown = error
        }
        let revocation = try await session.revoke()
        let token = try await backend.token()
        let backendResponse = try await backend.fhir(.fhir("Patient", id: "123"))

        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(backendResponse.status, 200)
        let sent = transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        let verifier = try XCTUnwrap(
            sent.compactMap { FormFields(formEncoded: $0)["code_verifier"] }.first, "no code_verifier was sent")
        let assertion = try XCTUnwrap(
            sent.compactMap { FormFields(formEncoded: $0)["client_assertion"] }.first, "no assertion was sent")
        SecretCanary.assertHidden(
            [
                context, stored, try XCTUnwrap(stored.grant), try await session.status(), try XCTUnwrap(thrown),
                revocation, session.configuration.registrations, token, signer, backend.configuration.registration,
            ] + transport.requests,
            also: [Self.privateKey, state, verifier, assertion])
        SecretCanary.assertHidden(in: log, also: [Self.privateKey, state, verifier, assertion])
    }
}
