import Foundation
import HealthSignInCredentials
import HealthSignInPostgres
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
