import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import HealthSignInTesting
import HealthSignInVital
import XCTest

/// The mistakes a developer makes in the first hour, each against the emulator: the error names the mistake and the
/// fix, with the server's own explanation, and never a secret.
final class ConfigurationMistakeTests: XCTestCase {
    private static let shared = Emulator.shared
    private var emulator: Emulator!
    private let loopback = URLPolicy(allowsInsecureLoopback: true)

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
    }

    private func smart(clientID: String, redirectURI: String) -> SMARTSession {
        let base = emulator.url("/smart/fhir")
        return SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: base, client: OAuthClientCredentials(clientID: clientID), redirectURI: redirectURI),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(urlPolicy: loopback))))
    }

    func testAnUnknownClientIDOrRedirectURIShowsTheAuthorizationServersExplanation() async throws {
        let mistakes = [
            ("smart-nobody", "http://127.0.0.1/smart/callback", "invalid_client"),
            ("smart-public", "http://127.0.0.1/elsewhere", "redirect"),
        ]
        for (clientID, redirectURI, expected) in mistakes {
            let session = smart(clientID: clientID, redirectURI: redirectURI)
            await XCTAssertThrowsErrorAsync(
                try await session.authorize(with: RedirectFollowingBrowser(transport: DefaultHTTPTransport()))
            ) { error in
                guard case .errorPage(400, let message)? = error as? AuthorizationBrowserError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(message?.lowercased().contains(expected) == true, "\(clientID): \(message ?? "nil")")
                XCTAssertTrue("\(error)".contains("check the client id and the redirect URI"), "\(error)")
            }
        }
    }

    func testARedirectURIKoppeltaalDoesNotKnowIsNotBlamedOnTheActivationCode() async throws {
        let code = try await KoppeltaalBackend(
            configuration: .init(
                launchURL: emulator.url("/kt/OAuth2/Koppeltaal"),
                credentials: BasicCredentials(username: "portal", password: "portal-secret"), urlPolicy: loopback)
        ).mobileLaunch(
            clientID: "KTSTESTGAME", patient: "https://portal.example/Patient/1",
            user: "https://portal.example/RelatedPerson/2"
        ).code
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: emulator.url("/kt/FHIR/Koppeltaal"),
                    client: OAuthClientCredentials(
                        clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
                    redirectURI: "koppeltaal-game://not-registered"),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(urlPolicy: loopback))))
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
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_not_the_team_key"), environment: .sandboxUS,
                hosts: .all(VitalHosts(api: emulator.url("/vital/api"), auth: emulator.url("/vital/auth"))),
                urlPolicy: loopback))
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
        let backend = KoppeltaalBackend(
            configuration: .init(
                launchURL: emulator.url("/kt/OAuth2/Koppeltaal"),
                credentials: BasicCredentials(username: "portal", password: "not-the-secret"), urlPolicy: loopback))
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
                hosts: .all(VitalHosts(api: emulator.url("/vital/api"), auth: emulator.url("/vital/auth")))))
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
        let session = smart(clientID: "smart-public", redirectURI: "http://127.0.0.1/smart/callback")
        let emulator = self.emulator!
        let shown = LockedBox<URL?>(nil)
        // The person: opens the page (the emulator grants at once) and pastes where the browser stopped.
        let person = TerminalAuthorizationBrowser(
            show: { page, _ in shown.value = page },
            readAnswer: {
                guard let page = shown.value else { return nil }
                return try? await emulator.visit(page)?.absoluteString
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
