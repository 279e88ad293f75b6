import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// Attacks on a SMART app that signs in at several servers (RFC 9700 §4.4, smart.md §17-18), against the in-process
/// server and its mix-up attacker at `/evil`, as the emulator plays them: what one registration trusts must not help
/// another, answers that could belong to two requests are refused, and what the server says cannot change the SDK's
/// own parameters.
final class SMARTTrustTests: XCTestCase {
    private var server: SMARTTestServer!
    private var store: InMemoryCredentialStore!
    private let redirect = "http://127.0.0.1/smart/callback"

    override func setUp() async throws {
        server = SMARTTestServer()
        store = InMemoryCredentialStore()
    }

    private var honest: URL { server.fhirBaseURL }
    private var evil: URL { server.attackerFHIRBaseURL }
    private var transport: TestServerTransport { server.transport }

    private func browse(_ url: URL) async throws -> URL {
        let location = try await TestUserBrowser.visit(url, through: server.transport)
        return try XCTUnwrap(location, "the server did not redirect")
    }

    /// An EHR launch URL naming `base`.
    private func launch(at base: URL) throws -> URL {
        var components = try XCTUnwrap(URLComponents(string: "http://127.0.0.1/app/launch"))
        components.queryItems = [.init(name: "iss", value: base.absoluteString), .init(name: "launch", value: "x")]
        return try XCTUnwrap(components.url)
    }

    /// The attacker's token endpoint received nothing.
    private func assertTheAttackerGotNothing(file: StaticString = #filePath, line: UInt = #line) async throws {
        XCTAssertEqual(
            server.attackerTokenRequests, [], "the attacker's token endpoint received the honest server's code",
            line: line)
    }

    /// A session registered at the honest server (standalone) and at `evil`, both with `redirect`.
    private func session(evil: URL, honestTrusts: [String] = [], parameters: AuthorizationParameters = .init())
        -> SMARTSession
    {
        let client = OAuthClientCredentials(clientID: "smart-public")
        return SMARTSession(
            configuration: .init(
                registrations: [
                    OAuthRegistration(
                        baseURL: honest, client: client, redirectURI: redirect, trustedHosts: honestTrusts),
                    OAuthRegistration(baseURL: evil, client: client, redirectURI: redirect),
                ], standaloneServer: honest, authorization: parameters,
                session: OAuthSessionSettings(
                    store: store,
                    options: ClientOptions(transport: transport))))
    }

    /// Runs the mix-up from a launch at `evil` through the honest server's answer, and returns the code of the
    /// `SignInError` that stopped it (nil when it went through).
    private func mixUp(_ session: SMARTSession, at evil: URL) async throws -> SignInError.Code? {
        do {
            let page = try await session.ehrAuthorizationURL(launchURL: try launch(at: evil))
            let redirected = try await browse(try await browse(page))
            _ = try await session.completeAuthorization(redirectURL: redirected)
            return nil
        } catch let error as SignInError {
            return error.code
        }
    }

    /// The honest server's authorization server lives on a host its registration trusts (here `localhost`, beside
    /// the FHIR server on 127.0.0.1); the attacker, registered on an origin of its own, names that host's issuer in
    /// its metadata. Its registration does not trust that host, so the claim is refused before the browser is sent
    /// anywhere, and the honest server's code can never be matched to the attacker's request (nor could the attacker
    /// sign id tokens in the honest issuer's name).
    func testAnIssuerOnAHostOnlyAnotherRegistrationTrustsIsRefused() async throws {
        server.serve(origin: try XCTUnwrap(URL(string: "https://auth.ehr.test")))
        let issuer = "https://auth.ehr.test/fhir"
        let secondOrigin = try XCTUnwrap(URL(string: "https://ehr-mirror.test"))
        server.serve(origin: secondOrigin)
        let evil = secondOrigin.appendingPathComponent("evil/fhir")
        server.settings.strictOpenID = true
        server.settings.issuer = issuer
        server.settings.attacker = .init(redirectURI: redirect, issuer: issuer, announcesIssuerParameter: true)
        let stopped = try await mixUp(session(evil: evil, honestTrusts: ["auth.ehr.test"]), at: evil)
        XCTAssertEqual(stopped, .untrustedIssuer)
        XCTAssertEqual(server.attackerAuthorizations, 0)
        try await assertTheAttackerGotNothing()
    }

    /// One issuer belongs to one registration: an attacker on the honest server's own origin (a multi-tenant
    /// host) that names the honest server's issuer is a configuration error, found before the browser is sent.
    func testAnIssuerTwoRegistrationsClaimIsAConfigurationError() async throws {
        server.settings.strictOpenID = true
        server.settings.attacker = .init(
            redirectURI: redirect, issuer: honest.absoluteString, announcesIssuerParameter: true)
        let stopped = try await mixUp(session(evil: evil), at: evil)
        XCTAssertEqual(stopped, .invalidConfiguration)
        XCTAssertEqual(server.attackerAuthorizations, 0)
        try await assertTheAttackerGotNothing()
    }

    /// Without RFC 9207's `iss`, only the redirect URI tells the servers' answers apart (RFC 9700 §4.4.2): a
    /// configuration that shares one among servers that do not send `iss` is refused before anything is sent.
    func testASharedRedirectURIWithoutIssuerIdentificationIsAConfigurationError() async throws {
        server.settings.attacker.redirectURI = redirect
        let stopped = try await mixUp(session(evil: evil), at: evil)
        XCTAssertEqual(stopped, .invalidConfiguration)
        XCTAssertEqual(server.attackerAuthorizations, 0)
        try await assertTheAttackerGotNothing()
    }

    /// A lenient server keeps a query the request added to the registered redirect URI, so an attacker can put an
    /// `iss` of its choosing before the server's own. A response that repeats a parameter is refused (RFC 6749
    /// §3.1), never read first-wins.
    func testAResponseThatRepeatsAParameterIsRefused() async throws {
        server.settings.strictOpenID = true
        server.settings.acceptsRedirectURIWithAddedQuery = true
        server.settings.attacker = .init(
            redirectURI: redirect + "?iss=" + evil.absoluteString, announcesIssuerParameter: true)
        let session = session(evil: evil)
        let page = try await session.ehrAuthorizationURL(launchURL: try launch(at: evil))
        let redirected = try await browse(try await browse(page))
        XCTAssertEqual(
            URLComponents(url: redirected, resolvingAgainstBaseURL: false)?.queryItems?.filter { $0.name == "iss" }
                .count, 2)
        await XCTAssertThrowsErrorAsync(try await session.completeAuthorization(redirectURL: redirected)) {
            XCTAssertEqual(($0 as? SignInError)?.code, .malformedAuthorizationResponse, "\($0)")
        }
        try await assertTheAttackerGotNothing()
    }

    /// The app's own parameters cannot replace the SDK's, whatever their case, nor bring a request object, a
    /// request URI or a response mode that would.
    func testAReservedParameterIsRefusedWhateverItsCase() async throws {
        for name in ["Redirect_URI", "CLIENT_ID", "request", "request_uri", "response_mode", "Response_Mode"] {
            store = InMemoryCredentialStore()
            let session = session(
                evil: evil,
                parameters: AuthorizationParameters(additional: [name: "https://evil.example/x"]))
            await XCTAssertThrowsErrorAsync(try await session.standaloneAuthorizationURL(), name) {
                XCTAssertEqual(($0 as? SignInError)?.code, .invalidAuthorizationParameters, name)
            }
        }
        XCTAssertEqual(server.ledger.count(.authorize), 0)
    }

    /// An authorization endpoint with a query of its own may not name a parameter the SDK sets: the server would
    /// read the first of two `redirect_uri`s, its own.
    func testAnAuthorizationEndpointThatNamesAReservedParameterIsRefused() async throws {
        server.settings.authorizationEndpointQuery =
            "redirect_uri=https%3A%2F%2Fevil.example%2Fcb&client_id=smart-public"
        await XCTAssertThrowsErrorAsync(
            try await session(evil: evil).standaloneAuthorizationURL()
        ) {
            XCTAssertEqual(($0 as? SignInError)?.code, .untrustedEndpoint, "\($0)")
        }
        XCTAssertEqual(server.ledger.count(.authorize), 0)
    }

    /// An issuer written with userinfo (`http://localhost:<port>@127.0.0.1:<port>/…`) names the host after the `@`,
    /// which a reader of the text may take for the one before it; such an issuer is never trusted.
    func testAnIssuerWithUserinfoIsRefused() async throws {
        server.settings.issuer = "https://auth.ehr.test@ehr.test/fhir"
        await XCTAssertThrowsErrorAsync(
            try await session(evil: evil).standaloneAuthorizationURL()
        ) {
            XCTAssertEqual(($0 as? SignInError)?.code, .untrustedIssuer, "\($0)")
        }
        XCTAssertEqual(server.ledger.count(.authorize), 0)
    }
}
