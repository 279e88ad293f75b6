import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// The credential lifecycle through a minimal policy of its own, as a user's family would write one: a numbered
/// token that a refresh replaces with the next number.
final class CredentialSessionTests: XCTestCase {
    struct Token: Codable, Sendable, Equatable {
        var number: Int
        var expiresAt: Date
    }

    struct NotSignedIn: Error {}
    struct Refused: Error {}

    /// Refreshes through `server`, which answers with the next number or throws.
    struct Policy: CredentialPolicy {
        let server: @Sendable (Token) async throws -> Token

        func credential(in state: Token) -> Token? { state }
        func state(_ state: Token, replacing credential: Token) -> Token { credential }
        func missingCredentialError(in state: Token?) -> any Error { NotSignedIn() }
        func needsRefresh(_ token: Token, at now: Date) -> Bool { token.expiresAt <= now }
        func refresh(_ token: Token, lease: CredentialLease) async throws -> Token {
            guard await lease.isValid else { throw CredentialLifecycleError.erased }
            return try await server(token)
        }
        func refusal(of token: Token, error: any Error) -> CredentialRefusal<Token> {
            error is Refused ? .discard(error) : .keep(error)
        }
    }

    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    private let store = InMemoryCredentialStore()

    private func session(_ server: @escaping @Sendable (Token) async throws -> Token) -> CredentialSession<Policy> {
        CredentialSession(store: store, key: "token", policy: Policy(server: server), clock: clock, category: "Test")
    }

    /// A session on `store` whose refreshes are refused.
    private func session(on store: any CredentialStore) -> CredentialSession<Policy> {
        CredentialSession(
            store: store, key: "token", policy: Policy { _ in throw Refused() }, clock: clock, category: "Test")
    }

    private func next(_ token: Token) -> Token {
        Token(number: token.number + 1, expiresAt: clock.now().addingTimeInterval(60))
    }

    /// A call on `session` that has taken its credential and waits at a gate before its request, which carries the
    /// credential's number as a bearer token through the lease to `api`; returned once it waits there.
    private func heldCall(on session: CredentialSession<Policy>) async -> (
        call: Task<Int, any Error>, hold: GatedTransport.Gate, api: GatedTransport
    ) {
        let pause = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let hold = pause.hold { _ in true }
        let api = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let url = URL(string: "https://example.com/data")!
        let call = Task {
            try await session.withCredential { access -> Int in
                _ = try await pause.send(HTTPRequestMessage(method: .get, url: url))
                let request = HTTPRequestMessage(
                    method: .get, url: url, headers: ["Authorization": "Bearer \(access.credential.number)"])
                return try await access.lease.guarding(api).send(request).status
            }
        }
        _ = await hold.arrival()
        return (call, hold, api)
    }

    private func signIn(_ session: CredentialSession<Policy>, _ number: Int = 1) async throws {
        let token = Token(number: number, expiresAt: clock.now().addingTimeInterval(60))
        try await session.transition { try await $0.store(token) }
    }

    func testNothingIsReadUntilFirstUseAndAValueStoredElsewhereIsSeen() async throws {
        let session = session { _ in throw Refused() }
        await XCTAssertThrowsErrorAsync(try await session.access()) { XCTAssertTrue($0 is NotSignedIn) }
        try await store.write(
            try JSONCoding.encode(Token(number: 7, expiresAt: clock.now().addingTimeInterval(60))), for: "token")
        await XCTAssertEqualAsync(try await session.access().credential.number, 7)
    }

    /// A state the store cannot encode (a date that is not a number) fails with the store's typed error, and the
    /// stored state stays as it was.
    func testAStateThatCannotBeEncodedFailsWithATypedStoreError() async throws {
        let session = session { _ in throw Refused() }
        try await signIn(session, 4)
        let broken = Token(number: 5, expiresAt: Date(timeIntervalSinceReferenceDate: .nan))
        await XCTAssertThrowsErrorAsync(try await session.transition { try await $0.store(broken) }) { error in
            XCTAssertEqual(error as? CredentialStoreError, .unencodable(key: "token"))
        }
        await XCTAssertEqualAsync(try await session.access().credential.number, 4)
    }

    /// A store that fails the next `failures` writes, as a full disk or a locked Keychain would.
    final class FailingStore: CredentialStore, @unchecked Sendable {
        let inner = InMemoryCredentialStore()
        let failures: LockedValue<Int>
        init(failures: Int) { self.failures = LockedValue(failures) }
        func read(_ key: String) async throws -> Data? { try await inner.read(key) }
        func write(_ data: Data, for key: String) async throws { try await inner.write(data, for: key) }
        func remove(_ key: String) async throws { try await inner.remove(key) }
        func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
            let fail = failures.withValue { count -> Bool in
                guard count > 0 else { return false }
                count -= 1
                return true
            }
            if fail { throw CredentialStoreError.systemError(key: key, operation: "write", code: 28) }
            return try await inner.replace(expected, with: new, for: key)
        }
    }

    /// The server has replaced the credential when the store fails to write it: the new credential is kept aside,
    /// unused until it is stored (the call that refreshed gets the store's error), stored at the next use, and no
    /// second refresh is asked for.
    func testARefreshWhoseStoreWriteFailsKeepsItsCredential() async throws {
        let failing = FailingStore(failures: 0)
        let refreshes = LockedValue(0)
        let session = CredentialSession(
            store: failing, key: "token",
            policy: Policy { [clock] token in
                refreshes.withValue { $0 += 1 }
                return Token(number: token.number + 1, expiresAt: clock.now().addingTimeInterval(60))
            }, clock: clock, category: "Test")
        try await session.transition { [clock] in
            try await $0.store(Token(number: 1, expiresAt: clock.now().addingTimeInterval(60)))
        }
        clock.advance(by: 61)
        failing.failures.withValue { $0 = 1 }
        await XCTAssertThrowsErrorAsync(try await session.access()) { XCTAssertTrue($0 is CredentialStoreError) }
        await XCTAssertEqualAsync(
            try await failing.read("token").map { try JSONDecoder().decode(Token.self, from: $0).number }, 1)
        await XCTAssertEqualAsync(try await session.access().credential.number, 2)
        await XCTAssertEqualAsync(
            try await failing.read("token").map { try JSONDecoder().decode(Token.self, from: $0).number }, 2,
            "stored at the next use")
        XCTAssertEqual(refreshes.current, 1)
    }

    /// A refresh that ends with `PartialRefresh` stores its credential and reports its error.
    func testAPartialRefreshIsStoredAndItsErrorReported() async throws {
        struct Later: Error {}
        let session = session { [clock] token in
            throw PartialRefresh(
                Token(number: token.number + 1, expiresAt: clock.now().addingTimeInterval(60)), error: Later())
        }
        try await signIn(session)
        clock.advance(by: 61)
        await XCTAssertThrowsErrorAsync(try await session.access()) { XCTAssertTrue($0 is Later, "\($0)") }
        await XCTAssertEqualAsync(
            try await store.read("token").map { try JSONDecoder().decode(Token.self, from: $0).number }, 2)
    }

    func testManyCallersOnAnExpiredTokenShareOneRefresh() async throws {
        let refreshes = LockedValue(0)
        let session = session { [clock] token in
            refreshes.withValue { $0 += 1 }
            try await Task.sleep(nanoseconds: 20_000_000)
            return Token(number: token.number + 1, expiresAt: clock.now().addingTimeInterval(60))
        }
        try await signIn(session)
        clock.advance(by: 61)
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<100 { group.addTask { try await session.access().credential.number } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        XCTAssertEqual(numbers, [2])
        XCTAssertEqual(refreshes.current, 1)
        await XCTAssertEqualAsync(
            try await store.read("token").map { try JSONDecoder().decode(Token.self, from: $0).number }, 2, "stored")
    }

    func testARefreshThatEndsAfterAnEraseIsDroppedAndItsLeaseRefused() async throws {
        let gate = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let hold = gate.hold { _ in true }
        let session = session { [clock] token in
            _ = try await gate.send(HTTPRequestMessage(method: .get, url: URL(string: "https://example.com/refresh")!))
            return Token(number: token.number + 1, expiresAt: clock.now().addingTimeInterval(60))
        }
        try await signIn(session)
        let held = try await session.access()
        clock.advance(by: 61)
        let call = Task { try await session.access() }
        _ = await hold.arrival()
        try await session.erase()
        await XCTAssertFalseAsync(await held.lease.isValid, "the erase ends the lease of every access handed out")
        hold.release()
        await XCTAssertThrowsErrorAsync(try await call.value) { XCTAssertTrue($0 is NotSignedIn) }
        XCTAssertEqual(store.keys, [], "the refreshed token is not written back")
        let sent = RecordingTransport(responses: [HTTPResponseMessage(status: 200)])
        await XCTAssertThrowsErrorAsync(
            try await held.lease.guarding(sent).send(
                HTTPRequestMessage(method: .get, url: URL(string: "https://example.com")!))
        ) {
            XCTAssertEqual($0 as? CredentialLifecycleError, .erased)
        }
        XCTAssertEqual(sent.requests.count, 0)
    }

    /// An erase by another instance sharing the store ends this instance's leases too: the next access finds nothing,
    /// and a call that took the credential before the erase does not send it after.
    func testAnEraseByAnotherInstanceIsSeenByEveryUseAndEveryRequest() async throws {
        let first = session { _ in throw Refused() }
        let second = session { _ in throw Refused() }
        try await signIn(first)
        let held = try await second.access()
        XCTAssertEqual(held.credential.number, 1)
        _ = try await first.erase()
        await XCTAssertFalseAsync(await held.lease.isValid, "the other instance's erase ends this lease")
        let sent = RecordingTransport(responses: [HTTPResponseMessage(status: 200)])
        await XCTAssertThrowsErrorAsync(
            try await held.lease.guarding(sent).send(
                HTTPRequestMessage(method: .get, url: URL(string: "https://example.com")!))
        ) {
            XCTAssertEqual($0 as? CredentialLifecycleError, .erased)
        }
        XCTAssertEqual(sent.requests.count, 0)
        await XCTAssertThrowsErrorAsync(try await second.access()) { XCTAssertTrue($0 is NotSignedIn) }
        // A new sign-in elsewhere is used at once.
        try await signIn(first, 2)
        await XCTAssertEqualAsync(try await second.access().credential.number, 2)
    }

    /// Another instance revokes the grant and signs in anew while a call here holds the old grant's token: the call
    /// never sends that token; it runs once more with the new one.
    func testARevokedGrantIsNeverSentEvenAfterANewSignInElsewhere() async throws {
        try await assertARevokedGrantIsNeverSent(on: store)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lease-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A file store answers the check before each request with the file's version, then its bytes.
        try await assertARevokedGrantIsNeverSent(on: try FileCredentialStore(directory: directory))
    }

    private func assertARevokedGrantIsNeverSent(on store: any CredentialStore) async throws {
        let (first, second) = (session(on: store), session(on: store))
        try await signIn(first)
        // A request first, so that the check has seen the stored version hold the credential.
        let before = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        _ = try await second.withCredential { access in
            try await access.lease.guarding(before).send(
                HTTPRequestMessage(method: .get, url: URL(string: "https://example.com/data")!))
        }
        let (call, hold, api) = await heldCall(on: second)
        _ = try await first.erase()
        try await signIn(first, 2)
        hold.release()
        let status = try await call.value
        XCTAssertEqual(status, 200)
        XCTAssertEqual(
            api.requests.map { $0.headers["Authorization"] }, ["Bearer 2"], "the revoked grant's token never went out")
    }

    /// A refresh by another instance supersedes what a call here holds: the call runs once more with the refreshed
    /// credential, and nothing was sent with the old one after the refresh.
    func testACredentialRefreshedElsewhereIsUsedByACallThatHeldTheOldOne() async throws {
        let clock = clock
        let first = session { Token(number: $0.number + 1, expiresAt: clock.now().addingTimeInterval(60)) }
        let second = session { _ in throw Refused() }
        try await signIn(first)
        let (call, hold, api) = await heldCall(on: second)
        clock.advance(by: 61)
        await XCTAssertEqualAsync(try await first.access().credential.number, 2)
        hold.release()
        await XCTAssertEqualAsync(try await call.value, 200)
        XCTAssertEqual(api.requests.map { $0.headers["Authorization"] }, ["Bearer 2"])
    }

    func testARefusalForAReplacedTokenChangesNothing() async throws {
        let gate = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let hold = gate.hold { _ in true }
        let session = session { _ in
            _ = try await gate.send(HTTPRequestMessage(method: .get, url: URL(string: "https://example.com/refresh")!))
            throw Refused()
        }
        try await signIn(session)
        clock.advance(by: 61)
        let call = Task { try await session.access() }
        _ = await hold.arrival()
        try await signIn(session, 5)
        hold.release()
        await XCTAssertThrowsErrorAsync(try await call.value)
        await XCTAssertEqualAsync(try await session.current()?.number, 5, "the refusal was for token 1, not 5")
    }

    func testADefiniteRefusalErasesAndATransientOneKeeps() async throws {
        let answers = LockedValue<[any Error]>([URLError(.timedOut), Refused()])
        let session = session { _ in throw answers.withValue { $0.removeFirst() } }
        try await signIn(session)
        clock.advance(by: 61)
        await XCTAssertThrowsErrorAsync(try await session.access()) { XCTAssertTrue($0 is URLError) }
        await XCTAssertEqualAsync(try await session.current()?.number, 1)
        await XCTAssertThrowsErrorAsync(try await session.access()) { XCTAssertTrue($0 is Refused) }
        await XCTAssertEqualAsync(try await session.current(), nil)
        XCTAssertEqual(store.keys, [])
    }

    func testAnUndecodableValueCountsAsNothingAndIsReported() async throws {
        try await store.write(Data("{".utf8), for: "token")
        let session = session { _ in throw Refused() }
        let events = session.events()
        await XCTAssertEqualAsync(try await session.current(), nil)
        var iterator = events.makeAsyncIterator()
        await XCTAssertEqualAsync(await iterator.next(), .unreadableStoredValue)
        try await signIn(session, 3)
        await XCTAssertEqualAsync(try await session.current()?.number, 3, "a new value replaces it")
    }

    func testAStoreThatCannotBeReadIsAnError() async throws {
        let session = CredentialSession(
            store: LockedStore(), key: "token", policy: Policy { _ in throw Refused() }, clock: clock, category: "Test"
        )
        await XCTAssertThrowsErrorAsync(try await session.current())
    }

    func testStatusesStartWithTheCurrentOneAndFollowEveryChange() async throws {
        let session = session { [clock] token in
            Token(number: token.number + 1, expiresAt: clock.now().addingTimeInterval(60))
        }
        try await signIn(session)
        var statuses = session.statuses { $0?.number ?? 0 }.makeAsyncIterator()
        await XCTAssertEqualAsync(await statuses.next(), 1)
        clock.advance(by: 61)
        _ = try await session.access()
        await XCTAssertEqualAsync(await statuses.next(), 2, "a background refresh is a change")
        try await session.erase()
        await XCTAssertEqualAsync(await statuses.next(), 0)
    }

    func testTransitionsRunOneAtATimeInCallOrder() async throws {
        let session = session { _ in throw Refused() }
        let order = LockedValue<[Int]>([])
        let gate = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let hold = gate.hold { _ in true }
        let first = Task {
            try await session.transition { _ in
                _ = try await gate.send(HTTPRequestMessage(method: .get, url: URL(string: "https://example.com")!))
                order.withValue { $0.append(1) }
            }
        }
        _ = await hold.arrival()
        let second = Task { try await session.transition { _ in order.withValue { $0.append(2) } } }
        let early = await outcome(of: second, within: 0.2)
        XCTAssertTrue(early == nil, "the second step waits for the first")
        hold.release()
        try await first.value
        try await second.value
        XCTAssertEqual(order.current, [1, 2])
    }
}

final class AsyncMutexTests: XCTestCase {
    func testWaitersGetTheLockInArrivalOrderAndACancelledOneLeavesTheQueue() async throws {
        let mutex = AsyncMutex()
        try await mutex.lock()
        let order = LockedValue<[Int]>([])
        var waiters: [Task<Void, any Error>] = []
        for index in 1...3 {
            let waiter = Task { try await mutex.withLock { order.withValue { $0.append(index) } } }
            waiters.append(waiter)
            // Time for this waiter to queue before the next one starts.
            _ = await outcome(of: waiter, within: 0.05)
        }
        waiters[1].cancel()
        await XCTAssertThrowsErrorAsync(try await waiters[1].value) { XCTAssertTrue($0 is CancellationError) }
        mutex.unlock()
        try await waiters[0].value
        try await waiters[2].value
        XCTAssertEqual(order.current, [1, 3])
    }
}

final class SharedRunTests: XCTestCase {
    func testACancelledWaiterLeavesAtOnceAndTheRunFinishesForTheOthers() async throws {
        let gate = GatedTransport { _ in HTTPResponseMessage(status: 200) }
        let hold = gate.hold { _ in true }
        let run = SharedRun { () async throws -> Int in
            _ = try await gate.send(HTTPRequestMessage(method: .get, url: URL(string: "https://example.com")!))
            return 42
        }
        _ = await hold.arrival()
        let impatient = Task { try await run.value() }
        let patient = Task { try await run.value() }
        impatient.cancel()
        let early = await outcome(of: impatient, within: 5)
        guard case .failure(let error)? = early else { return XCTFail("the cancelled waiter did not return") }
        XCTAssertTrue(error is CancellationError)
        hold.release()
        await XCTAssertEqualAsync(try await patient.value, 42)
        XCTAssertTrue(run.isFinished)
    }
}

final class FileLockTests: XCTestCase {
    func testOneHolderAtATimeAndNoFileLeftBehind() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("filelock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(".token.lock")
        let first = try await FileLock.acquire(at: url)
        let second = Task { try await FileLock.acquire(at: url) }
        let early = await outcome(of: second, within: 0.3)
        XCTAssertTrue(early == nil, "a second holder waits")
        first.release()
        let lock = try await second.value
        lock.release()
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: url.path), "the lock file is removed once the lock is free")
    }
}
