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
/// store of a fleet), each under a key of its own made from a hash of the issuer and `jti`. The record is a
/// compare-and-swap under the store's lock (across processes for a file or PostgreSQL), so two instances receiving
/// the same launch at once accept it once; each record carries a random part, so no instance mistakes another's
/// record for its own.
///
/// A record stays until the same token comes again after its expiry, when it is replaced: stores cannot list their
/// keys, so nothing sweeps them. Each is a few bytes.
public struct CredentialStoreHTIReplayStore: HTIReplayStore {
    private let store: any CredentialStore
    private let prefix: String
    private let random: any RandomSource

    /// Records in `store`, under keys starting with `prefix`.
    public init(
        store: any CredentialStore, prefix: String = "koppeltaal2.hti-jti.",
        random: any RandomSource = SystemRandomSource()
    ) {
        self.store = store
        self.prefix = prefix
        self.random = random
    }

    /// Records `id` unless a record that has not expired is there.
    public func use(_ id: String, issuer: String, until expiry: Date, now: Date) async throws -> Bool {
        let key = prefix + Base64URL.encode(CryptoPrimitives.sha256(Data((issuer + "\n" + id).utf8)))
        let seconds = String(format: "%.0f", expiry.timeIntervalSince1970.rounded(.up))
        let record = Data((seconds + " " + Base64URL.encode(random.bytes(count: 16))).utf8)
        let lock = try await store.lock(key)
        defer { lock?.release() }
        guard let existing = try await store.read(key) else {
            return try await store.replace(nil, with: record, for: key)
        }
        let remembered = String(decoding: existing, as: UTF8.self).split(separator: " ").first
            .flatMap { Double($0) }.map(Date.init(timeIntervalSince1970:))
        guard let remembered, remembered <= now else { return false }
        return try await store.replace(existing, with: record, for: key)
    }
}
