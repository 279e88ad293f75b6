import Foundation
import HealthSignInCredentials
import HealthSignInOAuth
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInTesting
import XCTest

/// A service with a registration at each of two EHRs, run as two instances on one PostgreSQL table: each EHR sees
/// only the tokens it issued, and the instances of one registration share its token.
final class TwoRegistrationsTests: XCTestCase {
    func testEachServerSeesOnlyItsOwnTokenAndInstancesShareTheirs() async throws {
        let hospitalA = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-a.test/fhir")!)
        let hospitalB = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-b.test/fhir")!)
        let network = TestServerNetwork(hospitalA.transport, hospitalB.transport)
        let signer = try ClientAssertionSigner(
            key: JSONWebKey(json: Data(PostgresCredentialStoreTests.serviceKey.utf8)), algorithm: .es384)
        for sharedKey in [nil, "smart.backend"] {
            let table = TestDatabase.freshTable()
            // Two instances of the service, each with its own connection to the table.
            let instances = try [TestDatabase.store(table: table), TestDatabase.store(table: table)]
            for server in [hospitalA, hospitalB] { server.ledger.removeAll() }
            for store in instances {
                for server in [hospitalA, hospitalB, hospitalA, hospitalB] {
                    let service = SMARTBackendClient(
                        configuration: .init(
                            registration: OAuthRegistration(
                                baseURL: server.fhirBaseURL,
                                client: OAuthClientCredentials(
                                    clientID: SMARTTestServer.backendClientID, signer: signer)),
                            scope: "system/*.rs",
                            session: OAuthSessionSettings(
                                store: store, storeKey: sharedKey, options: ClientOptions(transport: network))))
                    let read = try await service.fhir(.fhir("Patient", id: "p1"))
                    XCTAssertEqual(read.status, 200)
                }
            }
            let tokens = [hospitalA, hospitalB].map { server in
                Set(server.ledger.entries.compactMap { $0.request.headers["Authorization"] })
            }
            for (server, sent) in zip([hospitalA, hospitalB], tokens) {
                XCTAssertEqual(
                    server.ledger.entries.filter(\.wasRefused).map(\.description), [], "key \(sharedKey ?? "derived")")
                XCTAssertEqual(server.ledger.count(.clientCredentials), 1, "one token for both instances")
                XCTAssertEqual(sent.count, 1, "every call carried the one token")
            }
            XCTAssertTrue(tokens[0].isDisjoint(with: tokens[1]))
        }
    }
}
