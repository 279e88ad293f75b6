import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInVital

/// ``VitalSession`` against a scripted transport: the exact requests, the stored state after each outcome, and the
/// typed errors for every malformed response (fixtures in Tests/Fixtures/Vital/Malformed).
final class VitalSessionTests: XCTestCase {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)
    private static let userID = SignInTokenTests.userID
    private static let tokenBody = #"{"access_token": "at-1", "refresh_token": "rt-1", "expires_in": 3600}"#

    private var store: InMemoryCredentialStore!
    private var clock: ManualClock!

    override func setUp() {
        freshState()
    }

    private func freshState() {
        store = InMemoryCredentialStore()
        clock = ManualClock(Self.start)
    }

    private func core(_ transport: RecordingTransport, store: InMemoryCredentialStore? = nil) -> VitalSession {
        VitalSession(configuration: .init(store: store ?? self.store, transport: transport, clock: clock))
    }

    private static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    private static func fixture(_ status: Int, _ name: String) throws -> HTTPResponseMessage {
        let type = name.hasSuffix(".html") ? "text/html" : "application/json"
        return HTTPResponseMessage(
            status: status, headers: ["Content-Type": type], body: try Fixtures.data("Vital/Malformed/" + name))
    }

    /// A core signed in as the fixture user with access token at-1 and refresh token rt-1, and its transport, which
    /// answers later requests with `responses` in order.
    private func signedIn(then responses: [HTTPResponseMessage] = []) async throws -> (VitalSession, RecordingTransport)
    {
        let transport = RecordingTransport(responses: [Self.json(200, Self.tokenBody)] + responses)
        let core = core(transport)
        try await core.signIn(token: try SignInTokenTests.token("valid"))
        return (core, transport)
    }

    // MARK: - Signing in

    func testSignInExchangesTheInnerJWTAtTheTokensEnvironment() async throws {
        let raw = try SignInTokenTests.token("valid")
        let (core, transport) = try await signedIn()
        let jwt = try VitalSignInToken(raw).userToken
        XCTAssertEqual(
            HTTPText.render(transport.requests[0]),
            """
            POST https://auth.sandbox.us.junction.com/v1/token
            Accept: application/json
            Content-Type: application/x-www-form-urlencoded

            grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange&subject_token_type=urn%3Ajunction%3Asign-in-token&subject_token=\(jwt)

            """)
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useSignInToken])
        await XCTAssertEqualAsync(try await core.currentUserID, Self.userID)
        let stored = String(decoding: try await XCTUnwrapAsync(await store.read(core.storeKey)), as: UTF8.self)
        XCTAssertFalse(stored.contains(jwt), "the sign-in token is discarded")
        XCTAssertFalse(stored.contains("AIzaFixturePublicKey"), "the sign-in token is discarded")
        XCTAssertTrue(stored.contains("rt-1"))

        let production = RecordingTransport(responses: [Self.json(200, Self.tokenBody)])
        try await self.core(production, store: InMemoryCredentialStore()).signIn(
            token: try SignInTokenTests.token("valid-production-eu"))
        XCTAssertEqual(production.requests.first?.url.absoluteString, "https://auth.eu.junction.com/v1/token")
    }

    func testTheSameUserAgainIsANoOpAndAnotherUserIsRefused() async throws {
        let (core, transport) = try await signedIn()
        await XCTAssertEqualAsync(try await core.signIn(token: try SignInTokenTests.token("valid")), .alreadySignedIn)
        XCTAssertEqual(transport.requests.count, 1, "the token is not exchanged again")
        let other = try Self.forgedToken(uid: "11111111-2222-4333-8444-555555555555")
        do {
            try await core.signIn(token: other)
            XCTFail("expected alreadySignedIn")
        } catch VitalSessionError.alreadySignedIn(let current) {
            XCTAssertEqual(current, Self.userID)
        }
    }

    func testASignInTokenPastItsExpByTheDeviceClockIsLeftToTheServer() async throws {
        // A device clock that runs fast must not refuse a token the server still accepts.
        clock.set(Date(timeIntervalSince1970: 1_790_003_600))
        let accepted = RecordingTransport(responses: [Self.json(200, Self.tokenBody)])
        await XCTAssertEqualAsync(
            try await core(accepted).signIn(token: try SignInTokenTests.token("expired")), .signedIn)
        XCTAssertEqual(accepted.requests.count, 1)
        let refused = RecordingTransport(responses: [try Self.fixture(401, "token-error-minimal.json")])
        await XCTAssertThrowsErrorAsync(
            try await core(refused, store: InMemoryCredentialStore()).signIn(
                token: try SignInTokenTests.token("expired"))
        ) {
            XCTAssertEqual($0 as? VitalSessionError, .invalidSignInToken(.rejectedByServer), "the server decides")
        }
    }

    func testTheSameUserIDInAnotherTeamIsAnotherAccount() async throws {
        let (core, transport) = try await signedIn()
        do {
            try await core.signIn(
                token: try Self.forgedToken(uid: Self.userID.uuidString.lowercased(), team: "other-team"))
            XCTFail("expected alreadySignedIn")
        } catch VitalSessionError.alreadySignedIn(let current) {
            XCTAssertEqual(current, Self.userID)
        }
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testPinnedEnvironmentAndTeamRefuseOtherTokensBeforeAnyRequest() async throws {
        let cases: [(VitalEnvironment?, String?, [String])] = [
            (.productionEU, nil, ["environment"]),
            (nil, "another-team", ["team"]),
            (.productionUS, "another-team", ["environment", "team"]),
        ]
        for (environment, team, unexpected) in cases {
            let transport = RecordingTransport(responses: [])
            let core = VitalSession(
                configuration: .init(
                    store: InMemoryCredentialStore(), transport: transport, clock: clock,
                    expectedEnvironment: environment,
                    expectedTeamID: team))
            await XCTAssertThrowsErrorAsync(try await core.signIn(token: try SignInTokenTests.token("valid"))) {
                XCTAssertEqual($0 as? VitalSessionError, .unexpectedSignInToken(unexpected))
            }
            XCTAssertEqual(transport.requests.count, 0)
        }
        let transport = RecordingTransport(responses: [Self.json(200, Self.tokenBody)])
        let pinned = VitalSession(
            configuration: .init(
                store: InMemoryCredentialStore(), transport: transport, clock: clock, expectedEnvironment: .sandboxUS,
                expectedTeamID: "8f1d5f5e-3c1a-4f5e-9a57-2b4f6c7d8e90"))
        await XCTAssertEqualAsync(try await pinned.signIn(token: try SignInTokenTests.token("valid")), .signedIn)
    }

    func testExchangeErrorBodiesOfEveryShape() async throws {
        let cases: [(String, Int, (any Error) -> Bool)] = [
            ("token-error-minimal.json", 401, { ($0 as? VitalSessionError) == .invalidSignInToken(.rejectedByServer) }),
            (
                "token-error-extra-keys.json", 401,
                { ($0 as? VitalSessionError) == .invalidSignInToken(.rejectedByServer) }
            ),
            ("token-error-reauthentication.json", 400, { ($0 as? VitalError)?.code == .reauthenticationRequired }),
            (
                "token-error-unknown-type.json", 503,
                { ($0 as? VitalError)?.code == .unknown("temporarily_unavailable") }
            ),
            ("token-error-detail-string.json", 500, { ($0 as? UnexpectedResponseError)?.status == 500 }),
            ("token-error-empty-object.json", 400, { ($0 as? UnexpectedResponseError)?.status == 400 }),
            ("token-error-without-type.json", 400, { ($0 as? UnexpectedResponseError)?.status == 400 }),
            ("token-error-html.html", 502, { ($0 as? UnexpectedResponseError)?.response.mediaType == "text/html" }),
            ("token-missing-access-token.json", 200, { $0 is ResponseDecodingError }),
            ("token-missing-refresh-token.json", 200, { $0 is ResponseDecodingError }),
            ("token-expires-in-absent.json", 200, { $0 is ResponseDecodingError }),
            ("token-expires-in-garbage.json", 200, { $0 is ResponseDecodingError }),
            ("token-truncated.json", 200, { $0 is ResponseDecodingError }),
            (
                "token-expires-in-negative.json", 200,
                { ($0 as? VitalSessionError) == .malformedTokenResponse("expires_in is negative") }
            ),
            (
                "token-empty-access-token.json", 200,
                { ($0 as? VitalSessionError) == .malformedTokenResponse("access_token is empty") }
            ),
        ]
        let raw = try SignInTokenTests.token("valid")
        for (fixture, status, isExpected) in cases {
            let store = InMemoryCredentialStore()
            do {
                try await core(RecordingTransport(responses: [try Self.fixture(status, fixture)]), store: store).signIn(
                    token: raw)
                XCTFail("\(fixture) was accepted")
            } catch {
                XCTAssertTrue(isExpected(error), "\(fixture): \(type(of: error)) \(error)")
                SignInTokenTests.assertDoesNotLeak(raw, in: "\(error)", fixture)
            }
            XCTAssertEqual(store.keys, [], "\(fixture): nothing is stored after a failed sign-in")
        }
    }

    // MARK: - Refresh

    func testProactiveRefreshWithinTheSkewStoresTheNewPairFirst() async throws {
        let (core, transport) = try await signedIn(then: [
            Self.json(200, #"{"access_token": "at-2", "refresh_token": "rt-2", "expires_in": "3600"}"#)
        ])
        clock.advance(by: 3600 - 61)
        await XCTAssertEqualAsync(try await core.accessToken().value, "at-1", "61 s left is outside the 60 s skew")
        clock.advance(by: 2)
        await XCTAssertEqualAsync(try await core.accessToken().value, "at-2")
        XCTAssertEqual(
            HTTPText.render(transport.requests[1]),
            """
            POST https://auth.sandbox.us.junction.com/v1/token
            Accept: application/json
            Content-Type: application/x-www-form-urlencoded

            grant_type=refresh_token&refresh_token=rt-1

            """)
        let stored = String(decoding: try await XCTUnwrapAsync(await store.read(core.storeKey)), as: UTF8.self)
        XCTAssertTrue(
            stored.contains("rt-2") && !stored.contains("rt-1"), "the rotated refresh token replaces the old one")
    }

    func testA401IsRefreshedOnceAndReplayedOnce() async throws {
        let providers = #"{"providers": [{"name": "Oura", "slug": "oura", "status": "connected"}]}"#
        let (core, transport) = try await signedIn(then: [
            Self.json(401, #"{"detail": {"error_type": "invalid_token"}}"#),
            Self.json(200, #"{"access_token": "at-2", "refresh_token": "rt-2", "expires_in": 3600}"#),
            Self.json(200, providers),
        ])
        let connected = try await core.connectedProviders()
        XCTAssertEqual(connected.map(\.slug), ["oura"])
        let sent = transport.requests.map { "\($0.method) \($0.url.path) \($0.headers["Authorization"] ?? "-")" }
        XCTAssertEqual(
            sent,
            [
                "POST /v1/token -",
                "GET /v2/user/providers/4d7a3b52-8e4b-4c4f-9f0a-0b4a1c2d3e4f Bearer at-1",
                "POST /v1/token -",
                "GET /v2/user/providers/4d7a3b52-8e4b-4c4f-9f0a-0b4a1c2d3e4f Bearer at-2",
            ])
    }

    func testASecond401IsNotRefreshedAgain() async throws {
        let (core, transport) = try await signedIn(then: [
            Self.json(401, #"{"detail": {"error_type": "invalid_token"}}"#),
            Self.json(200, #"{"access_token": "at-2", "refresh_token": "rt-2", "expires_in": 3600}"#),
            HTTPResponseMessage(status: 401),
        ])
        do {
            _ = try await core.connectedProviders()
            XCTFail("expected the replay's 401")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.status, 401)
        }
        XCTAssertEqual(transport.requests.count, 4, "one refresh, one replay")
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useSignInToken])
    }

    func testRefreshOutcomes() async throws {
        let cases: [(String, Int, VitalStatus?, (any Error) -> Bool)] = [
            (
                "token-error-minimal.json", 401, [],
                { ($0 as? VitalSessionError) == .userNoLongerValid(userID: Self.userID) }
            ),
            (
                "token-error-extra-keys.json", 400, [],
                { ($0 as? VitalSessionError) == .userNoLongerValid(userID: Self.userID) }
            ),
            (
                "token-error-reauthentication.json", 400,
                [.configured, .signedIn, .useSignInToken, .pendingReauthentication],
                { ($0 as? VitalSessionError) == .needsReauthentication(userID: Self.userID) }
            ),
            ("token-error-unknown-type.json", 503, nil, { ($0 as? VitalError)?.httpStatus == 503 }),
            ("token-error-detail-string.json", 500, nil, { ($0 as? UnexpectedResponseError)?.status == 500 }),
            ("token-error-empty-object.json", 400, nil, { ($0 as? UnexpectedResponseError)?.status == 400 }),
            ("token-error-html.html", 502, nil, { ($0 as? UnexpectedResponseError)?.status == 502 }),
            ("token-missing-access-token.json", 200, nil, { $0 is ResponseDecodingError }),
            ("token-expires-in-garbage.json", 200, nil, { $0 is ResponseDecodingError }),
            ("token-truncated.json", 200, nil, { $0 is ResponseDecodingError }),
            (
                "token-expires-in-negative.json", 200, nil,
                { ($0 as? VitalSessionError) == .malformedTokenResponse("expires_in is negative") }
            ),
        ]
        for (fixture, status, after, isExpected) in cases {
            freshState()
            let (core, _) = try await signedIn(then: [try Self.fixture(status, fixture)])
            let before = try await store.read(core.storeKey)
            clock.advance(by: 3600)
            do {
                _ = try await core.accessToken()
                XCTFail("\(fixture) was accepted")
            } catch {
                XCTAssertTrue(isExpected(error), "\(fixture): \(type(of: error)) \(error)")
            }
            if let after {
                await XCTAssertEqualAsync(try await core.status, after, fixture)
            } else {
                await XCTAssertEqualAsync(
                    try await store.read(core.storeKey), before, "\(fixture): the session is kept byte for byte")
            }
        }
    }

    func testPendingReauthenticationMakesNoRequestsUntilTheSameUserSignsIn() async throws {
        let (core, transport) = try await signedIn(then: [
            try Self.fixture(400, "token-error-reauthentication.json"),
            Self.json(200, #"{"access_token": "at-3", "refresh_token": "rt-3", "expires_in": 3600}"#),
        ])
        let events = core.events()
        clock.advance(by: 3600)
        await XCTAssertThrowsErrorAsync(try await core.accessToken())
        await XCTAssertThrowsErrorAsync(try await core.accessToken())
        XCTAssertEqual(transport.requests.count, 2, "a pending session is not refreshed again")
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        XCTAssertEqual(event, .reauthenticationRequired(userID: Self.userID))
        do {
            try await core.signIn(token: try Self.forgedToken(uid: "11111111-2222-4333-8444-555555555555"))
            XCTFail("another user cannot take over a pending session")
        } catch VitalSessionError.alreadySignedIn {}
        await XCTAssertEqualAsync(try await core.signIn(token: try SignInTokenTests.token("valid")), .reauthenticated)
        await XCTAssertEqualAsync(try await core.accessToken().value, "at-3")
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useSignInToken])
    }

    func testAutomaticSignOutIsReported() async throws {
        let (core, _) = try await signedIn(then: [try Self.fixture(401, "token-error-minimal.json")])
        let events = core.events()
        clock.advance(by: 3600)
        do {
            _ = try await core.connectedProviders()
            XCTFail("expected the user to be gone")
        } catch VitalSessionError.userNoLongerValid(let user) {
            XCTAssertEqual(user, Self.userID)
        }
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        XCTAssertEqual(event, .signedOut(.userNoLongerValid(Self.userID)))
        XCTAssertEqual(store.keys, [], "the session is erased")
        await XCTAssertThrowsErrorAsync(try await core.accessToken()) {
            XCTAssertEqual($0 as? VitalSessionError, .notSignedIn)
        }
    }

    // MARK: - Status and storage

    func testStatusIsReadFromTheStoreWithoutNetwork() async throws {
        _ = try await signedIn()
        let offline = core(
            RecordingTransport { _ in throw TransportError(.cannotConnect, url: nil, detail: "offline") })
        await XCTAssertEqualAsync(try await offline.status, [.configured, .signedIn, .useSignInToken])
        await XCTAssertEqualAsync(try await offline.currentUserID, Self.userID)
        await XCTAssertEqualAsync(
            try await core(RecordingTransport(responses: []), store: InMemoryCredentialStore()).status, [])
    }

    func testAStoreThatCannotBeReadIsAnErrorNotSignedOut() async throws {
        let core = VitalSession(
            configuration: .init(store: LockedStore(), transport: RecordingTransport(responses: []), clock: clock))
        let locked = CredentialStoreError.systemError(key: core.storeKey, operation: "read", code: LockedStore.code)
        await XCTAssertThrowsErrorAsync(try await core.status) { XCTAssertEqual($0 as? CredentialStoreError, locked) }
        await XCTAssertThrowsErrorAsync(try await core.connectedProviders()) {
            XCTAssertEqual($0 as? CredentialStoreError, locked)
        }
        await XCTAssertThrowsErrorAsync(try await core.signOut()) {
            XCTAssertEqual($0 as? CredentialStoreError, locked)
        }
    }

    func testSignOutErasesEverything() async throws {
        let (core, transport) = try await signedIn()
        try await core.signOut()
        XCTAssertEqual(store.keys, [])
        await XCTAssertEqualAsync(try await core.status, [])
        XCTAssertEqual(transport.requests.count, 1, "signing out makes no server call")
    }

    func testStatusDescriptions() {
        XCTAssertEqual(
            VitalStatus([.configured, .signedIn, .useApiKey]).description, "[configured, signedIn, useApiKey]")
        XCTAssertEqual(VitalStatus.pendingReauthentication.rawValue, 16)
        XCTAssertEqual(VitalStatus([]).description, "[]")
    }

    // MARK: - API-key mode

    func testAPIKeyModeSendsTheKeyAndMigratesToASignInToken() async throws {
        let providers = #"{"providers": []}"#
        let transport = RecordingTransport(responses: [
            Self.json(200, providers), Self.json(200, Self.tokenBody), Self.json(200, providers),
        ])
        let core = core(transport)
        try await core.configure(apiKey: "sk_us_secret", environment: .sandbox, region: .us)
        await XCTAssertEqualAsync(try await core.status, .configured)
        await XCTAssertThrowsErrorAsync(try await core.connectedProviders()) {
            XCTAssertEqual($0 as? VitalSessionError, .notSignedIn)
        }
        try await core.setUserID(Self.userID)
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useApiKey])
        _ = try await core.connectedProviders()
        XCTAssertEqual(transport.requests[0].headers["x-vital-api-key"], "sk_us_secret")
        XCTAssertNil(transport.requests[0].headers["Authorization"])
        await XCTAssertThrowsErrorAsync(try await core.accessToken()) {
            XCTAssertEqual($0 as? VitalSessionError, .wrongMode([.configured, .signedIn, .useApiKey]))
        }

        await XCTAssertEqualAsync(
            try await core.signIn(token: try SignInTokenTests.token("valid")), .migratedFromAPIKey)
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useSignInToken])
        await XCTAssertEqualAsync(try await core.currentUserID, Self.userID)
        _ = try await core.connectedProviders()
        XCTAssertEqual(transport.requests[2].headers["Authorization"], "Bearer at-1")
        XCTAssertNil(transport.requests[2].headers["x-vital-api-key"])
        await XCTAssertFalseAsync(
            String(decoding: try await XCTUnwrapAsync(await store.read(core.storeKey)), as: UTF8.self).contains(
                "sk_us_secret"),
            "the key is gone")
        await XCTAssertThrowsErrorAsync(try await core.setUserID(Self.userID)) {
            XCTAssertEqual($0 as? VitalSessionError, .wrongMode([.configured, .signedIn, .useSignInToken]))
        }
    }

    func testMigrationNeedsTheSameUserAndEnvironment() async throws {
        let cases: [(VitalEnvironment.Region, UUID, [String])] = [
            (.us, UUID(uuidString: "11111111-2222-4333-8444-555555555555")!, ["user"]),
            (.eu, Self.userID, ["environment"]),
            (.eu, UUID(uuidString: "11111111-2222-4333-8444-555555555555")!, ["user", "environment"]),
        ]
        for (region, user, differing) in cases {
            let transport = RecordingTransport(responses: [])
            let core = core(transport, store: InMemoryCredentialStore())
            try await core.configure(apiKey: "sk_key", environment: .sandbox, region: region)
            try await core.setUserID(user)
            await XCTAssertThrowsErrorAsync(try await core.signIn(token: try SignInTokenTests.token("valid"))) {
                XCTAssertEqual($0 as? VitalSessionError, .migrationMismatch(differing))
            }
            await XCTAssertEqualAsync(
                try await core.status, [.configured, .signedIn, .useApiKey], "API-key mode is kept")
            XCTAssertEqual(transport.requests.count, 0)
        }
    }

    func testAPIKeyModeWithoutAUserMigratesToAnyToken() async throws {
        let transport = RecordingTransport(responses: [Self.json(200, Self.tokenBody)])
        let core = core(transport)
        try await core.configure(apiKey: "sk_key", environment: .sandbox, region: .eu)
        await XCTAssertEqualAsync(
            try await core.signIn(token: try SignInTokenTests.token("valid")), .migratedFromAPIKey)
        await XCTAssertEqualAsync(try await core.status, [.configured, .signedIn, .useSignInToken])
    }

    func testAProductionAPIKeyIsRefusedUnlessAllowed() async throws {
        await XCTAssertThrowsErrorAsync(
            try await core(RecordingTransport(responses: [])).configure(
                apiKey: "pk_us_key", environment: .production, region: .us)
        ) {
            XCTAssertEqual($0 as? VitalSessionError, .productionAPIKeyRefused)
        }
        XCTAssertEqual(store.keys, [], "nothing stored")
        let allowed = VitalSession(
            configuration: .init(
                store: InMemoryCredentialStore(), transport: RecordingTransport(responses: []),
                allowsProductionAPIKey: true))
        try await allowed.configure(apiKey: "pk_us_key", environment: .production, region: .us)
        await XCTAssertEqualAsync(try await allowed.status, .configured)
    }

    func testSetUserIDNeedsAConfiguration() async throws {
        await XCTAssertThrowsErrorAsync(try await core(RecordingTransport(responses: [])).setUserID(Self.userID)) {
            XCTAssertEqual($0 as? VitalSessionError, .notConfigured)
        }
    }

    // MARK: - Helpers

    /// A sign-in token like the fixture's, for another user.
    static func forgedToken(uid: String, team: String? = nil) throws -> String {
        let raw = try SignInTokenTests.token("valid")
        let envelope = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: try XCTUnwrap(Base64URL.decode(raw))) as? [String: String])
        let segments = try XCTUnwrap(envelope["user_token"]).split(separator: ".").map(String.init)
        var claims = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: try XCTUnwrap(Base64URL.decode(segments[1]))) as? [String: Any])
        claims["uid"] = uid
        if let team { claims["claims"] = ["vital_team_id": team] }
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let jwt = [segments[0], payload, segments[2]].joined(separator: ".")
        let outer = try JSONSerialization.data(
            withJSONObject: ["public_key": "AIza", "user_token": jwt], options: [.sortedKeys])
        return outer.base64EncodedString()
    }
}
