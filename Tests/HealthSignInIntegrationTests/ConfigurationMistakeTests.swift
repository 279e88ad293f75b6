import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import HealthSignInTesting
import HealthSignInVital
import XCTest

/// The mistakes a developer makes in the first hour, each against the test kit's in-process servers (which answer
/// them as the emulator does): the error names the mistake and the fix, with the server's own explanation, and never
/// a secret.
final class ConfigurationMistakeTests: XCTestCase {
    private let loopback = URLPolicy(allowsInsecureLoopback: true)

    private func smart(_ server: SMARTTestServer, clientID: String, redirectURI: String) -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: server.fhirBaseURL, client: OAuthClientCredentials(clientID: clientID),
                    redirectURI: redirectURI),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport))))
    }

    func testAnUnknownClientIDOrRedirectURIShowsTheAuthorizationServersExplanation() async throws {
        let mistakes = [
            ("smart-nobody", "http://127.0.0.1/smart/callback", "invalid_client"),
            ("smart-public", "http://127.0.0.1/elsewhere", "redirect"),
        ]
        let server = SMARTTestServer()
        for (clientID, redirectURI, expected) in mistakes {
            let session = smart(server, clientID: clientID, redirectURI: redirectURI)
            await XCTAssertThrowsErrorAsync(try await session.authorize(with: server.browser(.approve))) { error in
                guard case .errorPage(400, let message, _)? = error as? AuthorizationBrowserError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(message?.lowercased().contains(expected) == true, "\(clientID): \(message ?? "nil")")
                XCTAssertTrue("\(error)".contains("check the client id and the redirect URI"), "\(error)")
            }
        }
    }

    func testARedirectURIKoppeltaalDoesNotKnowIsNotBlamedOnTheActivationCode() async throws {
        let server = KoppeltaalTestServer()
        let code = try await KoppeltaalBackend(
            configuration: .init(
                launchURL: server.launchURL, credentials: server.portalCredentials, transport: server.transport)
        ).mobileLaunch(
            clientID: "KTSTESTGAME", patient: "https://portal.example/Patient/1",
            user: "https://portal.example/RelatedPerson/2"
        ).code
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: server.fhirBaseURL,
                    client: OAuthClientCredentials(
                        clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
                    redirectURI: "koppeltaal-game://not-registered"),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport))))
        await XCTAssertThrowsErrorAsync(try await session.activate(code: code)) { error in
            let signIn = error as? SignInError
            XCTAssertEqual(signIn?.code, .requestRejected, "\(error)")
            XCTAssertEqual(signIn?.serverError?.code, .invalidRequest, "\(error)")
            let text = "\(error)"
            XCTAssertTrue(text.contains("invalid_request"), text)
            XCTAssertTrue(text.lowercased().contains("redirect"), text)
            XCTAssertFalse(text.contains("activation code was not accepted"), text)
        }
    }

    func testAWrongTeamKeySaysWhichCredentialTheServerRefused() async throws {
        let server = VitalTestServer()
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_not_the_team_key"), environment: .sandboxUS,
                hosts: .all(VitalHosts(api: server.apiURL, auth: server.authURL)), transport: server.transport))
        await XCTAssertThrowsErrorAsync(try await backend.signInToken(forClientUserID: "bob")) { error in
            let unexpected = error as? UnexpectedResponseError
            XCTAssertEqual(unexpected?.status, 401)
            XCTAssertEqual(unexpected?.serverMessage, "Invalid API key")
            let text = "\(error)"
            XCTAssertTrue(text.contains("Invalid API key"), text)
            XCTAssertTrue(text.contains("the server refused the API key sent in x-vital-api-key; check it"), text)
            XCTAssertFalse(text.contains("sk_us_not_the_team_key"), text)
        }
    }

    func testAWrongPortalSecretSaysWhichCredentialTheServerRefused() async throws {
        let server = KoppeltaalTestServer()
        let backend = KoppeltaalBackend(
            configuration: .init(
                launchURL: server.launchURL,
                credentials: BasicCredentials(username: "portal", password: "not-the-secret"),
                transport: server.transport))
        await XCTAssertThrowsErrorAsync(
            try await backend.mobileLaunch(
                clientID: "KTSTESTGAME", patient: "https://portal.example/Patient/1",
                user: "https://portal.example/RelatedPerson/2")
        ) { error in
            let text = "\(error)"
            XCTAssertEqual((error as? UnexpectedResponseError)?.status, 401, text)
            XCTAssertTrue(
                text.contains("the server refused the Basic credentials (user name and password); check it"), text)
            XCTAssertFalse(text.contains("not-the-secret"), text)
        }
    }

    func testPlainHTTPNamesThePolicyThatAllowsIt() async throws {
        let local = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_key"), environment: .sandboxUS,
                hosts: .all(
                    VitalHosts(
                        api: try XCTUnwrap(URL(string: "http://127.0.0.1:9/vital/api")),
                        auth: try XCTUnwrap(URL(string: "http://127.0.0.1:9/vital/auth"))))))
        await XCTAssertThrowsErrorAsync(try await local.signInToken(forClientUserID: "bob")) { error in
            XCTAssertTrue("\(error)".contains("urlPolicy: URLPolicy(allowsInsecureLoopback: true)"), "\(error)")
        }
        let remote = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_key"), environment: .sandboxUS,
                hosts: .all(
                    VitalHosts(
                        api: try XCTUnwrap(URL(string: "http://api.example")),
                        auth: try XCTUnwrap(URL(string: "http://auth.example")))), urlPolicy: loopback))
        await XCTAssertThrowsErrorAsync(try await remote.signInToken(forClientUserID: "bob")) { error in
            XCTAssertTrue("\(error)".contains("use https"), "\(error)")
        }
    }

    func testATerminalBrowserTakesThePastedAddressAndRefusesAnotherOne() async throws {
        let server = SMARTTestServer()
        let session = smart(server, clientID: "smart-public", redirectURI: "http://127.0.0.1/smart/callback")
        let shown = LockedBox<URL?>(nil)
        // The person: opens the page, signs in and consents, and pastes where the browser stopped.
        let person = TerminalAuthorizationBrowser(
            show: { page, _ in shown.value = page },
            readAnswer: {
                guard let page = shown.value else { return nil }
                return try? await TestUserBrowser.visit(page, through: server.transport)?.absoluteString
            })
        let context = try await session.authorize(with: person)
        XCTAssertEqual(context.patient, "smart-patient-1")
        XCTAssertNotNil(shown.value)

        let wrong = TerminalAuthorizationBrowser(
            show: { _, _ in }, readAnswer: { "https://elsewhere.example/cb?code=1" })
        await XCTAssertThrowsErrorAsync(try await session.authorize(with: wrong)) {
            XCTAssertEqual($0 as? AuthorizationBrowserError, .unexpectedRedirect(path: "/cb"))
        }
        let ended = TerminalAuthorizationBrowser(show: { _, _ in }, readAnswer: { nil })
        await XCTAssertThrowsErrorAsync(try await session.authorize(with: ended)) {
            XCTAssertEqual($0 as? AuthorizationBrowserError, .cancelled)
        }
    }
}

/// A value shared with `@Sendable` closures in a test.
private final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is read and written only under `lock`.
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
