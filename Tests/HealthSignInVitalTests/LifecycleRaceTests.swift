import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Interleavings of the session lifecycle, each forced with a gated transport against a rotating-token server: a
/// refresh, a refusal or a caller overtaken by sign-out, sign-in, another instance or cancellation.
final class LifecycleRaceTests: XCTestCase {
    private static let userA = SignInTokenTests.userID
    private static let userB = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!

    private var server: FakeVitalServer!
    private var transport: GatedTransport!
    private let store = InMemoryCredentialStore()
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    override func setUp() {
        let server = FakeVitalServer()
        self.server = server
        transport = GatedTransport { server.answer($0) }
    }

    private func core() -> VitalSession {
        VitalSession(configuration: .init(store: store, transport: transport, clock: clock))
    }

    private static func isRefresh(_ request: HTTPRequestMessage) -> Bool {
        String(decoding: request.body ?? Data(), as: UTF8.self).contains("grant_type=refresh_token")
    }

    func testARefusalForASignedOutUserLeavesTheNextUserSignedIn() async throws {
        let core = core()
        try await core.signIn(token: try SignInTokenTests.token("valid"))
        clock.advance(by: 3600)
        let refresh = transport.hold(Self.isRefresh)
        let call = Task { try await core.connectedProviders() }
        _ = await refresh.arrival()
        try await core.signOut()
        try await core.signIn(token: try VitalSessionTests.forgedToken(uid: Self.userB.uuidString))
        server.ledger.deleteSubject(Self.userA.uuidString.lowercased())
        refresh.release()
        await XCTAssertThrowsErrorAsync(try await call.value)
        await XCTAssertEqualAsync(try await core.currentUserID, Self.userB, "A's refusal must not erase B")
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useSignInToken])
    }

    func testSignOutDuringARefreshLeavesNothingBehind() async throws {
        let core = core()
        try await core.signIn(token: try SignInTokenTests.token("valid"))
        clock.advance(by: 3600)
        let refresh = transport.hold(afterServer: true, Self.isRefresh)
        let call = Task { try await core.accessToken() }
        _ = await refresh.arrival()
        try await core.signOut()
        refresh.release()
        await XCTAssertThrowsErrorAsync(try await call.value)
        XCTAssertEqual(store.keys, [], "the rotated tokens are not written after sign-out")
        await XCTAssertEqualAsync(try await core.status, [])
    }

    func testTwoInstancesOnOneStoreSpendEachRefreshTokenOnce() async throws {
        let first = core()
        let second = core()
        try await first.signIn(token: try SignInTokenTests.token("valid"))
        _ = try await second.accessToken()
        clock.advance(by: 3600)
        let renewed = try await first.accessToken()
        await XCTAssertEqualAsync(
            try await second.accessToken(), renewed, "the second instance takes the stored rotation")
        XCTAssertEqual(server.ledger.refreshCount, 1)
        XCTAssertEqual(server.ledger.refusals, [])
        await XCTAssertEqualAsync(try await second.status, [.configured, .signedIn, .useSignInToken])
    }

    func testAnUndecodableStoredSessionIsSignedOutAndNeverLocks() async throws {
        let core = core()
        try await store.write(Data(#"{"mode": {"signInToken": tru"#.utf8), for: core.storeKey)
        await XCTAssertEqualAsync(try await core.status, [])
        await XCTAssertNilAsync(try await core.currentUserID)
        try await core.signOut()
        XCTAssertEqual(store.keys, [], "signing out clears it")
        try await store.write(Data("not json".utf8), for: core.storeKey)
        await XCTAssertEqualAsync(try await core.signIn(token: try SignInTokenTests.token("valid")), .signedIn)
        await XCTAssertEqualAsync(try await core.currentUserID, Self.userA, "a new sign-in replaces it")
    }

    func testACancelledCallerReturnsAtOnceAndTheSharedRefreshStillLands() async throws {
        let core = core()
        try await core.signIn(token: try SignInTokenTests.token("valid"))
        clock.advance(by: 3600)
        let refresh = transport.hold(Self.isRefresh)
        let cancelled = Task { try await core.accessToken() }
        let waiting = Task { try await core.accessToken() }
        _ = await refresh.arrival()
        cancelled.cancel()
        let early = await outcome(of: cancelled, within: 5)
        XCTAssertTrue(
            early.map { if case .failure(let error) = $0 { error is CancellationError } else { false } } ?? false,
            "the cancelled caller returns CancellationError before the refresh ends: \(String(describing: early))")
        refresh.release()
        await XCTAssertEqualAsync(try await waiting.value.value, "at.1.1")
        await XCTAssertTrueAsync(
            String(decoding: try await XCTUnwrapAsync(await store.read(core.storeKey)), as: UTF8.self).contains(
                "rt.1.1"))
    }

    func testACallThatTookTheTokenBeforeSignOutDoesNotSendIt() async throws {
        let core = core()
        try await core.signIn(token: try SignInTokenTests.token("valid"))
        let tookToken = AsyncStream<Void>.makeStream()
        let signedOut = AsyncStream<Void>.makeStream()
        let call = Task {
            try await core.withAccess { access in
                tookToken.continuation.yield()
                for await _ in signedOut.stream { break }
                return try await access.client.getConnectedProviders(
                    .init(userID: access.userID), credential: access.credential)
            }
        }
        for await _ in tookToken.stream { break }
        try await core.signOut()
        signedOut.continuation.yield()
        await XCTAssertThrowsErrorAsync(try await call.value) {
            XCTAssertEqual($0 as? CredentialLifecycleError, .erased)
        }
        XCTAssertEqual(
            transport.requests.filter { !$0.url.path.hasSuffix("/v1/token") }.count, 0, "nothing was sent with it")
    }

    func testStatusesFollowABackgroundRefreshThatMarksTheSessionPending() async throws {
        let core = core()
        var statuses = core.statuses().makeAsyncIterator()
        await XCTAssertEqualAsync(await statuses.next(), [])
        try await core.signIn(token: try SignInTokenTests.token("valid"))
        await XCTAssertEqualAsync(await statuses.next(), [.configured, .signedIn, .useSignInToken])
        clock.advance(by: 3600)
        server.ledger.revoke(TokenLedger.refreshToken(.init(grant: 1, rotation: 0)))
        await XCTAssertThrowsErrorAsync(try await core.connectedProviders())
        await XCTAssertEqualAsync(
            await statuses.next(), [.configured, .signedIn, .useSignInToken, .pendingReauthentication])
        try await core.signOut()
        await XCTAssertEqualAsync(await statuses.next(), [])
    }

    func testAnUnreadableStoredSessionIsReportedAsASignOut() async throws {
        let core = core()
        try await store.write(Data("{".utf8), for: core.storeKey)
        var events = core.events().makeAsyncIterator()
        await XCTAssertEqualAsync(try await core.status, [])
        _ = try? await core.connectedProviders()
        await XCTAssertEqualAsync(await events.next(), .signedOut(.storedSessionUnreadable))
    }
}
