import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Vital sign-in against the emulator over 127.0.0.1 (the real transport) and against the test kit's in-process
/// Junction server: the backend mints tokens with the team key, the app signs in, calls the data API, refreshes, and
/// signs out.
final class VitalIntegrationTests: EachServerTestCase {
    private var server: VitalServerUnderTest!
    private var store: InMemoryCredentialStore!

    /// Runs `body` against the emulator and the in-process server, each fresh, with an empty store.
    private func journey(_ body: () async throws -> Void) async throws {
        try await onEachServer { kind in
            server = try await VitalServerUnderTest(kind)
            store = InMemoryCredentialStore()
            try await body()
        }
    }

    private var hosts: VitalHostMap { server.hosts }

    private var backend: VitalBackend {
        VitalBackend(
            configuration: .init(
                apiKey: server.teamKey, environment: .sandboxUS, hosts: hosts, urlPolicy: server.urlPolicy,
                transport: server.transport()
            ))
    }

    private func core(
        store: (any CredentialStore)? = nil, timeout: TimeInterval = 5, clock: any TimeSource = SystemClock(),
        transport: (any HTTPTransport)? = nil
    ) -> VitalSession {
        VitalSession(
            configuration: .init(
                store: store ?? self.store, hosts: hosts, urlPolicy: server.urlPolicy,
                transport: transport ?? server.transport(timeout: timeout), clock: clock
            ))
    }

    private func calls(_ name: VitalTestServer.Operation) async throws -> Int { try await server.calls(name) }

    private func refreshes() async throws -> Int { try await calls(.refreshToken) }

    // MARK: - The journey

    func testFromBackendTokenToSignOut() async throws {
        try await journey {
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
            await XCTAssertEqualAsync(try await relaunched.status, [.configured, .signedIn, .useSignInToken])
            await XCTAssertEqualAsync(try await relaunched.currentUserID, grant.userID)
            await XCTAssertEqualAsync(try await calls(.exchangeSignInToken), 1)

            // Expiry under load: a hundred concurrent calls, one refresh.
            try await server.expireTokens()
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
            await XCTAssertEqualAsync(try await relaunched.status, [])
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "the session file is erased")

            var firstEvents = events.makeAsyncIterator()
            let first = await firstEvents.next()
            XCTAssertEqual(first, .signedIn(userID: grant.userID))
        }
    }

    func testSignOutErasesTheFile() async throws {
        try await journey {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vital-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let app = core(store: try FileCredentialStore(directory: directory))
            try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 1)
            try await app.signOut()
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
            await XCTAssertEqualAsync(try await app.status, [])
            await XCTAssertThrowsErrorAsync(try await app.connectedProviders()) {
                XCTAssertEqual($0 as? VitalSessionError, .notSignedIn)
            }
        }
    }

    // MARK: - Sign-in tokens

    func testAReusedSignInTokenFailsCleanly() async throws {
        try await journey {
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
    }

    func testAnExpiredSignInTokenIsRefusedByTheServer() async throws {
        try await journey {
            let user = try await backend.signInToken(forClientUserID: "alice").userID
            let token = try await server.mint(user: user, ttl: -60)
            do {
                try await core().signIn(token: token)
                XCTFail("an expired sign-in token was accepted")
            } catch VitalSessionError.invalidSignInToken(let problem) {
                XCTAssertEqual(problem, .rejectedByServer, "the server, not the device clock, decides")
            }
            await XCTAssertEqualAsync(try await calls(.exchangeSignInToken), 1)
        }
    }

    func testTheBackendFindsExistingUsers() async throws {
        try await journey {
            let first = try await backend.signInToken(forClientUserID: "alice")
            let second = try await backend.signInToken(forClientUserID: "alice")
            XCTAssertEqual(first.userID, second.userID)
            XCTAssertEqual([first.createdUser, second.createdUser], [true, false])
            XCTAssertNotEqual(first.signInToken, second.signInToken)
            let wrongKey = VitalBackend(
                configuration: .init(
                    apiKey: APIKey("sk_us_wrong"), environment: .sandboxUS, hosts: hosts, urlPolicy: server.urlPolicy,
                    transport: server.transport()))
            await XCTAssertThrowsErrorAsync(try await wrongKey.signInToken(forClientUserID: "bob")) { error in
                XCTAssertEqual((error as? UnexpectedResponseError)?.status, 401)
                XCTAssertFalse("\(error)".contains("sk_us_wrong"), "the key is not in the message")
            }
            // Plain http is refused without the loopback policy (the in-process server is https).
            if server.kind == .emulator {
                let strict = VitalBackend(
                    configuration: .init(apiKey: server.teamKey, environment: .sandboxUS, hosts: hosts))
                await XCTAssertThrowsErrorAsync(try await strict.signInToken(forClientUserID: "bob")) {
                    XCTAssertEqual($0 as? ConfigurationError, .insecureURL(host: "127.0.0.1"))
                }
            }
        }
    }

    func testAKnownUserCostsOneCallPerMintAcrossInstancesSharingTheStore() async throws {
        try await journey {
            let shared = InMemoryCredentialStore()
            func instance() -> VitalBackend {
                VitalBackend(
                    configuration: .init(
                        apiKey: server.teamKey, environment: .sandboxUS, hosts: hosts, store: shared,
                        options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy)))
            }
            let first = try await instance().signInToken(forClientUserID: "alice")
            XCTAssertTrue(first.createdUser)
            let other = instance()
            for _ in 0..<99 {
                let grant = try await other.signInToken(forClientUserID: "alice")
                XCTAssertEqual(grant.userID, first.userID)
                XCTAssertFalse(grant.createdUser)
            }
            await XCTAssertEqualAsync(try await calls(.createUser), 1)
            await XCTAssertEqualAsync(try await calls(.createSignInToken), 100)
            // The kept id is the store's, under a digest: neither the client user id nor the team key is in clear.
            let keys = shared.keys
            XCTAssertEqual(keys.count, 1)
            XCTAssertTrue(keys.allSatisfy { $0.hasPrefix("vital.user.") && !$0.contains("alice") })

            // A user deleted since is forgotten and made again: one refused mint, then the usual two calls.
            try await other.deleteUser(first.userID)
            let again = try await instance().signInToken(forClientUserID: "alice")
            XCTAssertTrue(again.createdUser)
            XCTAssertNotEqual(again.userID, first.userID)
            await XCTAssertEqualAsync(try await calls(.createUser), 2)
            await XCTAssertEqualAsync(try await calls(.createSignInToken), 102)
            let next = try await other.signInToken(forClientUserID: "alice")
            XCTAssertEqual(next.userID, again.userID)
            await XCTAssertEqualAsync(try await calls(.createUser), 2)
        }
    }

    func testClientUserIDsJunctionCouldNotTakeAreRefusedBeforeAnythingIsSent() async throws {
        try await journey {
            let refused: [(String, VitalClientUserIDError.Rule)] = [
                ("../../admin?x=1", .character), (String(repeating: "a", count: 5_000), .tooLong),
                (String(repeating: "a", count: 256), .tooLong), ("", .empty), ("..", .dotSegment), (".", .dotSegment),
                ("a b", .character), ("ad%2Fmin", .character), ("a#b", .character), (#"a\b"#, .character),
                ("zoë", .character), ("a\u{0}b", .character), ("line\nbreak", .character),
            ]
            for (id, rule) in refused {
                await XCTAssertThrowsErrorAsync(try await backend.signInToken(forClientUserID: id)) { error in
                    XCTAssertEqual(error as? VitalClientUserIDError, VitalClientUserIDError(rule: rule), id)
                    XCTAssertEqual((error as? VitalClientUserIDError)?.recovery, .fixRequest)
                    XCTAssertFalse("\(error)".contains("admin"), "the id is not printed")
                }
                await XCTAssertThrowsErrorAsync(try await backend.user(forClientUserID: id)) {
                    XCTAssertEqual($0 as? VitalClientUserIDError, VitalClientUserIDError(rule: rule), id)
                }
            }
            await XCTAssertEqualAsync(try await calls(.createUser), 0)
            for id in [
                "user@example.com", "auth0|5f7c8ec7", "0b9c4f3e-3c8a-4c55-9d5b-6a8e2f1d7c11", "42",
                String(repeating: "a", count: 255), "a.b", "...",
            ] {
                _ = try await backend.signInToken(forClientUserID: id)
            }
            await XCTAssertEqualAsync(try await calls(.createUser), 7)
        }
    }

    // MARK: - Refresh

    func testProactiveRefreshAndExpiresInAsAString() async throws {
        try await journey {
            try await server.configure(["access_ttl": 30, "expires_in_as_string": true])
            let app = core()
            try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
            _ = try await app.accessToken()
            await XCTAssertEqualAsync(try await refreshes(), 1, "30 s left is inside the 60 s skew")
        }
    }

    func testRevokedSessionsWaitForReauthenticationAsTheSameUser() async throws {
        try await journey {
            let app = core()
            try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
            try await server.revokeSessions()
            try await server.expireTokens()
            await XCTAssertThrowsErrorAsync(try await app.connectedProviders()) {
                guard case .needsReauthentication? = $0 as? VitalSessionError else { return XCTFail("\($0)") }
            }
            await XCTAssertEqualAsync(
                try await app.status, [.configured, .signedIn, .useSignInToken, .pendingReauthentication])
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
    }

    /// Every fault of the matrix on the refresh an expired access token needs; see ``FaultMatrix``. Faults that strike
    /// after the server rotated the refresh token are the lost response: the session is kept, and the next call
    /// learns that it needs re-authentication (never a sign-out).
    func testFaultMatrix() async throws {
        try await journey {
            var app = core()
            try await FaultMatrix.run(
                family: "Vital", endpoint: server.tokenURL, server: server,
                expected: FaultMatrix.rotatingRefresh(afterLostRotation: "VitalSessionError.needsReauthentication"),
                scenario: .init(
                    prepare: { skewed, transport in
                        self.store = InMemoryCredentialStore()
                        app = self.core(clock: skewed ? OffsetClock(offset: 600) : SystemClock(), transport: transport)
                        try await app.signIn(
                            token: try await self.backend.signInToken(forClientUserID: "alice").signInToken)
                        try await self.server.expireTokens()
                    },
                    credentials: { try await self.store.read(app.storeKey) },
                    call: { _ = try await app.connectedProviders() }
                )
            )
        }
    }

    // MARK: - API-key mode and reconciliation

    func testMigrationFromAPIKeyMode() async throws {
        try await journey {
            let user = try await backend.signInToken(forClientUserID: "alice").userID
            let app = core()
            try await app.configure(apiKey: server.teamKey.value, environment: .sandbox, region: .us)
            try await app.setUserID(user)
            await XCTAssertEqualAsync(try await app.status, [.configured, .signedIn, .useApiKey])
            await XCTAssertEqualAsync(try await app.connectedProviders().count, 1)

            let other = try await backend.signInToken(forClientUserID: "bob").signInToken
            await XCTAssertThrowsErrorAsync(try await app.signIn(token: other)) {
                XCTAssertEqual($0 as? VitalSessionError, .migrationMismatch(["user"]))
            }
            await XCTAssertEqualAsync(try await app.status, [.configured, .signedIn, .useApiKey])

            await XCTAssertEqualAsync(
                try await app.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken),
                .migratedFromAPIKey)
            await XCTAssertEqualAsync(try await app.status, [.configured, .signedIn, .useSignInToken])
            await XCTAssertEqualAsync(try await app.currentUserID, user)
            await XCTAssertEqualAsync(try await app.connectedProviders().count, 1)
        }
    }

    func testReconcileSignsInAndOutOnlyOnADifference() async throws {
        try await journey {
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
            let alice = try await app.currentUserID
            await XCTAssertEqualAsync(
                try await app.reconcile(appUserID: "alice", tokenProvider: provider("alice")), .unchanged)
            await XCTAssertEqualAsync(
                try await app.reconcile(appUserID: "bob", tokenProvider: provider("bob")), .signedIn)
            let bob = try await app.currentUserID
            XCTAssertNotEqual(bob, alice)
            await XCTAssertEqualAsync(
                try await app.reconcile(appUserID: nil, tokenProvider: provider("nobody")), .signedOut)
            await XCTAssertEqualAsync(try await app.status, [])
            XCTAssertEqual(requested.current, ["alice", "bob"], "a token is requested only when the state differs")
        }
    }
}
