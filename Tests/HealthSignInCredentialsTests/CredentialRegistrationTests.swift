import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// A credential goes only where it was issued: keys derived from the registration, the registration stored with the
/// credential and checked before it is used, a configured key held by another registration left alone, and a state an
/// earlier version stored moved to its derived key.
final class CredentialRegistrationTests: XCTestCase {
    struct Token: Codable, Sendable, Equatable {
        var number: Int
        var expiresAt: Date
    }

    struct NotSignedIn: Error {}

    /// A service-like policy: the token is obtained on first use from `server` (through `transport`), and stored
    /// with `registration`.
    struct Policy: CredentialPolicy {
        let registration: CredentialRegistration
        let claimsEarlierStates: Bool
        let transport: any HTTPTransport
        let server: @Sendable () -> Token

        func initialState() -> Token? { Token(number: 0, expiresAt: .distantPast) }
        func credential(in state: Token) -> Token? { state }
        func state(_ state: Token, replacing credential: Token) -> Token { credential }
        func missingCredentialError(in state: Token?) -> any Error { NotSignedIn() }
        func needsRefresh(_ token: Token, at now: Date) -> Bool { token.expiresAt <= now }
        func refresh(_ token: Token, lease: CredentialLease) async throws -> Token {
            _ = try await transport.send(HTTPRequestMessage(method: .post, url: URL(string: registration.server)!))
            return server()
        }
        func registration(of state: Token) -> CredentialRegistration? { registration }
        func accepts(_ registration: CredentialRegistration) -> Bool { registration == self.registration }
        func claimsUnrecorded(_ state: Token) -> Bool { claimsEarlierStates }
    }

    private static let serverA = CredentialRegistration(family: "Test", server: "https://a.test", client: "app")
    private static let serverB = CredentialRegistration(family: "Test", server: "https://b.test", client: "app")

    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    private var store: any CredentialStore = InMemoryCredentialStore()
    private let issued = LockedValue(0)

    private func session(
        for registration: CredentialRegistration, key: String? = nil, claims: Bool = true,
        transport: any HTTPTransport = RecordingTransport { _ in HTTPResponseMessage(status: 200) }
    ) -> CredentialSession<Policy> {
        let (clock, issued) = (clock, issued)
        return CredentialSession(
            store: store,
            key: CredentialKey(configured: key, prefix: "test.token", registrations: [registration]),
            policy: Policy(registration: registration, claimsEarlierStates: claims, transport: transport) {
                let number = issued.withValue { count -> Int in
                    count += 1
                    return count
                }
                return Token(number: number, expiresAt: clock.now().addingTimeInterval(60))
            },
            clock: clock, category: "Test")
    }

    // MARK: - Keys

    /// The derivation is a format: the same registrations give the same key in any order, with any version. The
    /// expected keys were computed from the documented format by a separate implementation (Python's hashlib).
    func testTheDerivedKeyIsTheDocumentedDigestOfTheRegistrations() {
        let service = CredentialRegistration(
            family: "SMART", server: "https://ehr-a.test/fhir", client: "smart-backend", scope: "system/*.rs")
        XCTAssertEqual(
            CredentialKey.derivedKey(prefix: "smart.service", registrations: [service]),
            "smart.service.bcb5b86d42087be22bca8bccdc9bb92b")
        let two = ["https://ehr-a.test/fhir", "https://ehr-b.test/fhir"].map {
            CredentialRegistration(family: "SMART", server: $0, client: "app")
        }
        XCTAssertEqual(
            CredentialKey.derivedKey(prefix: "smart.session", registrations: two),
            "smart.session.4df3acd52bc48f33c0b1cc3eb869204b")
        XCTAssertEqual(
            CredentialKey.derivedKey(prefix: "smart.session", registrations: two.reversed()),
            "smart.session.4df3acd52bc48f33c0b1cc3eb869204b")
        var noScope = service
        noScope.scope = nil
        var emptyScope = service
        emptyScope.scope = ""
        let keys = [service, noScope, emptyScope].map { CredentialKey.derivedKey(prefix: "p", registrations: [$0]) }
        XCTAssertEqual(Set(keys).count, 3, "no scope, an empty scope and a scope are three registrations")
        // Fields with their lengths in front: moving a character from one field to the next makes another key.
        XCTAssertNotEqual(
            CredentialKey.derivedKey(
                prefix: "p", registrations: [CredentialRegistration(family: "T", server: "ab", client: "c")]),
            CredentialKey.derivedKey(
                prefix: "p", registrations: [CredentialRegistration(family: "T", server: "a", client: "bc")]))
        // Two spellings of one name that Swift's strings call equal are two servers in bytes, and hashed as such.
        let spellings = ["https://\u{E9}.test", "https://e\u{301}.test"].map {
            CredentialRegistration(family: "T", server: $0)
        }
        XCTAssertEqual(
            CredentialKey.derivedKey(prefix: "p", registrations: spellings), "p.fc91b8dbb9a7e834ac4ca340c9706eb1")
        XCTAssertEqual(
            CredentialKey.derivedKey(prefix: "p", registrations: [spellings[0]]), "p.58d4475004b679e1a5e24e93523d5d34")
        let configured = CredentialKey(configured: "mine", prefix: "smart.service", registrations: [service])
        XCTAssertEqual(configured.primary, "mine")
        XCTAssertEqual(configured.derived, "smart.service.bcb5b86d42087be22bca8bccdc9bb92b")
        XCTAssertNil(configured.former, "a configured key was honoured before too: nothing moves")
        XCTAssertEqual(
            CredentialKey(configured: nil, prefix: "smart.service", registrations: [service]).former, "smart.service")
    }

    // MARK: - Another registration's credential

    func testACredentialStoredForAnotherRegistrationIsNeverUsedChangedOrErased() async throws {
        let first = session(for: Self.serverA, key: "shared")
        await XCTAssertEqualAsync(try await first.access().credential.number, 1)
        let theirs = try await XCTUnwrapAsync(await store.read("shared"))
        await XCTAssertEqualAsync(try await store.recordedRegistration(for: "shared"), Self.serverA)

        let second = session(for: Self.serverB, key: "shared")
        var events = second.events().makeAsyncIterator()
        await XCTAssertEqualAsync(try await second.access().credential.number, 2, "it asked for its own")
        await XCTAssertEqualAsync(await events.next(), .keyHeldByAnotherRegistration)
        XCTAssertEqual(second.key, CredentialKey.derivedKey(prefix: "test.token", registrations: [Self.serverB]))
        await XCTAssertEqualAsync(try await store.recordedRegistration(for: second.key), Self.serverB)
        await XCTAssertEqualAsync(try await store.read("shared"), theirs, "the other registration's row is unchanged")
        await XCTAssertEqualAsync(try await second.storedState()?.number, 2)

        try await second.erase()
        await XCTAssertEqualAsync(try await store.read("shared"), theirs, "erasing leaves the other registration's row")
        await XCTAssertNilAsync(try await store.read(second.key))
        await XCTAssertEqualAsync(try await first.access().credential.number, 1, "the first never noticed")

        // After a relaunch the second finds its own under its derived key, not the first's.
        _ = try await second.access()
        let relaunched = session(for: Self.serverB, key: "shared")
        await XCTAssertEqualAsync(try await relaunched.access().credential.number, 3)
        XCTAssertEqual(issued.current, 3)
    }

    /// A session whose derived key holds another registration's credential (someone configured that key for it) has
    /// nowhere else to go: it refuses with a typed error, asks for nothing and changes nothing.
    func testWithNoOtherKeyASessionRefusesToStoreOverAnotherRegistrationsCredential() async throws {
        let derivedB = CredentialKey.derivedKey(prefix: "test.token", registrations: [Self.serverB])
        let squatter = session(for: Self.serverA, key: derivedB)
        _ = try await squatter.access()
        let theirs = try await XCTUnwrapAsync(await store.read(derivedB))
        let transport = RecordingTransport { _ in HTTPResponseMessage(status: 200) }
        let session = session(for: Self.serverB, transport: transport)
        let refusal = CredentialStoreError.heldByAnotherRegistration(key: derivedB, registration: Self.serverA)
        await XCTAssertThrowsErrorAsync(try await session.access()) {
            XCTAssertEqual($0 as? CredentialStoreError, refusal)
            XCTAssertEqual(($0 as? CredentialStoreError)?.recovery, .reconfigure)
        }
        await XCTAssertThrowsErrorAsync(
            try await session.transition { try await $0.store(Token(number: 9, expiresAt: .distantFuture)) }
        ) {
            XCTAssertEqual($0 as? CredentialStoreError, refusal)
        }
        try await session.erase()
        await XCTAssertEqualAsync(try await store.read(derivedB), theirs)
        await XCTAssertNilAsync(try await session.storedState())
        XCTAssertTrue(transport.requests.isEmpty, "nothing was asked of the server")
    }

    /// Two sessions given one key start together with nothing stored in a store without a lock (a lock would make
    /// the second wait for the first); the second's token arrives after the first stored its own there. The second's
    /// token is not lost (the server has issued it) and the first's is not overwritten: it lands under the second's
    /// derived key.
    func testATokenThatArrivesAfterAnotherRegistrationTookTheKeyLandsUnderTheDerivedKey() async throws {
        store = LocklessStore()
        let gated = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let hold = gated.hold { $0.url.host == "b.test" }
        let second = session(for: Self.serverB, key: "shared", transport: gated)
        let waiting = Task { try await second.access().credential.number }
        _ = await hold.arrival()
        let first = session(for: Self.serverA, key: "shared")
        await XCTAssertEqualAsync(try await first.access().credential.number, 1)
        let theirs = try await XCTUnwrapAsync(await store.read("shared"))
        hold.release()
        await XCTAssertEqualAsync(try await waiting.value, 2, "the token the server issued is used")
        await XCTAssertEqualAsync(try await store.read("shared"), theirs)
        await XCTAssertEqualAsync(try await store.recordedState(Token.self, for: second.key)?.number, 2)
        XCTAssertEqual(issued.current, 2, "no token was asked for twice")
    }

    // MARK: - States an earlier version stored

    func testAnEarlierVersionsStateUnderTheFormerKeyMovesToTheDerivedKeyWhenClaimed() async throws {
        let earlier = try JSONCoding.encode(Token(number: 7, expiresAt: clock.now().addingTimeInterval(60)))
        try await store.write(earlier, for: "test.token")
        let unclaiming = session(for: Self.serverA, claims: false)
        await XCTAssertNilAsync(try await unclaiming.storedState(), "a state it does not claim is not its own")
        await XCTAssertEqualAsync(try await unclaiming.access().credential.number, 1, "it asks for its own")
        await XCTAssertEqualAsync(try await store.read("test.token"), earlier, "and leaves the state it does not claim")

        try await store.remove(unclaiming.key)
        let session = session(for: Self.serverA)
        await XCTAssertEqualAsync(try await session.storedState()?.number, 7, "a claimed state is seen before it moves")
        await XCTAssertEqualAsync(try await session.access().credential.number, 7)
        await XCTAssertNilAsync(try await store.read("test.token"), "the former key is emptied")
        await XCTAssertEqualAsync(try await store.recordedRegistration(for: session.key), Self.serverA)
        await XCTAssertEqualAsync(try await store.recordedState(Token.self, for: session.key)?.number, 7)
        XCTAssertEqual(issued.current, 1, "the moved state was used, not a new token")
    }

    /// A configured key holding a state an earlier version stored there: used in place when claimed, and recorded.
    func testAnEarlierVersionsStateUnderAConfiguredKeyIsRecordedInPlace() async throws {
        try await store.write(
            try JSONCoding.encode(Token(number: 7, expiresAt: clock.now().addingTimeInterval(60))), for: "mine")
        let session = session(for: Self.serverA, key: "mine")
        await XCTAssertEqualAsync(try await session.access().credential.number, 7)
        XCTAssertEqual(session.key, "mine")
        await XCTAssertEqualAsync(try await store.recordedRegistration(for: "mine"), Self.serverA)
        XCTAssertEqual(issued.current, 0)
    }
}
