import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Two Junction deployments and two HealthVault platforms, each behind one store: an app signed in at both never
/// uses one's session at the other.
final class VitalAndHealthVaultTwoRegistrationsTests: XCTestCase {
    func testTwoVitalSessionsOnOneStoreEachKeepTheirOwnUser() async throws {
        let serverA = VitalTestServer(
            apiURL: URL(string: "https://api.junction-a.test")!, authURL: URL(string: "https://auth.junction-a.test")!)
        let serverB = VitalTestServer(
            apiURL: URL(string: "https://api.junction-b.test")!, authURL: URL(string: "https://auth.junction-b.test")!)
        let network = TestServerNetwork(serverA.transport, serverB.transport)
        func session(at server: VitalTestServer, store: any CredentialStore, key: String?) -> VitalSession {
            server.appSession(store: store, storeKey: key, transport: network)
        }
        for scenario in TwoRegistrationsCase.all(sharedKey: "vital.core") {
            serverA.ledger.removeAll()
            serverB.ledger.removeAll()
            let store = try scenario.makeStore()
            let atA = session(at: serverA, store: store, key: scenario.sharedKey)
            let atB = session(at: serverB, store: store, key: scenario.sharedKey)
            let userA = serverA.createUser(clientUserID: "alice")
            let userB = serverB.createUser(clientUserID: "bob")
            await XCTAssertEqualAsync(
                try await atA.signIn(token: try XCTUnwrap(serverA.signInToken(userID: userA))), .signedIn)
            await XCTAssertEqualAsync(
                try await atB.signIn(token: try XCTUnwrap(serverB.signInToken(userID: userB))), .signedIn,
                "\(scenario): the other deployment's user is not this session's")
            for session in [atA, atB, atA, atB] {
                _ = try await session.connectedProviders()
            }
            await XCTAssertEqualAsync(try await atA.currentUserID?.uuidString.lowercased(), userA, "\(scenario)")
            await XCTAssertEqualAsync(try await atB.currentUserID?.uuidString.lowercased(), userB, "\(scenario)")
            let relaunched = session(at: serverB, store: store, key: scenario.sharedKey)
            await XCTAssertEqualAsync(try await relaunched.currentUserID?.uuidString.lowercased(), userB, "\(scenario)")
            _ = try await relaunched.connectedProviders()
            TwoRegistrations.assertEachServerSawOnlyItsOwn(serverA.ledger, serverB.ledger, "\(scenario)")
        }
    }

    func testTwoHealthVaultConnectionsOnOneStoreEachKeepTheirOwnInstance() async throws {
        let platformA = HealthVaultTestServer(baseURL: URL(string: "https://healthvault-a.test")!)
        let platformB = HealthVaultTestServer(baseURL: URL(string: "https://healthvault-b.test")!)
        let network = TestServerNetwork(platformA.transport, platformB.transport)
        func connection(to server: HealthVaultTestServer, store: any CredentialStore, key: String?)
            -> HealthVaultConnection
        {
            server.connection(store: store, storeKey: key, transport: network)
        }
        for scenario in TwoRegistrationsCase.all(sharedKey: "healthvault.connection") {
            platformA.ledger.removeAll()
            platformB.ledger.removeAll()
            let store = try scenario.makeStore()
            for server in [platformA, platformB] {
                let connection = connection(to: server, store: store, key: scenario.sharedKey)
                let page = try await connection.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
                try await connection.authorize(page, with: server.browser(.approve))
            }
            for server in [platformA, platformB, platformA, platformB] {
                let relaunched = connection(to: server, store: store, key: scenario.sharedKey)
                guard case .connected(let instance) = try await relaunched.status() else {
                    return XCTFail("\(scenario): not connected")
                }
                XCTAssertEqual(instance.platformURL, server.platformURL(), "\(scenario)")
                await XCTAssertEqualAsync(try await relaunched.refreshPeople().count, 3, "\(scenario)")
            }
            for server in [platformA, platformB] {
                XCTAssertEqual(server.ledger.count(.newApplicationCreationInfo), 1, "\(scenario)")
                XCTAssertEqual(server.ledger.count(.createAuthenticatedSessionToken), 1, "\(scenario)")
            }
            TwoRegistrations.assertEachServerSawOnlyItsOwn(
                platformA.ledger, platformB.ledger, bearer: false, "\(scenario)")
        }
    }
}
