import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Interleavings of the grant lifecycle, each forced with a gated transport against a rotating-token server:
/// activation, refresh, refusal and revocation overlapping, and two sessions sharing one store.
final class LifecycleRaceTests: XCTestCase {
    private var server: FakeKoppeltaalServer!
    private var transport: GatedTransport!
    private let store = InMemoryCredentialStore()
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    override func setUp() {
        let server = FakeKoppeltaalServer()
        self.server = server
        transport = GatedTransport { server.answer($0) }
    }

    private func session() -> KoppeltaalSession {
        KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: FakeKoppeltaalServer.fhirBaseURL,
                    client: OAuthClientCredentials(clientID: "app", secret: "secret", method: .unencodedBasic),
                    redirectURI: "app://cb",
                    endpoints: EndpointOverrides(
                        authorization: FakeKoppeltaalServer.authorizeURL, token: FakeKoppeltaalServer.tokenURL,
                        revocation: FakeKoppeltaalServer.revokeURL
                    )), pkce: .never,
                session: OAuthSessionSettings(store: store, options: ClientOptions(transport: transport), clock: clock))
        )
    }

    private static func grantType(_ request: HTTPRequestMessage) -> String? {
        FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))["grant_type"]
    }

    private static func isRefresh(_ request: HTTPRequestMessage) -> Bool { grantType(request) == "refresh_token" }

    func testARefusedRefreshDoesNotDiscardAGrantActivatedMeanwhile() async throws {
        let session = session()
        _ = try await session.activate(code: "111111")
        clock.advance(by: 900)
        let refresh = transport.hold(Self.isRefresh)
        let call = Task { try await session.fhir(.fhir("Patient", id: "1")) }
        _ = await refresh.arrival()
        let context = try await session.activate(code: "222222")
        server.ledger.revoke(TokenLedger.refreshToken(.init(grant: 1, rotation: 0)))
        refresh.release()
        await XCTAssertThrowsErrorAsync(try await call.value)
        await XCTAssertEqualAsync(
            try await session.status(), .active(context, accessTokenExpiresAt: clock.now().addingTimeInterval(900)))
    }

    func testRevokeWaitsForAnActivationInProgressAndRevokesItsGrant() async throws {
        let session = session()
        let redemption = transport.hold { Self.grantType($0) == "authorization_code" }
        let activation = Task { try await session.activate(code: "111111") }
        _ = await redemption.arrival()
        let revocation = Task { try await session.revoke() }
        _ = await outcome(of: revocation, within: 0.5)
        redemption.release()
        _ = try await activation.value
        guard case .revoked = try await revocation.value else { return XCTFail("the new grant was not revoked") }
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        XCTAssertEqual(server.ledger.liveRefreshTokens, [])
    }

    func testRevokeDuringARefreshRevokesTheRotatedToken() async throws {
        let session = session()
        _ = try await session.activate(code: "111111")
        clock.advance(by: 900)
        let refresh = transport.hold(afterServer: true, Self.isRefresh)
        let call = Task { try await session.fhir(.fhir("Patient", id: "1")) }
        _ = await refresh.arrival()
        let revocation = Task { try await session.revoke() }
        _ = await outcome(of: revocation, within: 0.5)
        refresh.release()
        _ = await call.result
        guard case .revoked = try await revocation.value else { return XCTFail("not revoked") }
        XCTAssertEqual(server.ledger.liveRefreshTokens, [], "no rotated refresh token stays live")
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
    }

    func testTwoSessionsOnOneStoreSpendEachRefreshTokenOnce() async throws {
        let first = session()
        let second = session()
        _ = try await first.activate(code: "111111")
        _ = try await second.accessToken()
        clock.advance(by: 900)
        let renewed = try await first.accessToken()
        await XCTAssertEqualAsync(
            try await second.accessToken(), renewed, "the second session takes the stored rotation")
        XCTAssertEqual(server.ledger.refreshCount, 1)
        XCTAssertEqual(server.ledger.refusals, [])
    }

    func testAnUndecodableStoredGrantNeedsActivationAndNeverLocks() async throws {
        let session = session()
        try await store.write(Data(#"{"grant": {"accessToken": 1"#.utf8), for: session.storeKey)
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        guard case .nothingToRevoke = try await session.revoke() else { return XCTFail("expected nothing to revoke") }
        XCTAssertEqual(store.keys.filter { $0 == session.storeKey }, [], "revoking clears it")
        try await store.write(Data("not json".utf8), for: session.storeKey)
        _ = try await session.activate(code: "111111")
        guard case .active = try await session.status() else { return XCTFail("activation did not replace it") }
    }

    func testStatusesFollowActivationAndABackgroundRefreshThatDiscardsTheGrant() async throws {
        let session = session()
        var statuses = session.statuses().makeAsyncIterator()
        await XCTAssertEqualAsync(await statuses.next(), .needsActivation)
        let context = try await session.activate(code: "111111")
        await XCTAssertEqualAsync(
            await statuses.next(), .active(context, accessTokenExpiresAt: clock.now().addingTimeInterval(900)))
        clock.advance(by: 900)
        server.ledger.revoke(TokenLedger.refreshToken(.init(grant: 1, rotation: 0)))
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "1")))
        await XCTAssertEqualAsync(await statuses.next(), .needsActivation, "the refused grant is discarded")
    }

    func testAnUnreadableStoredGrantIsReported() async throws {
        let session = session()
        try await store.write(Data("{".utf8), for: session.storeKey)
        var events = session.events().makeAsyncIterator()
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        await XCTAssertEqualAsync(await events.next(), .unreadableStoredValue)
    }
}
