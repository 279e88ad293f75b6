import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Two Koppeltaal servers, one store: an app activated at both (Koppeltaal 1.x), and a module with an application in
/// two Koppeltaal 2.0 domains, never send one server's token to the other.
final class KoppeltaalTwoRegistrationsTests: XCTestCase {
    func testTwoActivatedSessionsOnOneStoreEachKeepTheirOwnGrant() async throws {
        let serverA = KoppeltaalTestServer(baseURL: URL(string: "https://koppeltaal-a.test")!)
        let serverB = KoppeltaalTestServer(baseURL: URL(string: "https://koppeltaal-b.test")!)
        let network = TestServerNetwork(serverA.transport, serverB.transport)
        func session(at server: KoppeltaalTestServer, store: any CredentialStore, key: String?) -> KoppeltaalSession {
            server.gameSession(store: store, storeKey: key, transport: network)
        }
        for scenario in TwoRegistrationsCase.all(sharedKey: "koppeltaal.session") {
            serverA.ledger.removeAll()
            serverB.ledger.removeAll()
            let store = try scenario.makeStore()
            let atA = session(at: serverA, store: store, key: scenario.sharedKey)
            let atB = session(at: serverB, store: store, key: scenario.sharedKey)
            _ = try await atA.activate(code: serverA.activationCode(patient: "Patient/a"))
            _ = try await atB.activate(code: serverB.activationCode(patient: "Patient/b"))
            for (session, patient) in [(atA, "a"), (atB, "b"), (atA, "a"), (atB, "b")] {
                let read = try await session.fhir(ResourcePath("Patient", patient))
                XCTAssertEqual(read.status, 200, "\(scenario)")
            }
            await XCTAssertEqualAsync(
                try await session(at: serverB, store: store, key: scenario.sharedKey).fhir(ResourcePath("Patient", "b"))
                    .status, 200, "\(scenario): relaunched, the session reads its own grant")
            TwoRegistrations.assertEachServerSawOnlyItsOwn(serverA.ledger, serverB.ledger, "\(scenario)")
        }
    }

    func testAModuleInTwoDomainsSendsEachDomainOnlyItsOwnToken() async throws {
        let domainA = Koppeltaal2TestServer(
            fhirBaseURL: URL(string: "https://fhir.domain-a.test/fhir/DEFAULT")!,
            authURL: URL(string: "https://auth.domain-a.test")!)
        let domainB = Koppeltaal2TestServer(
            fhirBaseURL: URL(string: "https://fhir.domain-b.test/fhir/DEFAULT")!,
            authURL: URL(string: "https://auth.domain-b.test")!)
        let network = TestServerNetwork(domainA.transport, domainB.transport)
        let key = try XCTUnwrap(
            try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == "test-rsa" })
        for domain in [domainA, domainB] {
            domain.registerApplication(clientID: "module-1", keys: JSONWebKeySet(keys: [key.publicKey]))
        }
        func client(in domain: Koppeltaal2TestServer, store: any CredentialStore, storeKey: String?) throws
            -> Koppeltaal2FHIRClient
        {
            Koppeltaal2FHIRClient(
                backend: Koppeltaal2BackendClient(
                    configuration: .init(
                        clientID: "module-1", signer: try Koppeltaal2BackendClient.signer(key: key),
                        fhirBaseURL: domain.fhirBaseURL, trustedHosts: [domain.authURL.host ?? ""], store: store,
                        storeKey: storeKey, options: ClientOptions(transport: network))))
        }
        for scenario in TwoRegistrationsCase.all(sharedKey: "koppeltaal2.service") {
            domainA.ledger.removeAll()
            domainB.ledger.removeAll()
            let store = try scenario.makeStore()
            let inA = try client(in: domainA, store: store, storeKey: scenario.sharedKey)
            let inB = try client(in: domainB, store: store, storeKey: scenario.sharedKey)
            for client in [inA, inB, inA, inB] {
                let device = try await client.read(KT2Device.self, id: "module-1")
                XCTAssertEqual(device.resource.status, .active, "\(scenario)")
            }
            TwoRegistrations.assertEachServerSawOnlyItsOwn(domainA.ledger, domainB.ledger, "\(scenario)")
            for domain in [domainA, domainB] {
                XCTAssertEqual(domain.ledger.count(.clientCredentials), 1, "\(scenario): one token each, kept")
            }
        }
    }
}
