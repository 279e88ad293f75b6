import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Every way Shell hands the user back: fresh creation tokens after an unfinished page, APPAUTH returns without
/// parameters, the app's action URL, trusted hosts only, and the navigation decisions a web view delegate uses.
final class ShellReturnTests: XCTestCase {
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    private static let child = FakeHealthVaultServer.applicationID(1).uuidString.lowercased()
    private let server = FakeHealthVaultServer()
    private let store = InMemoryCredentialStore()

    private func connection(actionURL: URL? = nil, defaultShellURL: URL = FakeHealthVaultServer.shellURL)
        -> HealthVaultConnection
    {
        let server = server
        return HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: FakeHealthVaultServer.platformURL, defaultShellURL: defaultShellURL,
                store: store, actionURL: actionURL, client: .init(transport: RecordingTransport { server.answer($0) })
            ))
    }

    /// A browser an app might write: it asks the callback which of `candidates` end the page, and returns `returning`.
    private struct ProbingBrowser: AuthorizationBrowser {
        let candidates: [URL]
        let returning: URL
        let answers = LockedValue<[Bool]>([])

        func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
            answers.withValue { $0 = candidates.map(callback.matches) }
            return returning
        }
    }

    /// The user opened the page on the default Shell and was bounced to the Shell of the instance that holds their
    /// account, which only the topology names: the browser stops there, and on no host the connection does not trust.
    func testTheBrowserStopsOnTheBouncedInstancesShellAndOnNoUntrustedHost() async throws {
        let connection = connection(defaultShellURL: URL(string: "https://account.hv.example")!)
        let page = try await connection.provision(masterAppID: Self.master)
        let browser = ProbingBrowser(
            candidates: [
                completion("https://account.hv.example"), completion("https://shell.hv.example"),
                completion("https://SHELL.hv.example:443"), completion("https://evil.example"),
                completion("https://shell.hv.example:8443"), completion("http://shell.hv.example"),
                URL(string: "https://shell.hv.example/elsewhere?target=AppAuthSuccess")!,
            ],
            returning: completion("https://shell.hv.example"))
        let outcome = try await connection.authorize(page, with: browser)
        XCTAssertEqual(browser.answers.current, [true, true, true, false, false, false, false])
        XCTAssertEqual(outcome.target, .appAuthSuccess)
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
        XCTAssertEqual(server.count("GetServiceDefinition"), 1, "read before the page opened, and used for the return")

        // A return the browser was handed on an untrusted host is refused all the same, and changes nothing.
        let other = self.connection(defaultShellURL: URL(string: "https://account.hv.example")!)
        try await other.disconnect(releasingRecords: false)
        let second = try await other.provision(masterAppID: Self.master)
        await XCTAssertThrowsErrorAsync(
            try await other.authorize(
                second, with: ProbingBrowser(candidates: [], returning: completion("https://evil.example")))
        ) {
            XCTAssertEqual($0 as? ShellRedirectError, .untrustedHost("evil.example"))
        }
        await XCTAssertEqualAsync(try await other.status(), .awaitingAuthorization(createApplicationURL: second))
    }

    /// With an action URL the browser stops there (a system browser session listens for its scheme), and still on a
    /// trusted Shell's completion page.
    func testWithAnActionURLTheBrowserStopsThereAndOnTrustedShells() async throws {
        let action = URL(string: "myapp://healthvault/done")!
        let connection = connection(actionURL: action)
        let page = try await connection.provision(masterAppID: Self.master)
        let browser = ProbingBrowser(
            candidates: [
                URL(string: "myapp://healthvault/done?target=AppAuthSuccess")!,
                URL(string: "myapp://elsewhere/done?target=AppAuthSuccess")!, completion("https://shell.hv.example"),
            ],
            returning: URL(string: "myapp://healthvault/done?appid=\(Self.child)&target=AppAuthSuccess&instanceid=1")!)
        try await connection.authorize(page, with: browser)
        XCTAssertEqual(browser.answers.current, [true, false, true])
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }

    private func completion(_ host: String, _ query: String = "target=AppAuthSuccess&instanceid=1") -> URL {
        URL(string: "\(host)/application/complete?appid=\(Self.child)&\(query)")!
    }

    func testEveryProvisioningThatDidNotCompleteGetsAFreshToken() async throws {
        let connection = connection()
        let first = try await connection.provision(masterAppID: Self.master)
        let second = try await connection.provision(masterAppID: Self.master)
        XCTAssertNotEqual(first, second)
        XCTAssertTrue(second.absoluteString.contains("creation-2"), second.absoluteString)
        await XCTAssertEqualAsync(try await connection.status(), .awaitingAuthorization(createApplicationURL: second))
        XCTAssertEqual(server.count("NewApplicationCreationInfo"), 2)
    }

    func testAnotherTargetSpendsTheToken() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        let outcome = try await connection.completeAuthorization(
            redirect: completion("https://shell.hv.example", "target=AppAuthInvalidRecord"))
        XCTAssertEqual(outcome.target, .appAuthInvalidRecord)
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned, "provisioning starts again")
    }

    func testACompletionFromAnotherHostOrOverHTTPIsRefusedAndChangesNothing() async throws {
        let connection = connection()
        let page = try await connection.provision(masterAppID: Self.master)
        await XCTAssertThrowsErrorAsync(
            try await connection.completeAuthorization(
                redirect: completion("https://evil.example"))
        ) {
            XCTAssertEqual($0 as? ShellRedirectError, .untrustedHost("evil.example"))
        }
        XCTAssertEqual(server.count("GetServiceDefinition"), 1, "the topology was consulted for its Shell hosts")
        await XCTAssertThrowsErrorAsync(
            try await connection.completeAuthorization(
                redirect: completion("http://shell.hv.example"))
        ) {
            guard case .insecureURL? = $0 as? ConfigurationError else { return XCTFail("\($0)") }
        }
        await XCTAssertEqualAsync(try await connection.status(), .awaitingAuthorization(createApplicationURL: page))
        XCTAssertEqual(server.count("CreateAuthenticatedSessionToken"), 0)
    }

    func testTheActionURLCompletesWithACustomScheme() async throws {
        let connection = connection(actionURL: URL(string: "myapp://healthvault/done")!)
        _ = try await connection.provision(masterAppID: Self.master)
        try await connection.completeAuthorization(
            redirect: URL(string: "myapp://healthvault/done?appid=\(Self.child)&target=AppAuthSuccess&instanceid=1")!)
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }

    func testAnAppAuthReturnWithOnlyTheTargetCompletesForTheConnectedInstance() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        try await connection.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
        let people = server.count("GetAuthorizedPeople")
        let outcome = try await connection.completeAuthorization(
            redirect: URL(string: "https://shell.hv.example/application/complete?target=AppAuthSuccess")!)
        XCTAssertEqual(outcome.target, .appAuthSuccess)
        XCTAssertEqual(server.count("GetAuthorizedPeople"), people + 1, "the records may have changed: learned again")
        XCTAssertEqual(server.count("GetServiceDefinition"), 1)
        XCTAssertEqual(server.count("CreateAuthenticatedSessionToken"), 1)
    }

    func testWithoutAnInstanceAReturnMustNameOne() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        await XCTAssertThrowsErrorAsync(
            try await connection.completeAuthorization(
                redirect: completion("https://shell.hv.example", "target=AppAuthSuccess"))
        ) {
            XCTAssertEqual($0 as? ShellRedirectError, .missingParameter("instanceid"))
        }
    }

    func testTheNavigationDecisionsOfAWebView() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        let signIn = await connection.shellNavigation(to: URL(string: "https://login.example/signin?x=1"))
        XCTAssertTrue(signIn.allowsLoading)
        XCTAssertNil(signIn.outcome)
        let blank = await connection.shellNavigation(to: URL(string: "about:blank"))
        XCTAssertTrue(blank.allowsLoading)
        let insecure = await connection.shellNavigation(to: URL(string: "http://login.example/signin"))
        XCTAssertFalse(insecure.allowsLoading)
        guard case .failure? = insecure.outcome else { return XCTFail("an insecure page fails the task") }

        let done = await connection.shellNavigation(to: FakeHealthVaultServer.completion(1))
        XCTAssertFalse(done.allowsLoading)
        guard case .success(let completion)? = done.outcome else { return XCTFail("\(done)") }
        XCTAssertEqual(completion.target, .appAuthSuccess)
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }

    func testADeclineIsAFailedNavigation() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        let declined = await connection.shellNavigation(
            to: completion("https://shell.hv.example", "target=AppAuthReject"))
        guard case .failed(let error) = declined else { return XCTFail("\(declined)") }
        guard case .authorizationRejected? = error as? HealthVaultConnectionError else { return XCTFail("\(error)") }
    }
}
