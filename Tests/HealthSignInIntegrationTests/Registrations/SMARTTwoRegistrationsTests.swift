import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// Two EHRs, one store: an app signed in at both, and a service with a registration at each, never send one EHR's
/// token to the other, whether the key is left to the SDK or both were given one key by mistake.
final class SMARTTwoRegistrationsTests: XCTestCase {
    private let hospitalA = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-a.test/fhir")!)
    private let hospitalB = SMARTTestServer(fhirBaseURL: URL(string: "https://ehr-b.test/fhir")!)

    private var network: TestServerNetwork { TestServerNetwork(hospitalA.transport, hospitalB.transport) }

    private func reset() {
        hospitalA.ledger.removeAll()
        hospitalB.ledger.removeAll()
    }

    func testTwoAppSessionsOnOneStoreEachKeepTheirOwnGrant() async throws {
        for scenario in TwoRegistrationsCase.all(sharedKey: "smart.session") {
            reset()
            let store = try scenario.makeStore()
            let atA = hospitalA.appSession(store: store, storeKey: scenario.sharedKey, transport: network)
            let atB = hospitalB.appSession(store: store, storeKey: scenario.sharedKey, transport: network)
            let contextA = try await atA.authorize(with: hospitalA.browser())
            let contextB = try await atB.authorize(with: hospitalB.browser())
            for (session, context) in [(atA, contextA), (atB, contextB), (atA, contextA), (atB, contextB)] {
                let read = try await session.fhir(.fhir("Patient", id: context.patient))
                XCTAssertEqual(read.status, 200, "\(scenario)")
            }
            // After a relaunch each session reads its own grant from the store again.
            for (server, context) in [(hospitalA, contextA), (hospitalB, contextB)] {
                let relaunched = server.appSession(store: store, storeKey: scenario.sharedKey, transport: network)
                let read = try await relaunched.fhir(.fhir("Patient", id: context.patient))
                XCTAssertEqual(read.status, 200, "\(scenario)")
            }
            TwoRegistrations.assertEachServerSawOnlyItsOwn(hospitalA.ledger, hospitalB.ledger, "\(scenario)")
            XCTAssertEqual(hospitalA.ledger.count(.redeemCode) + hospitalB.ledger.count(.redeemCode), 2, "\(scenario)")
            XCTAssertNotEqual(atA.storeKey, atB.storeKey, "\(scenario)")
            if let shared = scenario.sharedKey {
                XCTAssertEqual(atA.storeKey, shared, "the session that stored first keeps the key it was given")
            }
        }
    }

    func testTwoServicesOnOneStoreEachSendOnlyTheirOwnToken() async throws {
        for scenario in TwoRegistrationsCase.all(sharedKey: "smart.backend") {
            reset()
            let store = try scenario.makeStore()
            let serviceA = try hospitalA.backendClient(store: store, storeKey: scenario.sharedKey, transport: network)
            let serviceB = try hospitalB.backendClient(store: store, storeKey: scenario.sharedKey, transport: network)
            for service in [serviceA, serviceB, serviceA, serviceB] {
                let read = try await service.fhir(.fhir("Patient", id: "p1"))
                XCTAssertEqual(read.status, 200, "\(scenario)")
            }
            TwoRegistrations.assertEachServerSawOnlyItsOwn(hospitalA.ledger, hospitalB.ledger, "\(scenario)")
            for server in [hospitalA, hospitalB] {
                XCTAssertEqual(server.ledger.count(.clientCredentials), 1, "\(scenario): one token each, kept")
            }
        }
    }

    /// A service token records its scope: a client asking for fewer scopes at the same server never gets one asked
    /// for more.
    func testServicesWithOtherScopesAtOneServerDoNotShareAToken() async throws {
        let store = InMemoryCredentialStore()
        let services = try ["system/*.rs", "system/Patient.rs"].map { scope in
            try hospitalA.backendClient(store: store, scope: scope)
        }
        let tokens = try await [services[0].token(), services[1].token()]
        XCTAssertEqual(tokens.map(\.scope), ["system/*.rs", "system/Patient.rs"])
        XCTAssertNotEqual(tokens[0].accessToken, tokens[1].accessToken)
        XCTAssertEqual(hospitalA.ledger.count(.clientCredentials), 2)
    }
}
