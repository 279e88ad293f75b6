import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Vital sign-in with the real URLSession transport against the emulator over 127.0.0.1: the backend mints tokens
/// with the team key, the app signs in, calls the data API, refreshes, and signs out.
final class VitalIntegrationTests: XCTestCase {
    private static let shared = Emulator.shared
    private static let teamKey = APIKey("sk_us_emulator")
    private var emulator: Emulator!
    private var store: InMemoryCredentialStore!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
        store = InMemoryCredentialStore()
    }

    private var hosts: VitalHostMap {
        .all(VitalHosts(api: emulator.url("/vital/api"), auth: emulator.url("/vital/auth")))
    }

    private var backend: VitalBackend {
        VitalBackend(
            configuration: .init(
                apiKey: Self.teamKey, environment: .sandboxUS, hosts: hosts,
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)
            ))
    }

    private func core(
        store: (any CredentialStore)? = nil, timeout: TimeInterval = 5, clock: any TimeSource = SystemClock(),
        transport: (any HTTPTransport)? = nil
    ) -> VitalSession {
        VitalSession(
            configuration: .init(
                store: store ?? self.store, hosts: hosts, urlPolicy: URLPolicy(allowsInsecureLoopback: true),
                transport: transport ?? DefaultHTTPTransport(timeout: timeout), clock: clock
            ))
    }

    private func calls(_ name: String) async throws -> Int {
        ((try await emulator.read("vital/stats"))["calls"] as? [String: Int])?[name] ?? 0
    }

    private func refreshes() async throws -> Int { try await calls("token:refresh_token") }

    // MARK: - The journey

    func testFromBackendTokenToSignOut() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vital-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let grant = try await backend.signInToken(forClientUserID: "alice")
        XCTAssertTrue(grant.createdUser)

        let app = core(store: try FileCredentialStore(directory: directory))
        let events = app.events()
        await XCTAssertEqualAsync(try await app.signIn(token: grant.signInToken), .signedIn)
        await XCTAssertEqualAsync(try await app.connectedProviders().map(\.slug), ["oura"])

        // A relaunch reads the session from the file: signed in, without any request.
        let relaunched = core(store: try FileCredentialStore(directory: directory))
        XCTAssertEqual(try relaunched.status, [.configured, .signedIn, .useSignInToken])
        XCTAssertEqual(try relaunched.currentUserID, grant.userID)
        await XCTAssertEqualAsync(try await calls("token:urn:ietf:params:oauth:grant-type:token-exchange"), 1)

        // Expiry under load: a hundred concurrent calls, one refresh.
        try await emulator.control("vital/expire-tokens")
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { try await relaunched.connectedProviders().count } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(counts, Array(repeating: 1, count: 100))
        await XCTAssertEqualAsync(try await refreshes(), 1, "one refresh for a hundred callers")

        // The backend deletes the user: the next call signs out automatically and says so.
        let relaunchedEvents = relaunched.events()
        try await backend.deleteUser(grant.userID)
        do {
            _ = try await relaunched.connectedProviders()
            XCTFail("expected the deleted user to be signed out")
        } catch VitalSessionError.userNoLongerValid(let user) {
            XCTAssertEqual(user, grant.userID)
        }
        var iterator = relaunchedEvents.makeAsyncIterator()
        let event = await iterator.next()
        XCTAssertEqual(event, .signedOut(.userNoLongerValid(grant.userID)))
        XCTAssertEqual(try relaunched.status, [])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "the session file is erased")

        var firstEvents = events.makeAsyncIterator()
        let first = await firstEvents.next()
        XCTAssertEqual(first, .signedIn(userID: grant.userID))
    }

    func testSignOutErasesTheFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vital-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = core(store: try FileCredentialStore(directory: directory))
        try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 1)
        try await app.signOut()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
        XCTAssertEqual(try app.status, [])
        await XCTAssertThrowsErrorAsync(try await app.connectedProviders()) {
            XCTAssertEqual($0 as? VitalSessionError, .notSignedIn)
        }
    }

    // MARK: - Sign-in tokens

    func testAReusedSignInTokenFailsCleanly() async throws {
        let token = try await backend.signInToken(forClientUserID: "alice").signInToken
        try await core().signIn(token: token)
        let secondStore = InMemoryCredentialStore()
        do {
            try await core(store: secondStore).signIn(token: token)
            XCTFail("a used sign-in token was accepted")
        } catch VitalSessionError.invalidSignInToken(let problem) {
            XCTAssertEqual(problem, .rejectedByServer)
        }
        XCTAssertEqual(secondStore.keys, [], "nothing is stored")
    }

    func testAnExpiredSignInTokenIsRefusedByTheServer() async throws {
        let user = try await backend.signInToken(forClientUserID: "alice").userID
        let minted = try await emulator.control("vital/mint", ["user_id": user.uuidString.lowercased(), "ttl": -60])
        let token = try XCTUnwrap(minted["sign_in_token"] as? String)
        do {
            try await core().signIn(token: token)
            XCTFail("an expired sign-in token was accepted")
        } catch VitalSessionError.invalidSignInToken(let problem) {
            XCTAssertEqual(problem, .rejectedByServer, "the server, not the device clock, decides")
        }
        await XCTAssertEqualAsync(try await calls("token:urn:ietf:params:oauth:grant-type:token-exchange"), 1)
    }

    func testTheBackendFindsExistingUsers() async throws {
        let first = try await backend.signInToken(forClientUserID: "alice")
        let second = try await backend.signInToken(forClientUserID: "alice")
        XCTAssertEqual(first.userID, second.userID)
        XCTAssertEqual([first.createdUser, second.createdUser], [true, false])
        XCTAssertNotEqual(first.signInToken, second.signInToken)
        let wrongKey = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_wrong"), environment: .sandboxUS, hosts: hosts,
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)))
        await XCTAssertThrowsErrorAsync(try await wrongKey.signInToken(forClientUserID: "bob")) { error in
            XCTAssertEqual((error as? UnexpectedResponseError)?.status, 401)
            XCTAssertFalse("\(error)".contains("sk_us_wrong"), "the key is not in the message")
        }
        let strict = VitalBackend(configuration: .init(apiKey: Self.teamKey, environment: .sandboxUS, hosts: hosts))
        await XCTAssertThrowsErrorAsync(try await strict.signInToken(forClientUserID: "bob")) {
            XCTAssertEqual($0 as? ConfigurationError, .insecureURL(host: "127.0.0.1"))
        }
    }

    // MARK: - Refresh

    func testProactiveRefreshAndExpiresInAsAString() async throws {
        try await emulator.control("vital", ["access_ttl": 30, "expires_in_as_string": true])
        let app = core()
        try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
        _ = try await app.accessToken()
        await XCTAssertEqualAsync(try await refreshes(), 1, "30 s left is inside the 60 s skew")
    }

    func testRevokedSessionsWaitForReauthenticationAsTheSameUser() async throws {
        let app = core()
        try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
        try await emulator.control("vital/revoke-sessions")
        try await emulator.control("vital/expire-tokens")
        await XCTAssertThrowsErrorAsync(try await app.connectedProviders()) {
            guard case .needsReauthentication? = $0 as? VitalSessionError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try app.status, [.configured, .signedIn, .useSignInToken, .pendingReauthentication])
        await XCTAssertThrowsErrorAsync(try await app.connectedProviders())
        await XCTAssertEqualAsync(try await refreshes(), 1, "a pending session is not refreshed again")
        await XCTAssertThrowsErrorAsync(
            try await app.signIn(token: try await backend.signInToken(forClientUserID: "bob").signInToken)
        ) {
            guard case .alreadySignedIn? = $0 as? VitalSessionError else { return XCTFail("\($0)") }
        }
        await XCTAssertEqualAsync(
            try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken),
            .reauthenticated)
        await XCTAssertEqualAsync(try await app.connectedProviders().count, 1)
    }

    /// Every fault of the matrix on the refresh an expired access token needs; see ``FaultMatrix``. Faults that strike
    /// after the server rotated the refresh token are the lost response: the session is kept, and the next call
    /// learns that it needs re-authentication (never a sign-out).
    func testFaultMatrix() async throws {
        var app = core()
        try await FaultMatrix.run(
            family: "Vital", path: "/vital/auth/v1/token", emulator: emulator,
            expected: FaultMatrix.rotatingRefresh(afterLostRotation: "VitalSessionError.needsReauthentication"),
            scenario: .init(
                prepare: { skewed, transport in
                    self.store = InMemoryCredentialStore()
                    app = self.core(clock: skewed ? OffsetClock(offset: 600) : SystemClock(), transport: transport)
                    try await app.signIn(
                        token: try await self.backend.signInToken(forClientUserID: "alice").signInToken)
                    try await self.emulator.control("vital/expire-tokens")
                },
                credentials: { try self.store.read("vital.core") },
                call: { _ = try await app.connectedProviders() }
            )
        )
    }

    // MARK: - API-key mode and reconciliation

    func testMigrationFromAPIKeyMode() async throws {
        let user = try await backend.signInToken(forClientUserID: "alice").userID
        let app = core()
        try await app.configure(apiKey: Self.teamKey.value, environment: .sandbox, region: .us)
        try await app.setUserID(user)
        XCTAssertEqual(try app.status, [.configured, .signedIn, .useApiKey])
        await XCTAssertEqualAsync(try await app.connectedProviders().count, 1)

        let other = try await backend.signInToken(forClientUserID: "bob").signInToken
        await XCTAssertThrowsErrorAsync(try await app.signIn(token: other)) {
            XCTAssertEqual($0 as? VitalSessionError, .migrationMismatch(["user"]))
        }
        XCTAssertEqual(try app.status, [.configured, .signedIn, .useApiKey])

        await XCTAssertEqualAsync(
            try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken),
            .migratedFromAPIKey)
        XCTAssertEqual(try app.status, [.configured, .signedIn, .useSignInToken])
        XCTAssertEqual(try app.currentUserID, user)
        await XCTAssertEqualAsync(try await app.connectedProviders().count, 1)
    }

    func testReconcileSignsInAndOutOnlyOnADifference() async throws {
        let app = core()
        let requested = LockedValue<[String]>([])
        let backend = backend
        func provider(_ appUser: String) -> @Sendable () async throws -> String {
            {
                requested.withValue { $0.append(appUser) }
                return try await backend.signInToken(forClientUserID: appUser).signInToken
            }
        }
        await XCTAssertEqualAsync(
            try await app.reconcile(appUserID: nil, tokenProvider: provider("nobody")), .unchanged)
        await XCTAssertEqualAsync(
            try await app.reconcile(appUserID: "alice", tokenProvider: provider("alice")), .signedIn)
        let alice = try app.currentUserID
        await XCTAssertEqualAsync(
            try await app.reconcile(appUserID: "alice", tokenProvider: provider("alice")), .unchanged)
        await XCTAssertEqualAsync(try await app.reconcile(appUserID: "bob", tokenProvider: provider("bob")), .signedIn)
        XCTAssertNotEqual(try app.currentUserID, alice)
        await XCTAssertEqualAsync(
            try await app.reconcile(appUserID: nil, tokenProvider: provider("nobody")), .signedOut)
        XCTAssertEqual(try app.status, [])
        XCTAssertEqual(requested.current, ["alice", "bob"], "a token is requested only when the state differs")
    }
}
