import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInKoppeltaal2
import XCTest

/// Replay records are forgotten once expired: a shared store keeps at most its slots, and each use sweeps its slot.
final class HTIReplayExpiryTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// The records every slot of `replay` holds, counted from the store.
    private func recordCount(_ replay: CredentialStoreHTIReplayStore, in store: any CredentialStore) async throws
        -> Int
    {
        var count = 0
        var keys: Set<String> = []
        for minute in 0..<(CredentialStoreHTIReplayStore.slotCount * 2) {
            keys.insert(replay.slotKey(for: start.addingTimeInterval(TimeInterval(minute * 60))))
        }
        XCTAssertEqual(keys.count, CredentialStoreHTIReplayStore.slotCount)
        for key in keys {
            guard let value = try await store.read(key) else { continue }
            count += String(decoding: value, as: UTF8.self).split(separator: "\n").count
        }
        return count
    }

    func testExpiredRecordsAreSweptOnUseInEveryStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hti-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores: [any CredentialStore] = [InMemoryCredentialStore(), try FileCredentialStore(directory: directory)]
        for store in stores {
            let replay = CredentialStoreHTIReplayStore(store: store)
            // 300 launches over ten minutes, each living five minutes.
            for index in 0..<300 {
                let now = start.addingTimeInterval(TimeInterval(index * 2))
                let accepted = try await replay.use(
                    "jti-\(index)", issuer: "portal-1", until: now.addingTimeInterval(300), now: now)
                XCTAssertTrue(accepted)
            }
            let replayed = try await replay.use(
                "jti-299", issuer: "portal-1", until: start.addingTimeInterval(898), now: start.addingTimeInterval(600))
            XCTAssertFalse(replayed, "a record that has not expired refuses its jti")
            let before = try await recordCount(replay, in: store)
            XCTAssertEqual(before, 300)
            // Two hours later, one launch in each minute's slot sweeps everything that expired.
            let later = start.addingTimeInterval(7_200)
            for minute in 0..<CredentialStoreHTIReplayStore.slotCount {
                let accepted = try await replay.use(
                    "late-\(minute)", issuer: "portal-1",
                    until: later.addingTimeInterval(TimeInterval(minute * 60 + 30)),
                    now: later)
                XCTAssertTrue(accepted)
            }
            let after = try await recordCount(replay, in: store)
            XCTAssertEqual(after, CredentialStoreHTIReplayStore.slotCount, "only the records that have not expired")
            let reused = try await replay.use(
                "jti-0", issuer: "portal-1", until: later.addingTimeInterval(300), now: later)
            XCTAssertTrue(reused, "an expired jti is forgotten")
        }
    }

    func testASlotHoldingSomethingElseIsAnErrorNotACrash() async throws {
        let store = InMemoryCredentialStore()
        let replay = CredentialStoreHTIReplayStore(store: store)
        let expiry = start.addingTimeInterval(300)
        try await store.write(Data("not records".utf8), for: replay.slotKey(for: expiry))
        do {
            _ = try await replay.use("jti-1", issuer: "portal-1", until: expiry, now: start)
            XCTFail("the slot does not hold records")
        } catch CredentialStoreError.unreadable(let key) {
            XCTAssertEqual(key, replay.slotKey(for: expiry))
        }
        for absurd in [Date.distantFuture, Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: -1e300)]
        {
            XCTAssertTrue(replay.slotKey(for: absurd).hasPrefix("koppeltaal2.hti-jti.slot-"))
        }
    }

    func testTheMemoryStoreForgetsExpiredRecordsOnUse() {
        let replay = InMemoryHTIReplayStore()
        XCTAssertTrue(replay.use("j", issuer: "p", until: start.addingTimeInterval(300), now: start))
        XCTAssertFalse(
            replay.use("j", issuer: "p", until: start.addingTimeInterval(300), now: start.addingTimeInterval(299)))
        XCTAssertTrue(
            replay.use("j", issuer: "p", until: start.addingTimeInterval(900), now: start.addingTimeInterval(300)))
    }
}
