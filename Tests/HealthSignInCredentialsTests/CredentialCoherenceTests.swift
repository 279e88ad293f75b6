import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// Sessions sharing a store serve a usable credential from memory, learn of other instances' changes through the
/// store's change feed, read before use while the feed is down, and never take up again a token the server refused.
final class CredentialCoherenceTests: XCTestCase {
    struct Token: Codable, Sendable, Equatable {
        var number: Int
        var expiresAt: Date
    }

    struct NotSignedIn: Error {}
    /// The server's answer to a token it has ended.
    struct Expired: Error {}
    /// A store that cannot be reached: transient.
    struct Unreachable: SDKError {
        var recovery: ErrorRecovery { .retryLater }
        var description: String { "unreachable" }
    }

    /// Refreshes to the next number through `issue`; `Expired` is the expiry signal.
    struct Policy: CredentialPolicy {
        let issue: @Sendable (Token) async throws -> Token

        func credential(in state: Token) -> Token? { state }
        func state(_ state: Token, replacing credential: Token) -> Token { credential }
        func missingCredentialError(in state: Token?) -> any Error { NotSignedIn() }
        func needsRefresh(_ token: Token, at now: Date) -> Bool { token.expiresAt <= now }
        func refresh(_ token: Token, lease: CredentialLease) async throws -> Token { try await issue(token) }
        func refusal(of token: Token, error: any Error) -> CredentialRefusal<Token> { .keep(error) }
        func isExpirySignal(_ error: any Error) -> Bool { error is Expired }
    }

    /// A store that counts what it is asked, can be cut off, and has a feed the test drives.
    final class ObservedStore: CredentialStore, Sendable {
        let base = InMemoryCredentialStore()
        let feed = CredentialChangeLog(isLive: true)
        let reads = LockedValue(0)
        let reachable = LockedValue(true)
        let lockLost = LockedValue(false)

        private func reach() throws {
            guard reachable.current else { throw Unreachable() }
        }

        func read(_ key: String) async throws -> Data? {
            try reach()
            reads.withValue { $0 += 1 }
            return try await base.read(key)
        }

        func version(of key: String) async throws -> Data? { try await read(key) }

        func write(_ data: Data, for key: String) async throws {
            try reach()
            try await base.write(data, for: key)
            feed.noteChange(of: key)
        }

        func remove(_ key: String) async throws {
            try reach()
            try await base.remove(key)
            feed.noteChange(of: key)
        }

        func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
            try reach()
            return TestLock(lost: lockLost.current, base: try await base.lock(key))
        }

        var changes: (any CredentialChangeFeed)? { feed }
    }

    /// The in-memory store's lock, which can report that it passed to another holder.
    struct TestLock: CredentialStoreLock {
        let lost: Bool
        let base: (any CredentialStoreLock)?
        func release() { base?.release() }
        func confirm() async throws { if lost { throw CredentialStoreError.lockLost(key: "token") } }
    }

    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    private func session(
        on store: any CredentialStore,
        issue: @escaping @Sendable (Token) async throws -> Token = { _ in throw Expired() }
    ) -> CredentialSession<Policy> {
        CredentialSession(store: store, key: "token", policy: Policy(issue: issue), clock: clock, category: "Test")
    }

    private func token(_ number: Int) -> Token { Token(number: number, expiresAt: clock.now().addingTimeInterval(60)) }

    func testAUsableCredentialIsServedFromMemoryAndAChangeElsewhereIsSeenAtTheNextUse() async throws {
        let store = ObservedStore()
        let (first, second) = (session(on: store), session(on: store))
        try await first.transition { [token = token(1)] in try await $0.store(token) }
        let transport = RecordingTransport { _ in HTTPResponseMessage(status: 200) }
        _ = try await second.access()
        store.reads.withValue { $0 = 0 }
        for _ in 0..<50 {
            let access = try await second.access()
            XCTAssertEqual(access.credential.number, 1)
            _ = try await access.lease.guarding(transport).send(HTTPRequestMessage(method: .get, url: Self.url))
        }
        XCTAssertEqual(store.reads.current, 0, "50 calls with a usable credential read nothing")

        try await first.transition { [token = token(2)] in try await $0.store(token) }
        store.reads.withValue { $0 = 0 }
        await XCTAssertEqualAsync(try await second.access().credential.number, 2)
        XCTAssertEqual(store.reads.current, 1, "the change is read once, at the next use")
    }

    func testWhileTheFeedIsDownEachUseReadsAndAStoreOutOfReachServesTheLastCredential() async throws {
        let store = ObservedStore()
        let (first, second) = (session(on: store), session(on: store))
        try await first.transition { [token = token(1)] in try await $0.store(token) }
        _ = try await second.access()
        store.feed.disconnected()
        store.reads.withValue { $0 = 0 }
        for _ in 0..<3 { _ = try await second.access() }
        XCTAssertEqual(store.reads.current, 3, "without the feed every use reads the store")

        store.reachable.withValue { $0 = false }
        await XCTAssertEqualAsync(try await second.access().credential.number, 1)
        store.reachable.withValue { $0 = true }
        store.feed.connected()
        try await first.transition { [token = token(5)] in try await $0.store(token) }
        await XCTAssertEqualAsync(try await second.access().credential.number, 5)
    }

    /// A change the feed announced is not overlooked because the store cannot be read now: the call fails, typed.
    func testAnAnnouncedChangeThatCannotBeReadFailsTheCall() async throws {
        let store = ObservedStore()
        let (first, second) = (session(on: store), session(on: store))
        try await first.transition { [token = token(1)] in try await $0.store(token) }
        _ = try await second.access()
        try await first.transition { [token = token(2)] in try await $0.store(token) }
        store.reachable.withValue { $0 = false }
        await XCTAssertThrowsErrorAsync(try await second.access()) { XCTAssertTrue($0 is Unreachable, "\($0)") }
    }

    /// The server ends every token: instance A renews 1 to 2, the server ends 2 as well, and instance B, whose call
    /// was refused on 1, takes up 2 from the store, is refused again, and renews once more to 3: its call succeeds.
    func testATokenAdoptedAfterARefusalAndRefusedTooIsRenewedOnceMore() async throws {
        let store = ObservedStore()
        let clock = self.clock
        let issued = LockedValue(1)
        let issue: @Sendable (Token) async throws -> Token = { _ in
            let number = issued.withValue { value -> Int in
                value += 1
                return value
            }
            return Token(number: number, expiresAt: clock.now().addingTimeInterval(60))
        }
        let (a, b) = (session(on: store, issue: issue), session(on: store, issue: issue))
        try await a.transition { [token = token(1)] in try await $0.store(token) }
        _ = try await b.access()
        let oldest = LockedValue(2)
        let held = AsyncGate()
        let call: @Sendable (CredentialSession<Policy>.Access) async throws -> Int = { access in
            guard access.credential.number >= oldest.current else { throw Expired() }
            return access.credential.number
        }
        let bCall = Task {
            try await b.withCredential { access in
                if access.credential.number == 1 { await held.wait() }
                return try await call(access)
            }
        }
        await XCTAssertEqualAsync(try await a.withCredential(call), 2)
        oldest.withValue { $0 = 3 }
        held.open()
        await XCTAssertEqualAsync(try await bCall.value, 3)
        XCTAssertEqual(issued.current, 3, "two renewals in all: A's and B's second")
    }

    /// A lock that passed to another holder before the refresh token went out: nothing is sent, and the call fails
    /// with a typed, transient error.
    func testARefreshWhoseLockPassedToAnotherHolderSendsNothing() async throws {
        let store = ObservedStore()
        let sent = LockedValue(0)
        let session = CredentialSession(
            store: store, key: "token", policy: ProbingPolicy(sent: sent), clock: clock, category: "Test")
        try await session.transition { [token = Token(number: 1, expiresAt: clock.now())] in try await $0.store(token) }
        store.lockLost.withValue { $0 = true }
        await XCTAssertThrowsErrorAsync(try await session.access()) { error in
            XCTAssertEqual(error as? CredentialStoreError, .lockLost(key: "token"))
            XCTAssertEqual((error as? CredentialStoreError)?.recovery, .retryLater)
        }
        XCTAssertEqual(sent.current, 0, "the refresh token never went out")
        store.lockLost.withValue { $0 = false }
        await XCTAssertEqualAsync(try await session.access().credential.number, 2)
        XCTAssertEqual(sent.current, 1)
    }

    /// A policy whose refresh sends through its lease, as the families' do.
    struct ProbingPolicy: CredentialPolicy {
        let sent: LockedValue<Int>

        func credential(in state: Token) -> Token? { state }
        func state(_ state: Token, replacing credential: Token) -> Token { credential }
        func missingCredentialError(in state: Token?) -> any Error { NotSignedIn() }
        func needsRefresh(_ token: Token, at now: Date) -> Bool { token.expiresAt <= now }
        func refresh(_ token: Token, lease: CredentialLease) async throws -> Token {
            let transport = lease.guarding(
                RecordingTransport { [sent] _ in
                    sent.withValue { $0 += 1 }
                    return HTTPResponseMessage(status: 200)
                })
            _ = try await transport.send(HTTPRequestMessage(method: .post, url: CredentialCoherenceTests.url))
            return Token(number: token.number + 1, expiresAt: token.expiresAt.addingTimeInterval(3_600))
        }
        func refusal(of token: Token, error: any Error) -> CredentialRefusal<Token> { .keep(error) }
    }

    static let url = URL(string: "https://example.com/token")!
}

/// A gate tasks wait at until it opens.
final class AsyncGate: Sendable {
    private let state = LockedValue<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withValue { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withValue { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
