// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTesting
import XCTest

// The test of the README's and the testing article's SMART example; it runs with this target's tests.

// snippet test-kit-smart
final class SMARTSignInTests: XCTestCase {
    func testSignInRefreshAndRevocation() async throws {
        let server = SMARTTestServer()   // an EHR at https://ehr.test/fhir, in this process: no sockets, no Python
        let session = SMARTSession(configuration: .init(
            registration: OAuthRegistration(
                baseURL: server.fhirBaseURL, client: OAuthClientCredentials(clientID: SMARTTestServer.publicClientID),
                redirectURI: SMARTTestServer.redirectURIs[0]),
            session: OAuthSessionSettings(
                store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport))))

        // The user signs in and consents (`.deny` and `.cancel` test the other answers).
        let context = try await session.authorize(with: server.browser(.approve))
        let patient = try await session.fhir(.fhir("Patient", id: context.patient))
        XCTAssertEqual(patient.status, 200)

        // The access token expires: the next call refreshes once, and the app never notices.
        server.expireAccessTokens()
        _ = try await session.fhir(.fhir("Patient", id: context.patient))
        XCTAssertEqual(server.ledger.count(.refreshToken), 1)

        // The user revokes the app in the EHR's portal: the app must send them to sign in again.
        server.revokeAllGrants()
        do {
            _ = try await session.fhir(.fhir("Patient", id: context.patient))
            XCTFail("a revoked grant still worked")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .needsSignIn)
        }
    }
}
// end snippet
