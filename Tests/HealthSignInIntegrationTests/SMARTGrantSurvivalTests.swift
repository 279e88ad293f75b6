import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// A token response is irreversible once it has arrived: with rotation the refresh token sent is already dead. The
/// tokens it brings must survive every local step that fails after it (smart.md §18.3), and what the server says
/// about the user must be on the server's own origin (§18.4).
final class SMARTGrantSurvivalTests: XCTestCase {
    private static let shared = Emulator.shared
    private var emulator: Emulator!
    private var store: InMemoryCredentialStore!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
        store = InMemoryCredentialStore()
    }

    private var fhirBase: URL { emulator.url("/smart/fhir") }

    private func session() -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-public"),
                    redirectURI: "http://127.0.0.1/smart/callback"),
                session: OAuthSessionSettings(
                    store: store,
                    options: ClientOptions(
                        transport: DefaultHTTPTransport(timeout: 5),
                        urlPolicy: URLPolicy(allowsInsecureLoopback: true)))))
    }

    private func launched(_ session: SMARTSession) async throws -> SMARTLaunchContext {
        try await session.authorize(
            with: RedirectFollowingBrowser(transport: DefaultHTTPTransport(timeout: 5)))
    }

    private func refreshes() async throws -> Int? {
        let stats = try await emulator.read("smart/stats")
        return (stats["token"] as? [String: Any])?["refresh_token"] as? Int
    }

    /// The key set answers 503 while the refresh's id token is checked. The server has already rotated the
    /// refresh token; the new tokens are kept, the check finishes once the keys can be read, and the user stays
    /// signed in without a second refresh.
    func testARefreshWhoseKeySetIsUnreachableKeepsItsTokens() async throws {
        try await emulator.control("smart", ["strict_openid": true])
        let session = session()
        _ = try await launched(session)
        try await emulator.control("smart/expire-tokens")
        try await emulator.inject("status", path: "/smart/jwks", status: 503)
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1")))
        _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        let refreshes = try await refreshes()
        XCTAssertEqual(refreshes, 1, "the refresh's tokens were dropped and the grant refreshed again")
        let status = try await session.status()
        guard case .authorized = status else { return XCTFail("\(status)") }
    }

    /// A refresh response carries a member nested as deep as the SDK reads JSON: the store writes whatever the
    /// reader accepts, so the new tokens are stored and the user stays signed in.
    func testARefreshWithAMemberNestedAsDeepAsTheReaderGoesKeepsItsTokens() async throws {
        let session = session()
        _ = try await launched(session)
        try await emulator.control("smart", ["token_member_depth": JSONValue.maximumDepth])
        try await emulator.control("smart/expire-tokens")
        _ = try? await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        try await emulator.control("smart", ["token_member_depth": 0])
        try await emulator.control("smart/expire-tokens")
        _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        let status = try await session.status()
        guard case .authorized = status else { return XCTFail("\(status)") }
    }

    /// An absolute `fhirUser` on another origin than the FHIR server's does not name a resource of this server.
    func testAFHIRUserOnAnotherOriginIsNotTheUsersResource() async throws {
        try await emulator.control("smart", ["fhir_user": "https://other.example/fhir/Practitioner/1"])
        let context = try await launched(session())
        XCTAssertNil(context.fhirUser)
        XCTAssertNotNil(context.subject)
    }

    /// A patient id the server sends cannot walk the patient's URL to another resource.
    func testAPatientURLNeverKeepsDotSegments() async throws {
        for patient in ["..", "../Practitioner/smart-practitioner-1", "."] {
            try await emulator.control("reset")
            store = InMemoryCredentialStore()
            try await emulator.control("smart", ["standalone_patient": patient])
            let context = try await launched(session())
            if let url = context.patientURL {
                let segments = url.path.split(separator: "/")
                XCTAssertFalse(segments.contains("..") || segments.contains("."), url.absoluteString)
                XCTAssertEqual(segments.dropLast().last, "Patient", url.absoluteString)
            }
        }
    }
}
