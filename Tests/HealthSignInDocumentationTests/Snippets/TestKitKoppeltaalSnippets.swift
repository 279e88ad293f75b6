// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTesting
import XCTest

// The testing article's Koppeltaal example; it runs with this target's tests.

// snippet test-kit-koppeltaal
final class KoppeltaalLaunchTests: XCTestCase {
    func testLaunchRefreshAndRevocation() async throws {
        let server = KoppeltaalTestServer()   // https://koppeltaal.test, in this process
        let session = KoppeltaalSession(configuration: .init(
            registration: OAuthRegistration(
                baseURL: server.fhirBaseURL,
                client: OAuthClientCredentials(
                    clientID: KoppeltaalTestServer.gameClientID, secret: KoppeltaalTestServer.gameClientSecret,
                    method: .unencodedBasic),
                redirectURI: KoppeltaalTestServer.redirectURIs[0]),
            session: OAuthSessionSettings(
                store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport))))

        // The portal launched the app with an activation code (a KoppeltaalBackend can ask the server for one too).
        let context = try await session.activate(code: server.activationCode(patient: "Patient/72308"))
        XCTAssertEqual(context.patient, "Patient/72308")

        // The token expires: the FHIR call meets the `expired` OperationOutcome, refreshes once and is replayed.
        server.expireAccessTokens()
        let messages = try await session.fhir(ResourcePath("MessageHeader", "_search"))
        XCTAssertEqual(messages.status, 200)
        XCTAssertEqual(server.ledger.count(.refreshToken), 1)

        // The grant is revoked elsewhere: the app needs a new activation.
        server.revokeAllGrants()
        _ = try? await session.fhir(ResourcePath("MessageHeader", "_search"))
        let status = try await session.status()
        XCTAssertEqual(status, .needsActivation)
    }
}
// end snippet
