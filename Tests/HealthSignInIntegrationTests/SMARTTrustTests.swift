import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// Attacks on a SMART app that signs in at several servers (RFC 9700 §4.4, smart.md §17-18), against the emulator's
/// honest server and its attacker at `/evil`: what one registration trusts must not help another, answers that could
/// belong to two requests are refused, and what the server says cannot change the SDK's own parameters.
final class SMARTTrustTests: XCTestCase {
    private static let shared = Emulator.shared
    private var emulator: Emulator!
    private var store: InMemoryCredentialStore!
    private let redirect = "http://127.0.0.1/smart/callback"

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
        store = InMemoryCredentialStore()
    }

    private var honest: URL { emulator.url("/smart/fhir") }
    private var transport: DefaultHTTPTransport { DefaultHTTPTransport(timeout: 5) }

    private func stats() async throws -> [String: Any] { try await emulator.read("smart/stats") }

    private func browse(_ url: URL) async throws -> URL {
        let location = try await emulator.visit(url)
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
        let stats = try await stats()
        let posts = try XCTUnwrap(stats["evil_token"] as? [Any])
        XCTAssertEqual(posts.count, 0, "the attacker's token endpoint received the honest server's code", line: line)
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
                    options: ClientOptions(transport: transport, urlPolicy: URLPolicy(allowsInsecureLoopback: true)))))
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
        let port = try XCTUnwrap(emulator.baseURL.port)
        let issuer = "http://localhost:\(port)/smart/fhir"
        let evil = try await emulator.secondOrigin().appendingPathComponent("evil/fhir")
        try await emulator.control(
            "smart",
            [
                "strict_openid": true, "issuer": issuer, "evil_issuer": issuer, "evil_iss_supported": true,
                "evil_redirect_uri": redirect,
            ])
        let stopped = try await mixUp(session(evil: evil, honestTrusts: ["localhost:\(port)"]), at: evil)
        XCTAssertEqual(stopped, .untrustedIssuer)
        let authorizations = try await stats()["evil_authorize"] as? Int
        XCTAssertEqual(authorizations, 0)
        try await assertTheAttackerGotNothing()
    }

    /// One issuer belongs to one registration: an attacker on the honest server's own origin (a multi-tenant
    /// host) that names the honest server's issuer is a configuration error, found before the browser is sent.
    func testAnIssuerTwoRegistrationsClaimIsAConfigurationError() async throws {
        let evil = emulator.url("/evil/fhir")
        try await emulator.control(
            "smart",
            [
                "strict_openid": true, "evil_issuer": honest.absoluteString, "evil_iss_supported": true,
                "evil_redirect_uri": redirect,
            ])
        let stopped = try await mixUp(session(evil: evil), at: evil)
        XCTAssertEqual(stopped, .invalidConfiguration)
        let authorizations = try await stats()["evil_authorize"] as? Int
        XCTAssertEqual(authorizations, 0)
        try await assertTheAttackerGotNothing()
    }

    /// Without RFC 9207's `iss`, only the redirect URI tells the servers' answers apart (RFC 9700 §4.4.2): a
    /// configuration that shares one among servers that do not send `iss` is refused before anything is sent.
    func testASharedRedirectURIWithoutIssuerIdentificationIsAConfigurationError() async throws {
        let evil = emulator.url("/evil/fhir")
        try await emulator.control("smart", ["evil_redirect_uri": redirect])
        let stopped = try await mixUp(session(evil: evil), at: evil)
        XCTAssertEqual(stopped, .invalidConfiguration)
        let authorizations = try await stats()["evil_authorize"] as? Int
        XCTAssertEqual(authorizations, 0)
        try await assertTheAttackerGotNothing()
    }

    /// A lenient server keeps a query the request added to the registered redirect URI, so an attacker can put an
    /// `iss` of its choosing before the server's own. A response that repeats a parameter is refused (RFC 6749
    /// §3.1), never read first-wins.
    func testAResponseThatRepeatsAParameterIsRefused() async throws {
        let evil = emulator.url("/evil/fhir")
        try await emulator.control(
            "smart",
            [
                "strict_openid": true, "lenient_redirect_uri": true, "evil_iss_supported": true,
                "evil_redirect_uri": redirect + "?iss=" + evil.absoluteString,
            ])
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
                evil: emulator.url("/evil/fhir"),
                parameters: AuthorizationParameters(additional: [name: "https://evil.example/x"]))
            await XCTAssertThrowsErrorAsync(try await session.standaloneAuthorizationURL(), name) {
                XCTAssertEqual(($0 as? SignInError)?.code, .invalidAuthorizationParameters, name)
            }
        }
        let authorizations = try await stats()["authorize"] as? Int
        XCTAssertEqual(authorizations, 0)
    }

    /// An authorization endpoint with a query of its own may not name a parameter the SDK sets: the server would
    /// read the first of two `redirect_uri`s, its own.
    func testAnAuthorizationEndpointThatNamesAReservedParameterIsRefused() async throws {
        try await emulator.control(
            "smart", ["authorize_endpoint_query": "redirect_uri=https%3A%2F%2Fevil.example%2Fcb&client_id=smart-public"]
        )
        await XCTAssertThrowsErrorAsync(
            try await session(evil: emulator.url("/evil/fhir")).standaloneAuthorizationURL()
        ) {
            XCTAssertEqual(($0 as? SignInError)?.code, .untrustedEndpoint, "\($0)")
        }
        let authorizations = try await stats()["authorize"] as? Int
        XCTAssertEqual(authorizations, 0)
    }

    /// An issuer written with userinfo (`http://localhost:<port>@127.0.0.1:<port>/…`) names the host after the `@`,
    /// which a reader of the text may take for the one before it; such an issuer is never trusted.
    func testAnIssuerWithUserinfoIsRefused() async throws {
        let port = try XCTUnwrap(emulator.baseURL.port)
        try await emulator.control("smart", ["issuer": "http://localhost:\(port)@127.0.0.1:\(port)/smart/fhir"])
        await XCTAssertThrowsErrorAsync(
            try await session(evil: emulator.url("/evil/fhir")).standaloneAuthorizationURL()
        ) {
            XCTAssertEqual(($0 as? SignInError)?.code, .untrustedIssuer, "\($0)")
        }
        let authorizations = try await stats()["authorize"] as? Int
        XCTAssertEqual(authorizations, 0)
    }
}
