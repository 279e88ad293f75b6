import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// The exact requests activation sends: state from the injected randomness, the launch code in the scope, and the
/// same redirect_uri at Authorize and Token.
final class ActivationRequestTests: XCTestCase {
    func testAuthorizeAndTokenRequests() async throws {
        let transport = RecordingTransport { request in
            if request.url.path.hasSuffix("/Authorize") {
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"authorisation_code": "AC-1"}"#.utf8))
            }
            return HTTPResponseMessage(
                status: 200, headers: ["Content-Type": "application/json"],
                body: try Fixtures.data("Koppeltaal/Token/response.json"))
        }
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                    client: OAuthClientCredentials(clientID: "RANJKA", secret: "s&cret", method: .unencodedBasic),
                    redirectURI: "http://test.kickass.ranjgames.com/builds/rev-1005/index-game.html/After-Auth",
                    endpoints: EndpointOverrides(
                        authorization: URL(string: "https://kt.example/OAuth2/Koppeltaal/Authorize"),
                        token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token"),
                        revocation: URL(string: "https://kt.example/OAuth2/Koppeltaal/Revoke"))), pkce: .always,
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport),
                    random: SeededRandomSource(seed: "fixed"))))
        let context = try await session.activate(code: "593740")
        XCTAssertEqual(context.patient, "https://ggzeindhoven.minddistrict.com/Patient/72308")
        let requests = transport.requests
        XCTAssertEqual(requests.count, 2)
        let expectedState = Base64URL.encode(SeededRandomSource(seed: "fixed").bytes(count: 32 + 16).suffix(16))
        let pkce = PKCEPair(verifier: Base64URL.encode(SeededRandomSource(seed: "fixed").bytes(count: 32)))
        XCTAssertEqual(
            HTTPText.render(requests[0]),
            """
            GET https://kt.example/OAuth2/Koppeltaal/Authorize?response_type=code&client_id=RANJKA&redirect_uri=http%3A%2F%2Ftest.kickass.ranjgames.com%2Fbuilds%2Frev-1005%2Findex-game.html%2FAfter-Auth&scope=patient%2F*.read%20launch%3A593740&state=\(expectedState)&code_challenge=\(pkce.challenge)&code_challenge_method=S256
            Accept: application/json

            """)
        XCTAssertEqual(
            HTTPText.render(requests[1]),
            """
            POST https://kt.example/OAuth2/Koppeltaal/Token
            Accept: application/json
            Cache-Control: no-store
            Authorization: Basic UkFOSktBOnMmY3JldA==
            Content-Type: application/x-www-form-urlencoded

            grant_type=authorization_code&code=AC-1&redirect_uri=http%3A%2F%2Ftest.kickass.ranjgames.com%2Fbuilds%2Frev-1005%2Findex-game.html%2FAfter-Auth&code_verifier=\(pkce.verifier)

            """, "Koppeltaal's default client authentication is Basic over the id and secret as they are (RFC 7617)")
        guard case .revoked = try await session.revoke() else { return XCTFail("not revoked") }
        XCTAssertEqual(transport.requests.last?.url.path, "/OAuth2/Koppeltaal/Revoke")
        XCTAssertEqual(
            transport.requests.last?.headers["Authorization"], "Basic UkFOSktBOnMmY3JldA==", "revocation too")
    }

    func testAuthorizeCarriesThePromptAndTheAppsParametersButNotItsOwnNamesTwice() async throws {
        let transport = RecordingTransport { request in
            HTTPResponseMessage(
                status: 200, headers: ["Content-Type": "application/json"],
                body: request.url.path.hasSuffix("/a")
                    ? Data(#"{"authorization_code": "AC-1"}"#.utf8)
                    : try Fixtures.data("Koppeltaal/Token/response.json"))
        }
        func session(_ parameters: AuthorizationParameters, scope: String = "patient/*.read") -> KoppeltaalSession {
            KoppeltaalSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                        client: OAuthClientCredentials(clientID: "RANJKA", method: .unencodedBasic),
                        redirectURI: "app://cb",
                        endpoints: EndpointOverrides(
                            authorization: URL(string: "https://kt.example/a"),
                            token: URL(string: "https://kt.example/t"))), scope: scope, authorization: parameters,
                    pkce: .never,
                    session: OAuthSessionSettings(
                        store: InMemoryCredentialStore(), options: ClientOptions(transport: transport),
                        random: SeededRandomSource(seed: "fixed"))))
        }
        _ = try await session(.init(prompt: "login", additional: ["ui_locales": "nl", "acr_values": "urn:x"]))
            .activate(code: "1")
        let query = try XCTUnwrap(transport.requests.first?.url.query)
        XCTAssertTrue(query.hasSuffix("&prompt=login&acr_values=urn%3Ax&ui_locales=nl"), query)
        _ = try await session(.init(), scope: "openid offline_access").activate(code: "2")
        let consent = try XCTUnwrap(transport.requests.last { $0.url.path == "/a" }?.url.query)
        XCTAssertTrue(consent.hasSuffix("&prompt=consent"), consent)
        let sent = transport.requests.count
        await XCTAssertThrowsErrorAsync(
            try await session(.init(additional: ["redirect_uri": "https://evil.example"])).activate(code: "3")
        ) { error in
            XCTAssertEqual((error as? SignInError)?.code, .invalidAuthorizationParameters)
        }
        XCTAssertEqual(transport.requests.count, sent, "nothing is sent")
    }

    func testAnEchoedStateMustMatch() async throws {
        let transport = RecordingTransport(responses: [
            HTTPResponseMessage(status: 200, body: Data(#"{"authorization_code": "AC-1", "state": "forged"}"#.utf8))
        ])
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                    client: OAuthClientCredentials(clientID: "RANJKA", method: .unencodedBasic),
                    redirectURI: "app://cb",
                    endpoints: EndpointOverrides(
                        authorization: URL(string: "https://kt.example/a"), token: URL(string: "https://kt.example/t"))),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport))))
        do {
            _ = try await session.activate(code: "1")
            XCTFail("expected a state mismatch")
        } catch let error as SignInError where error.code == .stateMismatch {}
        XCTAssertEqual(transport.requests.count, 1, "the code is not redeemed")
    }
}
