import Foundation

/// Whether a store still holds the bytes a lease was handed out for, asked before each request. While the store's
/// change feed gives the mark last confirmed, nobody changed them and nothing is read; otherwise the store's
/// ``CredentialStore/version(of:)`` (one `stat` for a file) while it is the version last seen holding them, and the
/// bytes themselves when it is not.
final class StoredCredentialCheck: Sendable {
    private struct Confirmed {
        var mark: CredentialChangeMark?
        var version: Data?
    }

    private let store: any CredentialStore
    private let key: String
    private let bytes: Data?
    private let confirmed: LockedValue<Confirmed>

    /// A check of `bytes` under `key`, which the session saw stored at `mark` and `version` (nil: not known).
    init(store: any CredentialStore, key: String, bytes: Data?, mark: CredentialChangeMark?, version: Data?) {
        self.store = store
        self.key = key
        self.bytes = bytes
        confirmed = LockedValue(Confirmed(mark: mark, version: version))
    }

    /// Nil while the store holds `bytes`; `erased` when it holds nothing, `superseded` when it holds anything else. A
    /// store that cannot be read refuses nothing: the next access reports its error, or serves what was last read
    /// while the store is out of reach.
    @Sendable func refusal() async -> CredentialLifecycleError? {
        // The mark is taken before the store is asked: a change after it moves the mark, and is seen next time.
        let mark = store.changes?.mark(for: key)
        if let mark, mark == confirmed.current.mark { return nil }
        do {
            let version = try await store.version(of: key)
            if let version, version == confirmed.current.version {
                confirmed.withValue { $0.mark = mark }
                return nil
            }
            let stored = try await store.read(key)
            guard stored == bytes else { return stored == nil ? .erased : .superseded }
            confirmed.withValue { $0 = Confirmed(mark: mark, version: version) }
            return nil
        } catch {
            return nil
        }
    }
}
