// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTesting
import XCTest

// The testing article's HealthVault example; it runs with this target's tests.

// snippet test-kit-healthvault
final class HealthVaultConnectionTests: XCTestCase {
    func testAuthorizeRenewAndAuthorizeAgain() async throws {
        let server = HealthVaultTestServer()   // the platform and Shell at https://healthvault.test, in this process
        let connection = HealthVaultConnection(configuration: .init(
            defaultPlatformURL: server.platformURL(), defaultShellURL: server.shellURL(),
            store: InMemoryCredentialStore(), client: .init(transport: server.transport)))

        // The user grants the new app instance access in the Shell.
        let page = try await connection.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
        try await connection.authorize(page, with: server.browser(.approve))
        let people = try await connection.people()
        XCTAssertEqual(people.count, 3)

        // The session expires (status 65): the connection creates a new one and the call goes through.
        server.expireSessions()
        _ = try await connection.refreshPeople()
        XCTAssertEqual(server.ledger.count(.createAuthenticatedSessionToken), 2)

        // The user revokes the app in HealthVault (status 11): the app shows the APPAUTH page again.
        server.revokeAuthorization()
        do {
            _ = try await connection.refreshPeople()
            XCTFail("a revoked app still worked")
        } catch HealthVaultConnectionError.reauthorizationRequired(let appAuthorizationPage, _) {
            try await connection.authorize(appAuthorizationPage, with: server.browser(.approve))
        }
    }
}
// end snippet
