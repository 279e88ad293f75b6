import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// The in-process SMART server enforces SMART's rules on the requests the SDK sends, as the emulator does, so a request
/// that broke one would be caught: each test bends one rule on the way out and checks the typed error that comes back.
final class SMARTServerRulesTests: XCTestCase {
    private var server: SMARTTestServer!

    override func setUp() async throws {
        server = SMARTTestServer()
    }

    private var fhirBase: URL { server.fhirBaseURL }

    /// Opens `url` as the user would, consenting, and returns where the server redirects.
    private func visit(_ url: URL) async throws -> URL? {
        try await TestUserBrowser.visit(url, through: server.transport)
    }

    private func session(
        transport: (any HTTPTransport)? = nil, store: any CredentialStore = InMemoryCredentialStore()
    ) -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-public"),
                    redirectURI: "http://127.0.0.1/smart/callback"),
                session: OAuthSessionSettings(
                    store: store,
                    options: ClientOptions(transport: transport ?? server.transport))))
    }

    private func backend(signer: ClientAssertionSigner, transport: any HTTPTransport) -> SMARTBackendClient {
        SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-backend", signer: signer)),
                scope: "system/*.rs",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(),
                    options: ClientOptions(transport: transport))))
    }

    /// The authorization URL with `change` applied to its query, as a tampered browser would open it.
    private static func bend(_ url: URL, _ change: (inout [URLQueryItem]) -> Void) throws -> URL {
        var components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        var items = components.queryItems ?? []
        change(&items)
        components.queryItems = items
        return try XCTUnwrap(components.url)
    }

    /// A form body without the field `name`.
    private static func removing(_ name: String, from request: HTTPRequestMessage) -> HTTPRequestMessage {
        var request = request
        let form = FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))
        var kept = FormFields()
        for pair in form.pairs where pair.name != name { kept.append(pair.name, pair.value) }
        request.body = Data(kept.formEncoded.utf8)
        return request
    }

    /// Sends each request that `matches` twice, answering with the second response: a replay the server must refuse.
    private func replaying(_ matches: @escaping @Sendable (String) -> Bool) -> RecordingTransport {
        let network = server.transport
        return RecordingTransport { request in
            if matches(String(decoding: request.body ?? Data(), as: UTF8.self)) {
                _ = try await network.send(request)
            }
            return try await network.send(request)
        }
    }

    func testAnAuthorizationWithoutS256PKCEIsRedirectedWithAnError() async throws {
        let bends: [(inout [URLQueryItem]) -> Void] = [
            { items in items.removeAll { $0.name.hasPrefix("code_challenge") } },
            { items in
                items = items.map { $0.name == "code_challenge_method" ? .init(name: $0.name, value: "plain") : $0 }
            },
        ]
        for bend in bends {
            let session = session()
            let url = try Self.bend(try await session.standaloneAuthorizationURL(), bend)
            let redirect = try await XCTUnwrapAsync(try await visit(url))
            await XCTAssertThrowsErrorAsync(try await session.completeAuthorization(redirectURL: redirect)) { error in
                guard let denied = error as? SignInError, denied.code == .authorizationDenied,
                    denied.serverError?.code == .invalidRequest
                else { return XCTFail("\(error)") }
                XCTAssertTrue(denied.description.contains("S256"), denied.description)
            }
        }
    }

    func testAnUnregisteredRedirectURIGetsNoRedirect() async throws {
        let url = try Self.bend(try await session().standaloneAuthorizationURL()) { items in
            items = items.map {
                $0.name == "redirect_uri" ? .init(name: $0.name, value: "https://evil.example/cb") : $0
            }
        }
        let redirect = try await visit(url)
        XCTAssertNil(redirect, "an error must not be sent to a redirect URI the client did not register")
    }

    func testACodeWithoutItsVerifierIsNotRedeemed() async throws {
        let session = session(
            transport: RewritingTransport(through: server.transport) { request in
                request.url.path.hasSuffix("/auth/token") ? Self.removing("code_verifier", from: request) : request
            })
        let url = try await session.standaloneAuthorizationURL()
        let redirect = try await XCTUnwrapAsync(try await visit(url))
        await XCTAssertThrowsErrorAsync(try await session.completeAuthorization(redirectURL: redirect)) { error in
            XCTAssertEqual((error as? SignInError)?.code, .codeRejected, "\(error)")
            XCTAssertEqual((error as? SignInError)?.serverError?.code, .invalidRequest)
        }
    }

    func testACodeIsRedeemedOnce() async throws {
        let session = session(transport: replaying { $0.contains("grant_type=authorization_code") })
        let url = try await session.standaloneAuthorizationURL()
        let redirect = try await XCTUnwrapAsync(try await visit(url))
        await XCTAssertThrowsErrorAsync(try await session.completeAuthorization(redirectURL: redirect)) { error in
            XCTAssertEqual((error as? SignInError)?.code, .codeRejected, "\(error)")
            XCTAssertEqual((error as? SignInError)?.serverError?.code, .invalidGrant)
        }
    }

    func testAReplayedAssertionIsRefused() async throws {
        let backend = backend(
            signer: try SMARTIntegrationTests.signer(),
            transport: replaying { $0.contains("grant_type=client_credentials") })
        await XCTAssertThrowsErrorAsync(try await backend.token()) { error in
            XCTAssertEqual((error as? OAuthError)?.code, .invalidClient, "\(error)")
            XCTAssertEqual((error as? OAuthError)?.message, "JWT ID is used before.")
        }
    }

    func testAnAssertionExpiringMoreThanFiveMinutesAheadIsRefused() async throws {
        let backend = backend(
            signer: try SMARTIntegrationTests.signer(clock: OffsetClock(offset: 600)),
            transport: server.transport)
        await XCTAssertThrowsErrorAsync(try await backend.token()) { error in
            XCTAssertEqual((error as? OAuthError)?.code, .invalidClient, "\(error)")
        }
    }

    func testAPublicClientRefreshesOnlyWithItsClientID() async throws {
        let store = InMemoryCredentialStore()
        let launching = session(store: store)
        let url = try await launching.standaloneAuthorizationURL()
        _ = try await launching.completeAuthorization(
            redirectURL: try await XCTUnwrapAsync(try await visit(url)))
        server.expireAccessTokens()
        let refreshing = session(
            transport: RewritingTransport(through: server.transport) { request in
                request.url.path.hasSuffix("/auth/token") ? Self.removing("client_id", from: request) : request
            }, store: store)
        await XCTAssertThrowsErrorAsync(try await refreshing.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
            XCTAssertEqual((error as? SignInError)?.code, .clientRejected, "\(error)")
            XCTAssertEqual((error as? SignInError)?.serverError?.httpStatus, 401)
        }
    }
}
