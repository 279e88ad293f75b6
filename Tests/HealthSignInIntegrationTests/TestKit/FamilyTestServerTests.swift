import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// What the Koppeltaal, Vital and HealthVault test servers offer an app's tests beyond the emulator's journeys: the
/// user at HealthVault's Shell, and the protocol faults as calls.
final class FamilyTestServerTests: XCTestCase {
    func testAKoppeltaalRefreshRefusedOrRevokedElsewhereNeedsActivation() async throws {
        let server = KoppeltaalTestServer()
        let session = server.gameSession()
        let context = try await session.activate(code: server.activationCode(patient: "Patient/7"))
        XCTAssertEqual(context.patient, "Patient/7")
        server.refuseNextRefresh()
        server.expireAccessTokens()
        await XCTAssertThrowsErrorAsync(try await session.fhir(ResourcePath("Patient", "7"))) { error in
            XCTAssertEqual((error as? SignInError)?.serverError?.code, .invalidGrant, "\(error)")
        }
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)

        _ = try await session.activate(code: server.activationCode())
        server.revokeAllGrants()
        await XCTAssertThrowsErrorAsync(try await session.fhir(ResourcePath("Patient", "7")))
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        XCTAssertEqual(server.liveRefreshTokens, 0)
    }

    func testAVitalRefreshRefusedOrLostWaitsForReauthentication() async throws {
        let server = VitalTestServer()
        let app = server.appSession()
        let user = server.createUser(clientUserID: "alice")
        try await app.signIn(token: try XCTUnwrap(server.signInToken(userID: user)))
        server.loseNextRefreshResponse()
        server.expireAccessTokens()
        await XCTAssertThrowsErrorAsync(try await app.connectedProviders()) { error in
            XCTAssertEqual((error as? TransportError)?.kind, .connectionLost, "\(error)")
        }
        await XCTAssertThrowsErrorAsync(try await app.connectedProviders()) { error in
            guard case .needsReauthentication? = error as? VitalSessionError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(server.ledger.count(refused: .refreshToken), 1)

        let other = server.appSession()
        try await other.signIn(token: try XCTUnwrap(server.signInToken(userID: user)))
        server.refuseNextRefresh()
        server.expireAccessTokens()
        await XCTAssertThrowsErrorAsync(try await other.connectedProviders()) { error in
            guard case .needsReauthentication? = error as? VitalSessionError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(server.userCount, 1)
    }

    /// The user's account is in instance 2: instance 1's Shell bounces a page that allows it, and the connection's
    /// browser stops on instance 2's Shell; a page that does not allow it ends on the Shell's error page, which the
    /// error names.
    func testTheHealthVaultShellBouncesTheUserToTheInstanceOfTheirAccount() async throws {
        let server = HealthVaultTestServer()
        server.settings.shellInstance = "2"
        let connection = server.connection()
        let page = try await connection.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
        XCTAssertEqual(page.path, server.shellURL(instance: "1").path + "/redirect.aspx")
        let completion = try await connection.authorize(page, with: server.browser(.approve))
        XCTAssertEqual(completion.instanceID, "2")
        guard case .connected(let instance) = try await connection.status() else { return XCTFail("not connected") }
        XCTAssertEqual(instance.platformURL, server.platformURL(instance: "2"))
        let sessions = server.ledger.entries(for: .createAuthenticatedSessionToken).map(\.request.url)
        XCTAssertEqual(sessions, [server.platformURL(instance: "2")], "the session is made on instance 2's platform")
        XCTAssertEqual(
            Set(server.ledger.entries(for: .getAuthorizedPeople).map(\.request.url)),
            [server.platformURL(instance: "2")])
        await XCTAssertEqualAsync(try await connection.people().count, 3, "the people were learned at completion")

        let withoutBounce = HealthVaultShell(url: server.shellURL(instance: "1")).createApplication(
            masterApplicationID: HealthVaultTestServer.masterApplicationID, applicationCreationToken: "any",
            instanceName: "test", allowsInstanceBounce: false)
        await XCTAssertThrowsErrorAsync(
            try await server.browser(.approve).authorize(
                withoutBounce, callback: AuthorizationCallback(server.shellURL(instance: "1")))
        ) { error in
            guard case .errorPage(400, _, let shown)? = error as? AuthorizationBrowserError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(shown, server.shellURL(instance: "1").absoluteString + "/redirect.aspx?<redacted>")
            XCTAssertTrue("\(error)".contains("/shell/1/redirect.aspx?<redacted>"), "\(error)")
        }
    }

    func testTheHealthVaultUserDeclinesOrClosesTheShell() async throws {
        let server = HealthVaultTestServer()
        let connection = server.connection()
        let page = try await connection.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
        await XCTAssertThrowsErrorAsync(try await connection.authorize(page, with: server.browser(.cancel))) { error in
            XCTAssertEqual(error as? AuthorizationBrowserError, .cancelled)
        }
        guard case .awaitingAuthorization = try await connection.status() else {
            return XCTFail("closing the page keeps the instance provisioned")
        }
        try await connection.authorize(page, with: server.browser(.approve))
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }

        server.revokeAuthorization()
        await XCTAssertThrowsErrorAsync(try await connection.refreshPeople()) { error in
            guard case .reauthorizationRequired? = error as? HealthVaultConnectionError else {
                return XCTFail("\(error)")
            }
        }
        let appAuth = try await connection.appAuthorizationURL()
        await XCTAssertThrowsErrorAsync(try await connection.authorize(appAuth, with: server.browser(.deny))) { error in
            guard case .authorizationRejected? = error as? HealthVaultConnectionError else {
                return XCTFail("\(error)")
            }
        }
        try await connection.authorize(appAuth, with: server.browser(.approve))
        await XCTAssertEqualAsync(try await connection.refreshPeople().count, 3)
    }

    func testEveryFamilysServerIsATestServerThatOneHelperDrives() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let smart = SMARTTestServer(clock: clock)
        let koppeltaal = KoppeltaalTestServer(clock: clock)
        let vital = VitalTestServer(clock: clock)
        let healthVault = HealthVaultTestServer(clock: clock)
        let refresh = "grant_type=refresh_token&refresh_token=x"
        try await expectAFaultAndItsEntry(smart, at: smart.tokenURL, form: refresh, as: .refreshToken, clock: clock)
        try await expectAFaultAndItsEntry(
            koppeltaal, at: koppeltaal.tokenURL, form: refresh, as: .refreshToken, clock: clock)
        try await expectAFaultAndItsEntry(vital, at: vital.tokenURL, form: refresh, as: .refreshToken, clock: clock)
        try await expectAFaultAndItsEntry(
            healthVault, at: healthVault.platformURL(), form: "", as: .unknownMethod, clock: clock)
    }

    /// A helper written once for any server: the injected fault answers the next request, and the ledger names it by
    /// the operation it asked for, though the server never acted on it.
    private func expectAFaultAndItsEntry<Server: TestServer>(
        _ server: Server, at url: URL, form: String, as operation: Server.Operation, clock: ManualClock
    ) async throws {
        XCTAssertEqual(server.clock.now(), clock.now())
        server.faults.inject(.status(503, retryAfter: 7), at: url)
        let request = HTTPRequestMessage(
            method: .post, url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data(form.utf8))
        let response = try await server.transport(timeout: 5).send(request)
        XCTAssertEqual(response.status, 503)
        XCTAssertEqual(server.transport(timeout: 5).timeout, 5)
        XCTAssertNil(server.transport.timeout)
        XCTAssertEqual(server.ledger.entries.count, 1, "\(server.ledger)")
        XCTAssertEqual(server.ledger.entries.first?.status, 503)
        XCTAssertEqual(server.ledger.entries.first?.operation, operation)
        XCTAssertEqual(server.ledger.entries.first?.reachedServer, false)
        XCTAssertEqual(server.ledger.count(operation), 1)
        XCTAssertEqual(server.ledger.count(refused: operation), 0, "the server never refused it: it never saw it")
        XCTAssertEqual(server.faults.pending, 0)
    }

    func testFaultsAndLedgerQueriesMatchWholePathSegments() async throws {
        let server = SMARTTestServer()
        let endpoint = server.fhirBaseURL.appendingPathComponent("Pat")
        server.faults.inject(.status(500), at: endpoint)
        let patient = server.fhirBaseURL.appendingPathComponent("Patient/smart-patient-1")
        let read = try await server.transport.send(HTTPRequestMessage(method: .get, url: patient))
        XCTAssertNotEqual(read.status, 500, "/Pat is not a prefix of /Patient by segments")
        XCTAssertEqual(server.faults.pending, 1)
        XCTAssertEqual(server.ledger.requests(to: endpoint).count, 0)
        let below = try await server.transport.send(
            HTTPRequestMessage(method: .get, url: endpoint.appendingPathComponent("1")))
        XCTAssertEqual(below.status, 500)
        XCTAssertEqual(server.ledger.requests(to: endpoint).count, 1)
        XCTAssertEqual(server.ledger.requests(to: server.fhirBaseURL).count, 2)
    }
}
