import Foundation
import HealthSignInCredentials
import HealthSignInOAuth
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInTesting
import NIOConcurrencyHelpers
import XCTest

/// The lease's fencing token and the table's change notifications, on a real server.
final class FencingAndChangesTests: XCTestCase {
    /// A holder stalls past its lease and another takes it: the stalled holder's swaps and its confirmation are
    /// refused by the database, and the new holder's land.
    func testAHolderWhoseLeasePassedToAnotherCanNeitherWriteNorConfirm() async throws {
        let table = TestDatabase.freshTable()
        let (first, second) = (try TestDatabase.store(table: table), try TestDatabase.store(table: table))
        try await first.write(Data("refresh-token-1".utf8), for: "k")
        let stalled = try await XCTUnwrapAsync(try await first.lock("k"))
        // What a stall past the lease leaves behind: the lease's time has passed, and nobody renewed it.
        try await TestDatabase.execute("UPDATE \(table)_locks SET expires_at = now() - interval '1 second'")
        let taker = try await XCTUnwrapAsync(try await second.lock("k"))

        await XCTAssertFalseAsync(
            try await first.replace(
                Data("refresh-token-1".utf8), with: Data("stalled".utf8), for: "k", fencedBy: stalled))
        await XCTAssertFalseAsync(
            try await first.replace(Data("refresh-token-1".utf8), with: nil, for: "k", fencedBy: stalled))
        await XCTAssertThrowsErrorAsync(try await stalled.confirm()) {
            XCTAssertEqual($0 as? CredentialStoreError, .lockLost(key: "k"))
        }
        try await taker.confirm()
        await XCTAssertTrueAsync(
            try await second.replace(
                Data("refresh-token-1".utf8), with: Data("refresh-token-2".utf8), for: "k", fencedBy: taker))
        await XCTAssertEqualAsync(try await first.read("k"), Data("refresh-token-2".utf8))
        stalled.release()
        taker.release()
    }

    /// A value one instance writes is announced to another within a second (typically milliseconds), and the other
    /// instance reads nothing before that.
    func testAChangeReachesAnotherInstanceWithinASecond() async throws {
        let table = TestDatabase.freshTable()
        let (writer, reader) = (try TestDatabase.store(table: table), try TestDatabase.store(table: table))
        try await writer.write(Data("1".utf8), for: "k")
        let feed = try XCTUnwrap(reader.changes)
        var before: CredentialChangeMark?
        for _ in 0..<200 where before == nil {
            before = feed.mark(for: "k")
            if before == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let listening = try XCTUnwrap(before, "the reader listens within 2 s")
        var latencies: [Double] = []
        for round in 0..<5 {
            let written = ContinuousClock.now
            try await writer.write(Data("\(round + 2)".utf8), for: "k")
            var seen: Duration?
            while seen == nil, written.duration(to: .now) < .seconds(1) {
                if feed.mark(for: "k") != listening, feed.mark(for: "k") != nil {
                    seen = written.duration(to: .now)
                } else {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            let latency = try XCTUnwrap(seen, "round \(round): the change did not arrive within 1 s")
            latencies.append(Double(latency.components.attoseconds) / 1e15 + Double(latency.components.seconds) * 1e3)
            _ = listening
        }
        let sorted = latencies.sorted()
        print("FencingAndChangesTests: notification latency median \(sorted[2]) ms, slowest \(sorted[4]) ms")
    }
}

/// The security review's stalled holder, through the lifecycle of two SMART apps on one table: instance A takes the
/// lock to refresh and stalls before its refresh token goes out, past its lease; instance B takes the lease and
/// refreshes. When A wakes, its lease is gone, it sends nothing, and the grant has rotated once and lives on.
final class StalledHolderTests: XCTestCase {
    func testAHolderStalledPastItsLeaseSendsNothingAndTheGrantRotatesOnce() async throws {
        let table = TestDatabase.freshTable()
        let server = SMARTTestServer()
        let stalled = StallingStore(try TestDatabase.store(table: table, lockLease: 2))
        let (first, second) = (app(server, stalled), app(server, try TestDatabase.store(table: table, lockLease: 2)))
        _ = try await first.authorize(with: server.browser())
        server.expireAccessTokens()

        let firstCall = Task { try await first.fhir(.fhir("Patient", id: "smart-patient-1")).status }
        await stalled.stall.arrival()
        // A stall past the lease: its time passes, and nobody renews it.
        try await TestDatabase.execute("UPDATE \(table)_locks SET expires_at = now() - interval '1 second'")
        await XCTAssertEqualAsync(try await second.fhir(.fhir("Patient", id: "smart-patient-1")).status, 200)
        stalled.stall.open()
        // A either takes up the token B stored or fails with its lost lease; either way its refresh token stays home.
        switch await firstCall.result {
        case .success(let status): XCTAssertEqual(status, 200)
        case .failure(let error):
            guard case .lockLost = error as? CredentialStoreError else { return XCTFail("A failed with \(error)") }
        }

        XCTAssertEqual(server.ledger.count(.refreshToken), 1, "one rotation")
        XCTAssertEqual(server.ledger.entries.filter(\.wasRefused).filter { $0.operation == .refreshToken }.count, 0)
        await XCTAssertEqualAsync(try await first.fhir(.fhir("Patient", id: "smart-patient-1")).status, 200)
        XCTAssertEqual(server.liveRefreshTokens, 1, "the grant is intact")
    }

    private func app(_ server: SMARTTestServer, _ store: any CredentialStore) -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: server.fhirBaseURL,
                    client: OAuthClientCredentials(clientID: SMARTTestServer.publicClientID),
                    redirectURI: SMARTTestServer.redirectURIs[0]),
                session: OAuthSessionSettings(
                    store: store, options: ClientOptions(transport: server.transport), clock: server.clock)))
    }
}

/// A PostgreSQL store whose first lock waits at a gate before it confirms itself, as a holder whose process stalls
/// between taking the lock and sending the refresh token.
final class StallingStore: CredentialStore {
    let inner: PostgresCredentialStore
    let stall = Stall()

    init(_ inner: PostgresCredentialStore) { self.inner = inner }

    func read(_ key: String) async throws -> Data? { try await inner.read(key) }
    func write(_ data: Data, for key: String) async throws { try await inner.write(data, for: key) }
    func remove(_ key: String) async throws { try await inner.remove(key) }
    func contains(_ key: String) async throws -> Bool { try await inner.contains(key) }
    func version(of key: String) async throws -> Data? { try await inner.version(of: key) }
    func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        try await inner.replace(expected, with: new, for: key)
    }
    func replace(_ expected: Data?, with new: Data?, for key: String, fencedBy lock: any CredentialStoreLock)
        async throws -> Bool
    {
        try await inner.replace(expected, with: new, for: key, fencedBy: (lock as? StalledLock)?.inner ?? lock)
    }
    func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        guard let lock = try await inner.lock(key) else { return nil }
        return StalledLock(inner: lock, stall: stall)
    }
    var changes: (any CredentialChangeFeed)? { inner.changes }

    /// Where the first confirmation waits until the test opens it.
    final class Stall: Sendable {
        private let state = NIOLockedValueBox<(arrived: Bool, open: Bool, waiters: [CheckedContinuation<Void, Never>])>(
            (false, false, []))

        /// Waits until a confirmation waits here.
        func arrival() async {
            while !state.withLockedValue({ $0.arrived }) { try? await Task.sleep(for: .milliseconds(5)) }
        }

        /// Lets the waiting confirmation (and every later one) go on.
        func open() {
            let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        func pass() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goOn = state.withLockedValue { state -> Bool in
                    state.arrived = true
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if goOn { continuation.resume() }
            }
        }
    }

    struct StalledLock: CredentialStoreLock {
        let inner: any CredentialStoreLock
        let stall: Stall

        func release() { inner.release() }
        func confirm() async throws {
            await stall.pass()
            try await inner.confirm()
        }
    }
}
