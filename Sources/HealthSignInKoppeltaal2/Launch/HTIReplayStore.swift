import Foundation
import HealthSignInCore

/// Where a module remembers the launch tokens it accepted, so that each `jti` is used once.
public protocol HTIReplayStore: Sendable {
    /// Records that the token `id` of `issuer` is used, to be remembered until `expiry`; returns false when it was
    /// used before (and has not expired since). The check and the record are one atomic step.
    func use(_ id: String, issuer: String, until expiry: Date, now: Date) async throws -> Bool
}

/// Remembers used tokens in memory, each until it expires: one process, or tests.
public final class InMemoryHTIReplayStore: HTIReplayStore {
    private let used = LockedValue<[String: Date]>([:])

    /// An empty store.
    public init() {}

    /// Records `id` unless it is remembered; expired entries are forgotten on the way.
    public func use(_ id: String, issuer: String, until expiry: Date, now: Date) -> Bool {
        used.withValue { used in
            used = used.filter { $0.value > now }
            let key = issuer + "\n" + id
            guard used[key] == nil else { return false }
            used[key] = expiry
            return true
        }
    }
}

/// Remembers used tokens in a `CredentialStore` shared by every instance of a module (a file, or the PostgreSQL
/// store of a fleet), and forgets each once it has expired.
///
/// Records are kept in 60 slots, one per minute of their expiry (`<prefix>slot-0` to `<prefix>slot-59`), each a list
/// of the records whose expiry falls in that minute of the hour: a hash of the issuer and `jti`, and the expiry.
/// Every use rewrites its slot without the records that have expired, so the store never holds more than 60 values
/// and no record outlives the next use of its slot. The check and the record are one compare-and-swap under the
/// store's lock (across processes for a file or PostgreSQL), so two instances receiving the same launch at once
/// accept it once.
public struct CredentialStoreHTIReplayStore: HTIReplayStore {
    /// How many slots the records are spread over, one per minute of the hour of their expiry.
    public static let slotCount = 60
    private let store: any CredentialStore
    private let prefix: String

    /// Records in `store`, under keys starting with `prefix`.
    public init(store: any CredentialStore, prefix: String = "koppeltaal2.hti-jti.") {
        self.store = store
        self.prefix = prefix
    }

    /// The key of the slot for records expiring at `expiry`.
    public func slotKey(for expiry: Date) -> String {
        let minutes = (expiry.timeIntervalSince1970 / 60).rounded(.down)
        // A time too far for an integer (the receiver refuses those tokens before) still has a slot.
        let slot = minutes.isFinite && abs(minutes) < 1e15 ? Int(minutes) : 0
        return prefix + "slot-" + String((slot % Self.slotCount + Self.slotCount) % Self.slotCount)
    }

    /// Records `id` unless a record of it that has not expired is there; the slot's expired records are dropped.
    ///
    /// - Throws: the store's errors, and `CredentialStoreError.unreadable` when the slot holds something else than
    ///   records or another writer kept changing it (a store without locks under heavy contention).
    public func use(_ id: String, issuer: String, until expiry: Date, now: Date) async throws -> Bool {
        let record = Base64URL.encode(CryptoPrimitives.sha256(Data((issuer + "\n" + id).utf8)))
        let key = slotKey(for: expiry)
        let lock = try await store.lock(key)
        defer { lock?.release() }
        for _ in 0..<16 {
            let existing = try await store.read(key)
            guard var records = Self.records(in: existing) else { throw CredentialStoreError.unreadable(key: key) }
            records.removeAll { $0.expiry <= now }
            guard !records.contains(where: { $0.record == record }) else { return false }
            records.append((record, expiry))
            let lines = records.map {
                String(format: "%.0f", $0.expiry.timeIntervalSince1970.rounded(.up)) + " " + $0.record
            }
            if try await store.replace(existing, with: Data(lines.joined(separator: "\n").utf8), for: key) {
                return true
            }
        }
        throw CredentialStoreError.unreadable(key: key)
    }

    /// The records of a slot's value, one `<expiry seconds> <hash>` per line; nil when it is not that.
    private static func records(in value: Data?) -> [(record: String, expiry: Date)]? {
        guard let value, !value.isEmpty else { return [] }
        var records: [(record: String, expiry: Date)] = []
        for line in String(decoding: value, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let seconds = Double(parts[0]), seconds.isFinite else { return nil }
            records.append((String(parts[1]), Date(timeIntervalSince1970: seconds)))
        }
        return records
    }
}
