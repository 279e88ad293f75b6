// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import HealthSignInCore
import HealthSignInTesting
import HealthSignInVital
import XCTest

// The testing article's Vital example; it runs with this target's tests.

// snippet test-kit-vital
final class VitalSignInTests: XCTestCase {
    func testSignInRefreshAndASignOutElsewhere() async throws {
        let server = VitalTestServer()   // Junction's API and auth hosts, in this process
        let vital = VitalSession(configuration: .init(
            store: InMemoryCredentialStore(), hosts: .all(VitalHosts(api: server.apiURL, auth: server.authURL)),
            transport: server.transport))

        // What your backend hands the app after Create User and Create Sign-In Token.
        let user = server.createUser(clientUserID: "alice")
        try await vital.signIn(token: try XCTUnwrap(server.signInToken(userID: user)))
        let providers = try await vital.connectedProviders()
        XCTAssertEqual(providers.map(\.slug), ["oura"])

        // The access token expires: the next call refreshes once.
        server.expireAccessTokens()
        _ = try await vital.connectedProviders()
        XCTAssertEqual(server.ledger.count(.refreshToken), 1)

        // The user signed out on another device: the app must ask the backend for a new sign-in token.
        server.revokeSessions()
        server.expireAccessTokens()
        do {
            _ = try await vital.connectedProviders()
            XCTFail("a revoked session still worked")
        } catch VitalSessionError.needsReauthentication(let userID) {
            XCTAssertEqual(userID.uuidString.lowercased(), user)
        }
    }
}
// end snippet
