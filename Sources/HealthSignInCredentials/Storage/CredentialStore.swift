import Foundation
@_spi(Generated) import HealthSignInCore

/// Where the SDK keeps credentials between launches: application secrets, sessions, tokens.
///
/// Values are opaque bytes under string keys. A write replaces the previous value atomically: after a crash a
/// reader sees either the old value or the new one, never a mix. Flows persist new credentials before using them.
///
/// Every method is `async`: a store that waits for a server or a disk does so without holding a thread of Swift's
/// cooperative pool, and a session that holds a usable credential does not wait for its store at all (see
/// ``changes``).
///
/// A store may be shared: by several instances in one process, or by an app and its extensions, or by several
/// server processes. ``lock(_:)`` is how a store lets them take turns; the credential lifecycle holds the lock while
/// it refreshes and writes, so a rotating refresh token is spent once. Every write of the lifecycle is a
/// compare-and-swap (``replace(_:with:for:)``): it lands only if the store still holds what the session last saw, so
/// even without a lock no instance overwrites or erases a value another has just stored. A store whose lock can pass
/// to another holder while the first still runs (a lease in a database) fences it: the lifecycle confirms the lock
/// before a refresh token goes out (``CredentialStoreLock/confirm()``) and writes through
/// ``replace(_:with:for:fencedBy:)``, which the store refuses once the lock is someone else's.
///
/// Choose an implementation:
/// - `KeychainCredentialStore` on Apple platforms (the default there);
///   ``CredentialStores/secure(service:accessGroup:lockDirectory:)`` picks it.
/// - ``FileCredentialStore`` on Linux servers and for tools; files are readable by their owner only.
/// - ``InMemoryCredentialStore`` for tests and previews.
/// - ``SealedCredentialStore`` around any of them to keep secrets encrypted at rest.
public protocol CredentialStore: Sendable {
    /// The bytes stored under `key`, or nil when there are none.
    func read(_ key: String) async throws -> Data?
    /// Stores `data` under `key`, replacing any previous value atomically.
    func write(_ data: Data, for key: String) async throws
    /// Removes `key`; removing a key that is not there succeeds.
    func remove(_ key: String) async throws
    /// Whether a value is stored under `key`. The default reads the value, and a store that can answer more cheaply
    /// should.
    func contains(_ key: String) async throws -> Bool
    /// A value that differs whenever the bytes under `key` may have changed, or nil when there are none. Sessions
    /// without a change feed ask it before using the credential they hold; the default is the bytes themselves, and a
    /// store that can tell more cheaply (a file's identity and times, a row's version) should.
    func version(of key: String) async throws -> Data?
    /// Stores `new` under `key` (or removes it, for nil) only if the store still holds `expected` there (nil: nothing),
    /// as one step no other writer can come between.
    ///
    /// The default reads, compares and writes under a lock every store of this process shares, so it is atomic
    /// between the sessions of one process; a store shared with other processes holds ``lock(_:)`` around it (the
    /// lifecycle takes that lock for each write) or implements this atomically itself.
    ///
    /// - Returns: whether `new` was stored.
    func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool
    /// ``replace(_:with:for:)`` by the holder of `lock`, refused (false, nothing changed) once the lock has passed to
    /// another holder. The default ignores the fence: it suits stores whose lock cannot pass while its holder lives
    /// (a file lock, a lock in memory).
    func replace(_ expected: Data?, with new: Data?, for key: String, fencedBy lock: any CredentialStoreLock)
        async throws -> Bool
    /// Takes a lock on `key` shared by everyone who uses this store, waiting while another holder has it, or returns
    /// nil when the store offers no such lock (then only instances of one session coordinate, through memory).
    ///
    /// The default returns nil. ``FileCredentialStore`` locks a file beside the value (`flock`), so processes
    /// sharing the directory take turns; ``InMemoryCredentialStore`` locks in memory; `KeychainCredentialStore`
    /// locks a file in a directory you give it, such as an app group's container.
    func lock(_ key: String) async throws -> (any CredentialStoreLock)?
    /// How the store tells its users that a value may have changed, or nil when it cannot: then a session asks
    /// ``version(of:)`` before it uses the credential it holds. The default is nil.
    var changes: (any CredentialChangeFeed)? { get }
}

extension CredentialStore {
    /// Reads the value.
    public func contains(_ key: String) async throws -> Bool { try await read(key) != nil }

    /// The bytes themselves.
    public func version(of key: String) async throws -> Data? { try await read(key) }

    /// No lock: the store is not shared beyond one session.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? { nil }

    /// No change feed.
    public var changes: (any CredentialChangeFeed)? { nil }

    /// Reads, compares and writes under a lock every store of this process shares.
    public func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        try await compareAndSwapLock.withLock {
            guard try await read(key) == expected else { return false }
            if let new { try await write(new, for: key) } else { try await remove(key) }
            return true
        }
    }

    /// The unfenced swap: this store's lock cannot pass to another holder while its holder lives.
    public func replace(
        _ expected: Data?, with new: Data?, for key: String, fencedBy lock: any CredentialStoreLock
    ) async throws -> Bool {
        try await replace(expected, with: new, for: key)
    }

    /// Reads and decodes a JSON value stored with ``writeValue(_:for:)``.
    ///
    /// - Throws: ``CredentialStoreError/unreadable(key:)`` when the bytes do not decode (the value is left in place).
    public func readValue<Value: Decodable>(_ type: Value.Type, for key: String) async throws -> Value? {
        guard let data = try await read(key) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw CredentialStoreError.unreadable(key: key)
        }
    }

    /// Encodes `value` as JSON and stores it under `key`.
    ///
    /// - Throws: ``CredentialStoreError/unencodable(key:)`` when `value` has no JSON form (a number that is not
    ///   finite, arrays and objects nested deeper than Foundation's JSON encoder writes); nothing is written then.
    ///   Otherwise what ``write(_:for:)`` throws.
    public func writeValue(_ value: some Encodable, for key: String) async throws {
        try await write(StoredValue.encode(value, for: key), for: key)
    }
}

/// The bytes a store keeps for a typed value: what ``CredentialStore/writeValue(_:for:)`` and the credential
/// lifecycle write.
enum StoredValue {
    /// `value` as deterministic JSON.
    ///
    /// - Throws: ``CredentialStoreError/unencodable(key:)`` in place of Foundation's `EncodingError` or any other
    ///   error that is not the SDK's own, so a failed write is always a typed store error; an SDK error a value's
    ///   own `encode(to:)` throws passes unchanged.
    static func encode(_ value: some Encodable, for key: String) throws -> Data {
        do {
            return try JSONCoding.encode(value)
        } catch let error as any SDKError {
            throw error
        } catch {
            throw CredentialStoreError.unencodable(key: key)
        }
    }
}

/// A credential store failed. The messages name the key, never the stored value.
public enum CredentialStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stored bytes could not be decoded as the expected type.
    case unreadable(key: String)
    /// The value has no JSON form (a number that is not finite, nesting deeper than JSON encoding allows), so it was
    /// not stored; what the store held under the key is unchanged.
    case unencodable(key: String)
    /// The operating system refused the operation.
    case systemError(key: String, operation: String, code: Int32)
    /// A file store's directory, or a file in it, is not a safe place for secrets; nothing was read or written there.
    case unsafeLocation(path: String, problem: LocationProblem)
    /// Another user of the store held its lock on the key longer than the store waits (`seconds`); nothing was
    /// changed.
    case lockTimedOut(key: String, seconds: TimeInterval)
    /// The lock this holder took on the key passed to another holder (its lease ran out while this one was held up),
    /// so nothing was sent or stored under it.
    case lockLost(key: String)
    /// The key holds a credential recorded for another registration, which this session never uses, changes or
    /// erases; nothing was stored. It happens when the key was given to the other registration's session too, and is
    /// also this session's derived key (so it has no other key to keep its own under).
    case heldByAnotherRegistration(key: String, registration: CredentialRegistration)

    /// Why a location is not safe for secrets.
    public enum LocationProblem: Sendable, Hashable {
        /// It is a symbolic link, which could point anywhere.
        case symbolicLink
        /// A directory was expected.
        case notADirectory
        /// A regular file was expected.
        case notARegularFile
        /// Another user owns it and could read or replace what is kept there.
        case ownedByAnotherUser(uid: UInt32)
        /// Its group or other users may create, rename or remove files in it (permission bits `mode`).
        case writableByOthers(mode: UInt16)
    }

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unreadable(let key): return "The stored value for '\(key)' could not be read"
        case .unencodable(let key):
            return "The value for '\(key)' could not be encoded for storage; nothing was written"
        case .systemError(let key, let operation, let code):
            return "Could not \(operation) '\(key)' (system error \(code))"
        case .unsafeLocation(let path, let problem):
            return "'\(path)' is not a safe place for credentials: \(problem.explanation)"
        case .lockTimedOut(let key, let seconds):
            return "The lock on '\(key)' was held by another user of the store for more than \(seconds) s"
        case .lockLost(let key):
            return "The lock on '\(key)' passed to another user of the store before this one was done; nothing was "
                + "sent or stored under it"
        case .heldByAnotherRegistration(let key, let registration):
            return "'\(key)' holds the credential of another registration (\(registration)); it was left alone and "
                + "nothing was stored: give each registration a key of its own, or leave the key to the SDK"
        }
    }
}

extension CredentialStoreError.LocationProblem {
    var explanation: String {
        switch self {
        case .symbolicLink: return "it is a symbolic link; use the real path"
        case .notADirectory: return "it is not a directory"
        case .notARegularFile: return "it is not a regular file"
        case .ownedByAnotherUser(let uid): return "it belongs to user \(uid); use a directory this user owns"
        case .writableByOthers(let mode):
            return "its mode \(String(mode, radix: 8)) lets others change it; remove group and other write (chmod go-w)"
        }
    }
}

/// A store that keeps values in memory only, for tests and previews. The sessions sharing one store object learn of
/// each other's changes through its feed, as instances sharing a database learn of them through the database's.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    // @unchecked: `values` and `keyLocks` are only read or written while `guardLock` is held.
    private let guardLock = Lock()
    private var values: [String: Data] = [:]
    private var keyLocks: [String: AsyncMutex] = [:]
    private let feed = CredentialChangeLog(isLive: true)

    /// Creates an empty store, or one holding `values`.
    public init(_ values: [String: Data] = [:]) { self.values = values }

    /// The bytes under `key`, or nil.
    public func read(_ key: String) async throws -> Data? { guardLock.withLock { values[key] } }

    /// Replaces the value under `key`.
    public func write(_ data: Data, for key: String) async throws { set(data, for: key) }

    /// Removes `key`.
    public func remove(_ key: String) async throws { set(nil, for: key) }

    /// Stores `new` (or removes the key, for nil) if the store holds `expected`, atomically.
    public func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        let replaced = guardLock.withLock { () -> Bool in
            guard values[key] == expected else { return false }
            values[key] = new
            return true
        }
        if replaced { feed.noteChange(of: key) }
        return replaced
    }

    /// Takes the in-memory lock on `key`, shared by every user of this store object.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        let mutex = guardLock.withLock { () -> AsyncMutex in
            if let existing = keyLocks[key] { return existing }
            let created = AsyncMutex()
            keyLocks[key] = created
            return created
        }
        try await mutex.lock()
        return MutexLock(mutex)
    }

    /// Every change to this store object, as it happens.
    public var changes: (any CredentialChangeFeed)? { feed }

    /// Every key currently stored, sorted.
    public var keys: [String] { guardLock.withLock { values.keys.sorted() } }

    private func set(_ data: Data?, for key: String) {
        guardLock.withLock { values[key] = data }
        feed.noteChange(of: key)
    }
}

extension CredentialStoreError: SDKError {
    /// `ErrorRecovery.reconfigure` for an unsafe store location or a key another registration holds,
    /// `ErrorRecovery.retryLater` for a lock held too long or lost, `ErrorRecovery.fixRequest` for a value that has no JSON
    /// form (writing it again fails again), `ErrorRecovery.none` for the rest.
    public var recovery: ErrorRecovery {
        switch self {
        case .unsafeLocation, .heldByAnotherRegistration: return .reconfigure
        case .lockTimedOut, .lockLost: return .retryLater
        case .unencodable: return .fixRequest
        case .unreadable, .systemError: return .none
        }
    }
}

/// The lock of the default ``CredentialStore/replace(_:with:for:)``: one for the process, held only for a read, a
/// comparison and a write.
private let compareAndSwapLock = AsyncMutex()
