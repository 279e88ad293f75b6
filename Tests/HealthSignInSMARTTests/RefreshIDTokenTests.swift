import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// An id token that comes with a refresh is validated as OpenID Connect Core §12.2 says: the same issuer, user and
/// client as the sign-in's, freshly issued, signed by the server, with no other nonce. One that is not ends the grant
/// as compromised (its new tokens revoked); a refresh without one keeps the sign-in's.
final class RefreshIDTokenTests: XCTestCase {
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    private var provider: FakeOpenIDProvider!
    private var server: FakeSMARTServer!
    private var transport: RecordingTransport!

    override func setUp() {
        provider = FakeOpenIDProvider(issuer: FakeSMARTServer.issuer, clientID: "app", clock: clock)
        let server = FakeSMARTServer(openID: provider)
        self.server = server
        transport = RecordingTransport { server.answer($0) }
    }

    /// A session signed in as `user-1`, whose access token has just expired.
    private func signedIn(as user: String = "alice") async throws -> SMARTSession {
        let session = SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: FakeSMARTServer.fhirBaseURL, client: OAuthClientCredentials(clientID: "app"),
                    redirectURI: "app://cb"), scope: "launch/patient openid fhirUser offline_access",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), clock: clock)))
        let url = try await session.standaloneAuthorizationURL()
        provider.authorize(url, code: "ac-\(user)")
        _ = try await session.completeAuthorization(
            redirectURL: try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "ac-\(user)")))
        clock.advance(by: 1_000)
        return session
    }

    private func storedIDToken(_ session: SMARTSession) async throws -> String? {
        try await session.oauth.credentials.current()?.grant?.tokens.idToken
    }

    func testAMatchingIDTokenReplacesTheSignInsAndNoneKeepsIt() async throws {
        let session = try await signedIn()
        let first = try await storedIDToken(session)
        _ = try await session.fhir(.fhir("Patient", id: "1"))
        let second = try await storedIDToken(session)
        XCTAssertNotEqual(second, first, "the refresh's id token is kept")
        XCTAssertEqual(server.ledger.refreshCount, 1)
        provider.settings.withValue { $0.onRefresh = false }
        clock.advance(by: 1_000)
        _ = try await session.fhir(.fhir("Patient", id: "1"))
        XCTAssertEqual(server.ledger.refreshCount, 2)
        let third = try await storedIDToken(session)
        XCTAssertEqual(third, second)
    }

    func testAnIDTokenForAnotherUserOrClientEndsTheGrant() async throws {
        let now = JSONValue.number(JSONNumber(1_800_001_000))
        let changes: [(String, [String: JSONValue?], IDTokenError)] = [
            ("sub", ["sub": "user-2"], .differsFromSignIn("sub")),
            ("aud", ["aud": ["app", "other-app"]], .audienceMismatch(["app", "other-app"])),
            ("azp", ["azp": "app"], .differsFromSignIn("azp")),
            ("auth_time", ["auth_time": now], .differsFromSignIn("auth_time")),
            ("nonce", ["nonce": "another"], .differsFromSignIn("nonce")),
            ("iss", ["iss": "https://ehr.example/other"], .issuerMismatch("https://ehr.example/other")),
            ("iat", ["iat": .number(JSONNumber(1_800_000_000))], .tooOld(Date(timeIntervalSince1970: 1_800_000_000))),
        ]
        for (claim, change, expected) in changes {
            provider.settings.withValue { $0.refreshClaims = change }
            let session = try await signedIn(as: claim)
            let revocations = transport.requests.filter { $0.url == FakeSMARTServer.revokeURL }.count
            await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "1")), claim) { error in
                XCTAssertEqual((error as? SignInError)?.code, .idTokenRejected, "\(claim): \(error)")
                XCTAssertEqual((error as? SignInError)?.idTokenError, expected, claim)
            }
            await XCTAssertEqualAsync(try await session.status(), .signedOut, claim)
            XCTAssertEqual(
                transport.requests.filter { $0.url == FakeSMARTServer.revokeURL }.count, revocations + 2,
                "\(claim): the tokens the refresh issued are revoked")
        }
    }
}
