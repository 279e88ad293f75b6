import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// A token response is irreversible once it has arrived: with rotation the refresh token sent is already dead. The
/// tokens it brings must survive every local step that fails after it (smart.md §18.3), and what the server says
/// about the user must be on the server's own origin (§18.4). Against the in-process SMART server.
final class SMARTGrantSurvivalTests: XCTestCase {
    private var server: SMARTTestServer!
    private var store: InMemoryCredentialStore!

    override func setUp() async throws {
        server = SMARTTestServer()
        store = InMemoryCredentialStore()
    }

    private var fhirBase: URL { server.fhirBaseURL }

    private func session() -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-public"),
                    redirectURI: "http://127.0.0.1/smart/callback"),
                session: OAuthSessionSettings(
                    store: store,
                    options: ClientOptions(transport: server.transport))))
    }

    private func launched(_ session: SMARTSession) async throws -> SMARTLaunchContext {
        try await session.authorize(with: server.browser(.approve))
    }

    private func refreshes() -> Int { server.ledger.count(.refreshToken) }

    /// The key set answers 503 while the refresh's id token is checked. The server has already rotated the
    /// refresh token; the new tokens are kept, the check finishes once the keys can be read, and the user stays
    /// signed in without a second refresh.
    func testARefreshWhoseKeySetIsUnreachableKeepsItsTokens() async throws {
        server.settings.strictOpenID = true
        let session = session()
        _ = try await launched(session)
        server.expireAccessTokens()
        server.faults.inject(.status(503), at: server.jwksURL)
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1")))
        _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        let refreshes = refreshes()
        XCTAssertEqual(refreshes, 1, "the refresh's tokens were dropped and the grant refreshed again")
        let status = try await session.status()
        guard case .authorized = status else { return XCTFail("\(status)") }
    }

    /// A refresh response carries a member nested as deep as the SDK reads JSON: the store writes whatever the
    /// reader accepts, so the new tokens are stored and the user stays signed in.
    func testARefreshWithAMemberNestedAsDeepAsTheReaderGoesKeepsItsTokens() async throws {
        let session = session()
        _ = try await launched(session)
        server.settings.tokenMemberDepth = JSONValue.maximumDepth
        server.expireAccessTokens()
        _ = try? await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        server.settings.tokenMemberDepth = 0
        server.expireAccessTokens()
        _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        let status = try await session.status()
        guard case .authorized = status else { return XCTFail("\(status)") }
    }

    /// An absolute `fhirUser` on another origin than the FHIR server's does not name a resource of this server.
    func testAFHIRUserOnAnotherOriginIsNotTheUsersResource() async throws {
        server.settings.fhirUser = "https://other.example/fhir/Practitioner/1"
        let context = try await launched(session())
        XCTAssertNil(context.fhirUser)
        XCTAssertNotNil(context.subject)
    }

    /// A patient id the server sends cannot walk the patient's URL to another resource.
    func testAPatientURLNeverKeepsDotSegments() async throws {
        for patient in ["..", "../Practitioner/smart-practitioner-1", "."] {
            server = SMARTTestServer()
            store = InMemoryCredentialStore()
            server.settings.standalonePatient = patient
            let context = try await launched(session())
            if let url = context.patientURL {
                let segments = url.path.split(separator: "/")
                XCTAssertFalse(segments.contains("..") || segments.contains("."), url.absoluteString)
                XCTAssertEqual(segments.dropLast().last, "Patient", url.absoluteString)
            }
        }
    }
}
