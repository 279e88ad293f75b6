import Foundation

/// Seals values before a store keeps them, so that what sits on disk or in a database (tokens, refresh tokens, PKCE
/// verifiers) is of no use without the operator's key: AES-256-GCM, a fresh 12-byte nonce for every value, and the
/// store key as associated data, so a sealed value cannot be moved to another key.
///
/// Keys are named: a sealed value records the id of the key that sealed it, and every key given can open, so keys
/// rotate without a migration. Seal with a new `current` key and keep the old one until every value has been written
/// again (each refresh writes its credential anew).
///
/// ```swift
/// let sealing = try CredentialSealing(keys: ["2026-11": keyBytes], current: "2026-11")
/// let store = SealedCredentialStore(try FileCredentialStore(directory: directory), sealing: sealing)
/// ```
///
/// A sealed value is `0x01`, the key id's length (one byte) and its UTF-8 bytes, the nonce, the ciphertext and the
/// 16-byte tag.
public struct CredentialSealing: Sendable {
    private let keys: [String: [UInt8]]
    private let current: String
    private let random: any RandomSource
    /// Whether a value stored in clear (before sealing was turned on, beginning with `{`) is still read; it is
    /// sealed when it is next written.
    public let readsUnsealedValues: Bool

    /// Creates a sealing with `keys` (32 random bytes each, by id) that seals with `current`.
    ///
    /// - Throws: ``CredentialSealingError/invalidKey(id:)`` for a key that is not 32 bytes or an id that is empty or
    ///   longer than 255 bytes, ``CredentialSealingError/unknownKey(id:)`` when `current` is not among `keys`.
    public init(
        keys: [String: Data], current: String, readsUnsealedValues: Bool = true,
        random: any RandomSource = SystemRandomSource()
    ) throws {
        for (id, key) in keys where key.count != 32 || id.utf8.isEmpty || id.utf8.count > 255 {
            throw CredentialSealingError.invalidKey(id: id)
        }
        guard keys[current] != nil else { throw CredentialSealingError.unknownKey(id: current) }
        self.keys = keys.mapValues { Array($0) }
        self.current = current
        self.readsUnsealedValues = readsUnsealedValues
        self.random = random
    }

    /// `data` sealed for `storeKey` with the current key.
    public func seal(_ data: Data, for storeKey: String) throws -> Data {
        let nonce = random.bytes(count: 12)
        guard let key = keys[current],
            let sealed = AESGCM256.seal(data, key: key, nonce: nonce, associated: Data(storeKey.utf8))
        else { throw CredentialSealingError.unopenable(key: storeKey) }
        return Data([1, UInt8(current.utf8.count)]) + Data(current.utf8) + Data(nonce) + sealed
    }

    /// The value `stored` under `storeKey` holds.
    ///
    /// - Throws: ``CredentialSealingError/unknownKey(id:)`` when it was sealed with a key not given here,
    ///   ``CredentialSealingError/unopenable(key:)`` when it does not open (changed, or moved from another key),
    ///   ``CredentialSealingError/notSealed(key:)`` for a value in clear when those are not read.
    public func open(_ stored: Data, for storeKey: String) throws -> Data {
        let bytes = [UInt8](stored)
        guard let format = bytes.first, format == 1 else {
            if readsUnsealedValues, bytes.first == UInt8(ascii: "{") { return stored }
            throw CredentialSealingError.notSealed(key: storeKey)
        }
        guard bytes.count > 2 else { throw CredentialSealingError.unopenable(key: storeKey) }
        let idLength = Int(bytes[1])
        let nonceStart = 2 + idLength
        guard bytes.count >= nonceStart + 12 + 16 else { throw CredentialSealingError.unopenable(key: storeKey) }
        let id = String(decoding: bytes[2..<nonceStart], as: UTF8.self)
        guard let key = keys[id] else { throw CredentialSealingError.unknownKey(id: id) }
        let nonce = Array(bytes[nonceStart..<nonceStart + 12])
        guard
            let opened = AESGCM256.open(
                Data(bytes[(nonceStart + 12)...]), key: key, nonce: nonce, associated: Data(storeKey.utf8))
        else { throw CredentialSealingError.unopenable(key: storeKey) }
        return opened
    }
}

/// A sealed value could not be made or opened. The messages name the store key or the key id, never a value.
public enum CredentialSealingError: Error, Sendable, Hashable, CustomStringConvertible, SDKError {
    /// A sealing key is not 32 bytes, or its id is empty or longer than 255 bytes.
    case invalidKey(id: String)
    /// A value was sealed with a key this sealing was not given (or `current` names none of its keys).
    case unknownKey(id: String)
    /// The value under the key does not open: it was changed, or sealed for another key.
    case unopenable(key: String)
    /// The value under the key is in clear, and this sealing reads only sealed values.
    case notSealed(key: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidKey(let id): return "The sealing key '\(id)' must be 32 bytes with an id of 1 to 255 bytes"
        case .unknownKey(let id): return "No sealing key '\(id)' was given; add it to the sealing's keys"
        case .unopenable(let key): return "The sealed value under '\(key)' does not open; it was changed or moved"
        case .notSealed(let key): return "The value under '\(key)' is not sealed, and only sealed values are read"
        }
    }

    /// `ErrorRecovery.reconfigure`: the keys given do not match what is stored.
    public var recovery: ErrorRecovery { .reconfigure }
}

/// A store that seals every value it keeps in another store (``CredentialSealing``), and opens what it reads.
///
/// Swaps compare what the caller saw in clear: the stored form is read and opened first, and the swap itself is made
/// on the stored bytes, so it is as atomic as the wrapped store's. Locks, versions and the change feed are the
/// wrapped store's.
public struct SealedCredentialStore: CredentialStore {
    /// The store that keeps the sealed values.
    public let base: any CredentialStore
    /// How values are sealed.
    public let sealing: CredentialSealing

    /// Wraps `base`, sealing with `sealing`.
    public init(_ base: any CredentialStore, sealing: CredentialSealing) {
        self.base = base
        self.sealing = sealing
    }

    /// The value under `key`, opened.
    public func read(_ key: String) async throws -> Data? {
        try await base.read(key).map { try sealing.open($0, for: key) }
    }

    /// Seals `data` and stores it.
    public func write(_ data: Data, for key: String) async throws {
        try await base.write(sealing.seal(data, for: key), for: key)
    }

    /// Removes `key`.
    public func remove(_ key: String) async throws { try await base.remove(key) }

    /// The wrapped store's answer.
    public func contains(_ key: String) async throws -> Bool { try await base.contains(key) }

    /// The wrapped store's version of the sealed value.
    public func version(of key: String) async throws -> Data? { try await base.version(of: key) }

    /// Swaps on the stored bytes that open to `expected`.
    public func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        guard case .holds(let stored) = try await storedForm(of: expected, for: key) else { return false }
        return try await base.replace(stored, with: new.map { try sealing.seal($0, for: key) }, for: key)
    }

    /// Swaps on the stored bytes that open to `expected`, fenced by `lock` as the wrapped store fences.
    public func replace(
        _ expected: Data?, with new: Data?, for key: String, fencedBy lock: any CredentialStoreLock
    ) async throws -> Bool {
        guard case .holds(let stored) = try await storedForm(of: expected, for: key) else { return false }
        return try await base.replace(
            stored, with: new.map { try sealing.seal($0, for: key) }, for: key, fencedBy: lock)
    }

    /// The wrapped store's lock.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? { try await base.lock(key) }

    /// The wrapped store's change feed.
    public var changes: (any CredentialChangeFeed)? { base.changes }

    /// What the wrapped store holds under `key`, compared with what the caller expects in clear.
    private enum StoredForm {
        /// It holds what the caller expects, as these bytes (nil: nothing).
        case holds(Data?)
        /// It holds something else.
        case differs
    }

    private func storedForm(of expected: Data?, for key: String) async throws -> StoredForm {
        let stored = try await base.read(key)
        switch (stored, expected) {
        case (nil, nil): return .holds(nil)
        case (let stored?, let expected?):
            return (try? sealing.open(stored, for: key)) == expected ? .holds(stored) : .differs
        default: return .differs
        }
    }
}
