import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// Requests the generated SMART client sends, byte for byte, and the responses it reads, with the SMART IG's examples
/// (its discovery document, its public and symmetric token requests, its token response with launch context).
final class WireTests: XCTestCase {
    private static let server = URL(string: "https://ehr.example.com/auth")!
    private static let redirectURI = "https://sharp-lake-word.glitch.me/graph.html"
    /// The IG's 128-character PKCE verifier (smart.md 16.2).
    private static let verifier =
        "o28xyrYY7-lGYfnKwRjHEZWlFIPlzVnFPYMWbH-g_BsNnQNem-IAg9fDh92X0KtvHCPO5_C-RJd2QhApKQ-2cRp-S_W3qmTidTEPkeWyniKQSF9Q_k10Q5wMc8fGzoyF"

    private func transport(answering status: Int = 200, _ fixture: String) throws -> RecordingTransport {
        let body = try Fixtures.data("SMART/" + fixture)
        return RecordingTransport { _ in
            HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: body)
        }
    }

    /// The SMART client: discovery and the authorization URL.
    private func client(answering status: Int = 200, _ fixture: String) throws -> (SMARTAPIClient, RecordingTransport) {
        let transport = try transport(answering: status, fixture)
        let servers = SMARTAPIClient.Servers(
            fhir: URL(string: "https://ehr.example.com/fhir"),
            authorize: Self.server.appendingPathComponent("authorize"))
        return (SMARTAPIClient(configuration: .init(servers: servers, transport: transport)), transport)
    }

    /// The OAuth 2.0 client at the SMART server's endpoints: tokens, revocation, introspection and keys.
    private func oauth(answering status: Int = 200, _ fixture: String) throws -> (OAuth2APIClient, RecordingTransport) {
        let transport = try transport(answering: status, fixture)
        let servers = OAuth2APIClient.Servers(
            token: Self.server.appendingPathComponent("token"),
            revocation: Self.server.appendingPathComponent("revoke"),
            introspection: Self.server.appendingPathComponent("introspect"),
            jwks: URL(string: "https://ehr.example.com/.well-known/jwks.json"))
        return (OAuth2APIClient(configuration: .init(servers: servers, transport: transport)), transport)
    }

    private func sent(_ transport: RecordingTransport) throws -> String {
        HTTPText.render(try XCTUnwrap(transport.requests.last))
    }

    private static var codeGrant: RequestToken.Request {
        .authorizationCode(.init(code: "code-1", redirectURI: redirectURI, codeVerifier: verifier))
    }

    func testDiscoveryReadsTheIGExampleAndKeepsWhatItDoesNotKnow() async throws {
        let (client, transport) = try client("GetConfiguration/response.json")
        let configuration = try await client.getConfiguration()
        XCTAssertEqual(try sent(transport), try Fixtures.text("SMART/GetConfiguration/request.http"))
        XCTAssertEqual(configuration.tokenEndpoint, "https://ehr.example.com/auth/token")
        XCTAssertEqual(configuration.codeChallengeMethodsSupported, ["S256"])
        XCTAssertEqual(configuration.revocationEndpoint, "https://ehr.example.com/user/revoke")
        XCTAssertEqual(configuration.associatedEndpoints.first?.capabilities, ["smart-app-state"])
        XCTAssertTrue(configuration.capabilities.contains("sso-openid-connect"))
        XCTAssertEqual(configuration.tokenEndpointAuthSigningAlgValuesSupported, [], "absent lists read as empty")
    }

    func testAPublicClientsCodeRedemptionIsTheIGsRequest() async throws {
        let (client, transport) = try oauth("Token/response.json")
        let response = try SMARTTokenResponse(
            extending: try await client.requestToken(
                Self.codeGrant, client: OAuthClientCredentials(clientID: "demo_app_whatever")))
        XCTAssertEqual(try sent(transport), try Fixtures.text("SMART/Token/request.http"))
        XCTAssertEqual(response.patient, "87a339d0-8cae-418e-89c7-8651e6aab3c6")
        XCTAssertEqual(response.needPatientBanner, true)
        XCTAssertEqual(response.smartStyleURL, "https://smart.argo.run/smart-style.json")
        XCTAssertEqual(response.encounter, "enc-1")
        XCTAssertEqual(response.intent, "reconcile-medications")
        XCTAssertEqual(response.tenant, "org-1")
        guard case .fhirContextItem(let report) = response.fhirContext.first,
            case .fhirContextItem(let questionnaire) = response.fhirContext.last
        else { return XCTFail("\(response.fhirContext)") }
        XCTAssertEqual(report.reference, "DiagnosticReport/123")
        XCTAssertEqual(questionnaire.canonical, "http://example.org/Questionnaire/q|1.0")
        XCTAssertEqual(questionnaire.type, "Questionnaire")
        XCTAssertEqual(response.additionalProperties["__darkMode"], .bool(true))
        XCTAssertFalse(response.description.contains("eyJ"), "tokens are redacted: \(response)")
    }

    func testASymmetricClientSendsTheIGsBasicHeaderAndNoClientID() async throws {
        let (client, transport) = try oauth("Token/response.json")
        _ = try await client.requestToken(
            Self.codeGrant,
            client: OAuthClientCredentials(
                clientID: "demo_app_whatever", secret: "secret-key-1234567890", method: .basic))
        XCTAssertEqual(try sent(transport), try Fixtures.text("SMART/Token/request-basic.http"))
    }

    func testABackendTokenRequestCarriesAFreshAssertion() async throws {
        let (client, transport) = try oauth("Token/response-backend.json")
        let keys = try JSONWebKeySet(json: Fixtures.data("JOSE/test-keys.json"))
        let signer = try ClientAssertionSigner(
            key: try XCTUnwrap(keys.keys.first { $0.keyID == "test-rsa" }), algorithm: .rs384)
        let response = try await client.requestToken(
            .clientCredentials(.init(scope: "system/Patient.rs system/Observation.rs")),
            client: OAuthClientCredentials(clientID: "backend", signer: signer))
        let form = FormFields(formEncoded: String(decoding: transport.requests.last?.body ?? Data(), as: UTF8.self))
        XCTAssertEqual(
            form.pairs.map(\.name), ["grant_type", "scope", "client_assertion_type", "client_assertion"])
        XCTAssertEqual(form["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        XCTAssertNil(transport.requests.last?.headers["Authorization"])
        XCTAssertEqual(response.tokenType, "bearer")
        XCTAssertEqual(response.expiresIn, 300)
        XCTAssertNil(response.refreshToken)
    }

    func testAnOAuthErrorIsTyped() async throws {
        let (client, _) = try oauth(answering: 400, "Token/error.json")
        await XCTAssertThrowsErrorAsync(
            try await client.requestToken(Self.codeGrant, client: OAuthClientCredentials(clientID: "demo_app_whatever"))
        ) { error in
            XCTAssertEqual((error as? OAuthError)?.code, .invalidGrant, "\(error)")
            XCTAssertEqual((error as? OAuthError)?.message, "Invalid 'code' in request.")
        }
    }

    func testAnExpiryAsAStringAndAFHIRContextOfStringsAreRead() async throws {
        let body = #"{"access_token": "a", "token_type": "Bearer", "expires_in": "3600", "fhirContext": ["Patient/1"]}"#
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let client = OAuth2APIClient(configuration: .init(servers: .init(token: Self.server), transport: transport))
        let response = try SMARTTokenResponse(
            extending: try await client.requestToken(
                .refreshToken(.init(refreshToken: "r")), client: OAuthClientCredentials(clientID: "app")))
        XCTAssertEqual(response.expiresIn, 3600)
        XCTAssertEqual(response.fhirContext, [.string("Patient/1")])
    }

    func testIntrospectionSendsTheCallersBearerTokenAndReadsSMARTFields() async throws {
        let (client, transport) = try oauth("Introspect/response.json")
        let response = try SMARTIntrospection(
            extending: try await client.introspect(.init(token: "the-token"), token: BearerToken("caller-token")))
        XCTAssertEqual(try sent(transport), try Fixtures.text("SMART/Introspect/request.http"))
        XCTAssertTrue(response.active)
        XCTAssertEqual(response.clientID, "demo_app_whatever")
        XCTAssertEqual(response.patient, "123")
        XCTAssertEqual(response.fhirUser, "Practitioner/9")
    }

    func testRevocationNamesTheTokenType() async throws {
        let (client, transport) = try oauth("Token/error.json")
        try await client.revoke(
            .init(token: "the-refresh-token", tokenTypeHint: .refreshToken),
            client: OAuthClientCredentials(clientID: "demo_app_whatever"))
        XCTAssertEqual(try sent(transport), try Fixtures.text("SMART/Revoke/request.http"))
    }

    func testThePKCEVectorOfTheIG() {
        XCTAssertEqual(PKCEPair(verifier: Self.verifier).challenge, "YPXe7B8ghKrj8PsT4L6ltupgI12NQJ5vblB07F4rGaw")
    }

    func testASessionAsksForConsentWithOfflineAccessAndAddsTheAppsParameters() async throws {
        let server = FakeSMARTServer()
        func url(scope: String, _ parameters: AuthorizationParameters = .init()) async throws -> String {
            let session = SMARTSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: FakeSMARTServer.fhirBaseURL, client: OAuthClientCredentials(clientID: "app"),
                        redirectURI: "app://cb"), scope: scope, authorization: parameters,
                    session: OAuthSessionSettings(
                        store: InMemoryCredentialStore(),
                        options: ClientOptions(transport: RecordingTransport { server.answer($0) }))))
            return try await session.standaloneAuthorizationURL().absoluteString
        }
        let offline = "launch/patient openid fhirUser offline_access patient/*.rs"
        let consent = try await url(scope: offline)
        let online = try await url(scope: "launch/patient openid fhirUser patient/*.rs")
        let none = try await url(scope: offline, .init(prompt: ""))
        XCTAssertTrue(consent.hasSuffix("&prompt=consent"), consent)
        XCTAssertFalse(online.contains("prompt="), online)
        XCTAssertFalse(none.contains("prompt="), none)
        let chosen = try await url(
            scope: offline, .init(prompt: "login", additional: ["ui_locales": "nl en", "login_hint": "a@b"]))
        XCTAssertTrue(chosen.hasSuffix("&prompt=login&login_hint=a%40b&ui_locales=nl%20en"), chosen)
        for reserved in ["aud", "nonce", "code_challenge_method", "prompt"] {
            await XCTAssertThrowsErrorAsync(try await url(scope: offline, .init(additional: [reserved: "x"]))) {
                XCTAssertEqual(($0 as? SignInError)?.code, .invalidAuthorizationParameters)
                XCTAssertTrue("\($0)".contains("sets \(reserved) itself"), "\($0)")
            }
        }
    }

    func testTheAuthorizationURLCarriesEverySMARTParameter() throws {
        let (client, _) = try client("Token/response.json")
        let url = try client.authorize(
            .init(
                clientID: "demo_app_whatever", redirectURI: Self.redirectURI, launch: "xyz123",
                scope: "launch openid fhirUser patient/*.rs", state: "98wrghuwuogerg97",
                aud: "https://ehr.example.com/fhir", codeChallenge: "YPXe7B8ghKrj8PsT4L6ltupgI12NQJ5vblB07F4rGaw",
                nonce: "n-1"))
        XCTAssertEqual(
            url.absoluteString,
            try Fixtures.text("SMART/Authorize/url.txt").trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
