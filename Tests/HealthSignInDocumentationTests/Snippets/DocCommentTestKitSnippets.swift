// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInSMART
import HealthSignInTesting
import HealthSignInVital
import XCTest

// The examples in the doc comments of the test kit (HealthSignInTesting).

func manualClockExample() -> ManualClock {
    // snippet doc-manual-clock
    let clock = ManualClock(Date(timeIntervalSince1970: 1_502_368_496))
    clock.advance(by: 60)
    // end snippet
    return clock
}

func recordingTransportExample(fixture: Data, url: URL, master: UUID, expectedBytes: Data) async throws {
    // snippet doc-recording-transport
    let transport = RecordingTransport(responses: [HTTPResponseMessage(status: 200, body: fixture)])
    let client = HealthVaultAPIClient(configuration: .init(servers: .init(platform: url), transport: transport))
    _ = try await client.newApplicationCreationInfo(applicationID: master)
    XCTAssertEqual(transport.requests.first?.body, expectedBytes)
    // end snippet
}

func testServerNetworkExample() -> TestServerNetwork {
    // snippet doc-test-server-network
    let hospitalA = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-a.test/fhir")!)
    let hospitalB = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-b.test/fhir")!)
    let network = TestServerNetwork(hospitalA.transport, hospitalB.transport)
    // end snippet
    return network
}

func redirectFollowingBrowserExample(session: SMARTSession) async throws -> SMARTLaunchContext {
    // snippet doc-redirect-following-browser
    let context = try await session.authorize(with: RedirectFollowingBrowser(transport: DefaultHTTPTransport()))
    // end snippet
    return context
}

func healthVaultTestServerExample(connection: HealthVaultConnection) async throws {
    // snippet doc-healthvault-test-server
    let server = HealthVaultTestServer()
    let page = try await connection.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
    try await connection.authorize(page, with: server.browser(.approve))
    server.expireSessions()          // status 65: the connection renews its session
    server.revokeAuthorization()     // status 11: the user must authorize again
    // end snippet
}

func koppeltaalTestServerExample() -> String {
    // snippet doc-koppeltaal-test-server
    let server = KoppeltaalTestServer()
    let code = server.activationCode(clientID: KoppeltaalTestServer.gameClientID)
    server.expireAccessTokens()          // the next FHIR call refreshes
    server.revokeAllGrants()             // the user signed out elsewhere
    // end snippet
    return code
}

func smartTestServerExample(session: SMARTSession) async throws -> SMARTLaunchContext {
    // snippet doc-smart-test-server
    let server = SMARTTestServer()                           // FHIR at https://ehr.test/fhir
    let context = try await session.authorize(with: server.browser(.approve))
    server.expireAccessTokens()                              // the next FHIR call refreshes
    server.revokeAllGrants()                                 // the user revoked the app elsewhere
    XCTAssertEqual(server.ledger.count(.refreshToken), 1)
    // end snippet
    return context
}

// snippet doc-test-server
func expectNothingSent(to server: some TestServer) {
    XCTAssertTrue(server.ledger.entries.isEmpty, "\(server.ledger)")
}
// end snippet

func httpTransportConformanceExample() async throws {
    // snippet doc-http-transport-conformance
    let report = try await HTTPTransportConformance { timeout in
        URLSessionHTTPTransport(configuration: .init(timeout: timeout))
    }.run()
    XCTAssertEqual(report.failures, [], "\(report)")
    // end snippet
}

func testServerFaultsExample(server: SMARTTestServer) {
    // snippet doc-test-server-faults
    server.faults.inject(.status(503, retryAfter: 30), at: server.tokenURL)
    server.faults.inject(.dropConnection, at: server.fhirBaseURL, count: 2)
    // end snippet
}

func testServerLedgerExample(server: SMARTTestServer) {
    // snippet doc-test-server-ledger
    XCTAssertEqual(server.ledger.count(.refreshToken), 1)
    print(server.ledger)   // one line per request, secrets redacted
    // end snippet
}

func testServerOperationExample(server: VitalTestServer) {
    // snippet doc-test-server-operation
    XCTAssertEqual(server.ledger.count(.refreshToken), 1)
    XCTAssertEqual(server.ledger.count(refused: .refreshToken), 0)
    // end snippet
}

func testUserBrowserExample(session: SMARTSession, server: SMARTTestServer) async throws -> SMARTLaunchContext {
    // snippet doc-test-user-browser
    let context = try await session.authorize(with: server.browser(.approve))
    do {
        _ = try await session.authorize(with: server.browser(.deny))
        XCTFail("the user said no")
    } catch {}
    // end snippet
    return context
}

func vitalTestServerExample() -> String? {
    // snippet doc-vital-test-server
    let server = VitalTestServer()
    let user = server.createUser(clientUserID: "alice")
    let token = server.signInToken(userID: user)   // what your backend would hand the app
    server.expireAccessTokens()                    // the next call refreshes
    server.deleteUser(user)                        // the next call signs the app out
    // end snippet
    return token
}

func koppeltaal2TestServerExample(moduleKey: JSONWebKey) {
    // snippet doc-koppeltaal2-test-server
    let server = Koppeltaal2TestServer()
    let device = server.registerApplication(
        clientID: "module-1", keys: JSONWebKeySet(keys: [moduleKey.publicKey]),
        redirectURIs: ["https://module.example/callback"])
    server.put(["resourceType": "Patient", "id": "p1", "identifier": [["value": "p1@example.org"]]])
    server.expireAccessTokens()   // the next FHIR call gets a 401 and a new token
    // end snippet
    _ = device
}

func smartBackendKeyExample() throws -> ClientAssertionSigner {
    // snippet doc-smart-test-backend-key
    let signer = try ClientAssertionSigner(key: SMARTTestServer.backendPrivateKey, algorithm: .es384)
    // end snippet
    return signer
}
