import Foundation

/// Whether a store still holds the bytes a lease was handed out for, asked before each request: the store's
/// ``CredentialStore/version(of:)`` (one `stat` for a file) while it is the version last seen holding them, the bytes
/// themselves when it is not.
final class StoredCredentialCheck: Sendable {
    private let store: any CredentialStore
    private let key: String
    private let bytes: Data?
    /// A version seen holding `bytes`, with no change while they were read.
    private let confirmed = LockedValue<Data?>(nil)

    init(store: any CredentialStore, key: String, bytes: Data?) {
        self.store = store
        self.key = key
        self.bytes = bytes
    }

    /// Nil while the store holds `bytes`; `erased` when it holds nothing, `superseded` when it holds anything else. A
    /// store that cannot be read refuses nothing: the next access reports its error.
    @Sendable func refusal() -> CredentialLifecycleError? {
        do {
            let before = try store.version(of: key)
            if let confirmed = confirmed.current, confirmed == before { return nil }
            let stored = try store.read(key)
            guard stored == bytes else { return stored == nil ? .erased : .superseded }
            // Only a version that did not change while the bytes were read is known to hold them.
            if let before, try store.version(of: key) == before { confirmed.withValue { $0 = before } }
            return nil
        } catch {
            return nil
        }
    }
}
