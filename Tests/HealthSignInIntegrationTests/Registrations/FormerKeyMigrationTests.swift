import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// An app updated from a version that kept every family's credential under one key (`smart.session`, `vital.core`,
/// `healthvault.connection`) keeps its user signed in: the state moves to its derived key, recorded, on first use,
/// and nothing is asked of the server again. A service's token is not moved: its registration cannot be told.
final class FormerKeyMigrationTests: XCTestCase {
    /// Rewrites the state `key` holds as an earlier version stored it: the state alone, under `former`.
    private func storeAsEarlierVersion(_ store: any CredentialStore, from key: String, to former: String) async throws {
        let data = try await XCTUnwrapAsync(try await store.read(key))
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let state = try XCTUnwrap(record["state"])
        try await store.write(try JSONSerialization.data(withJSONObject: state), for: former)
        try await store.remove(key)
    }

    private func expectMoved(
        _ store: any CredentialStore, from former: String, to key: String, file: StaticString = #filePath,
        line: UInt = #line
    ) async {
        await XCTAssertNilAsync(try await store.read(former), "the former key is emptied", file: file, line: line)
        await XCTAssertNotNilAsync(
            try await store.recordedRegistration(for: key), "the state is recorded", file: file, line: line)
    }

    func testASMARTGrantMovesAndIsUsedWithoutSigningInAgain() async throws {
        let server = SMARTTestServer()
        let store = InMemoryCredentialStore()
        func session() -> SMARTSession { server.appSession(store: store) }
        let first = session()
        let context = try await first.authorize(with: server.browser())
        try await storeAsEarlierVersion(store, from: first.storeKey, to: "smart.session")

        let updated = session()
        guard case .authorized(let moved, _) = try await updated.status() else { return XCTFail("not signed in") }
        XCTAssertEqual(moved, context)
        server.expireAccessTokens()
        await XCTAssertEqualAsync(try await updated.fhir(.fhir("Patient", id: context.patient)).status, 200)
        await expectMoved(store, from: "smart.session", to: updated.storeKey)
        XCTAssertEqual(server.ledger.count(.redeemCode), 1, "no new sign-in")
        XCTAssertEqual(server.ledger.count(.refreshToken), 1, "the moved refresh token works")
    }

    /// A Koppeltaal grant does not name its server; one whose patient is on another server's origin was that
    /// server's, and is not claimed.
    func testAKoppeltaalGrantMovesUnlessItsPatientIsAnotherServers() async throws {
        let server = KoppeltaalTestServer()
        let store = InMemoryCredentialStore()
        func session() -> KoppeltaalSession { server.gameSession(store: store) }
        for (patient, claimed) in [
            (server.fhirBaseURL.absoluteString + "/Patient/1", true), ("https://elsewhere.test/Patient/1", false),
        ] {
            let first = session()
            _ = try await first.activate(code: server.activationCode(patient: patient))
            try await storeAsEarlierVersion(store, from: first.storeKey, to: "koppeltaal.session")
            let updated = session()
            let status = try await updated.status()
            guard claimed else {
                XCTAssertEqual(status, .needsActivation, patient)
                await XCTAssertNotNilAsync(try await store.read("koppeltaal.session"), "what it does not claim stays")
                continue
            }
            guard case .active(let context, _) = status else { return XCTFail("\(patient): not moved") }
            XCTAssertEqual(context.patient, patient)
            await XCTAssertEqualAsync(try await updated.fhir(ResourcePath("Patient", "1")).status, 200)
            await expectMoved(store, from: "koppeltaal.session", to: updated.storeKey)
            try await updated.revoke()
        }
    }

    func testAVitalSessionMovesAndStaysSignedIn() async throws {
        let server = VitalTestServer()
        let store = InMemoryCredentialStore()
        func session() -> VitalSession { server.appSession(store: store) }
        let first = session()
        let user = server.createUser(clientUserID: "alice")
        try await first.signIn(token: try XCTUnwrap(server.signInToken(userID: user)))
        try await storeAsEarlierVersion(store, from: first.storeKey, to: "vital.core")

        let updated = session()
        await XCTAssertEqualAsync(
            try await updated.currentUserID?.uuidString.lowercased(), user, "seen before it moves")
        _ = try await updated.connectedProviders()
        await expectMoved(store, from: "vital.core", to: updated.storeKey)
        XCTAssertEqual(server.ledger.count(.exchangeSignInToken), 1, "no new sign-in")

        // An earlier version's session for a team this configuration does not allow is not claimed.
        try await storeAsEarlierVersion(store, from: updated.storeKey, to: "vital.core")
        let otherTeam = server.appSession(store: store, expectedTeamID: "another-team")
        await XCTAssertNilAsync(try await otherTeam.currentUserID)
        await XCTAssertThrowsErrorAsync(try await otherTeam.connectedProviders()) {
            XCTAssertEqual($0 as? VitalSessionError, .notSignedIn)
        }
        await XCTAssertNotNilAsync(try await store.read("vital.core"), "what it does not claim stays")
    }

    func testAHealthVaultConnectionMovesAndStaysConnected() async throws {
        let server = HealthVaultTestServer()
        let store = InMemoryCredentialStore()
        func connection() -> HealthVaultConnection { server.connection(store: store) }
        let first = connection()
        let page = try await first.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
        try await first.authorize(page, with: server.browser(.approve))
        try await storeAsEarlierVersion(store, from: first.storeKey, to: "healthvault.connection")

        let updated = connection()
        await XCTAssertEqualAsync(try await updated.refreshPeople().count, 3)
        await expectMoved(store, from: "healthvault.connection", to: updated.storeKey)
        XCTAssertEqual(server.ledger.count(.newApplicationCreationInfo), 1, "no new provisioning")
        XCTAssertEqual(server.ledger.count(.createAuthenticatedSessionToken), 1, "the stored session is used")
    }

    /// Every registration of a family once shared `smart.service`, so a token there may be another's: the service
    /// asks for its own (one request) and leaves that row alone.
    func testAServiceTokenIsNotMovedAndTheServiceAsksForItsOwn() async throws {
        let server = SMARTTestServer()
        let store = InMemoryCredentialStore()
        func service() throws -> SMARTBackendClient { try server.backendClient(store: store) }
        let first = try service()
        let token = try await first.token()
        try await storeAsEarlierVersion(store, from: first.storeKey, to: "smart.service")
        let earlier = try await store.read("smart.service")

        let updated = try service()
        let own = try await updated.token()
        XCTAssertNotEqual(own.accessToken, token.accessToken)
        XCTAssertEqual(server.ledger.count(.clientCredentials), 2)
        await XCTAssertEqualAsync(try await store.read("smart.service"), earlier)
        await XCTAssertNotNilAsync(try await store.recordedRegistration(for: updated.storeKey))
    }
}
