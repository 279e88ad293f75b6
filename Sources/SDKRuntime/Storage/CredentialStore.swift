import Foundation

/// Where the SDK keeps credentials between launches: application secrets, sessions, tokens.
///
/// Values are opaque bytes under string keys. A write replaces the previous value atomically: after a crash a
/// reader sees either the old value or the new one, never a mix. Flows persist new credentials before using them.
///
/// Choose an implementation:
/// - `KeychainCredentialStore` on Apple platforms (the default there); ``CredentialStores/secure(service:)`` picks it.
/// - ``FileCredentialStore`` on Linux servers and for tools; files are readable by their owner only.
/// - ``InMemoryCredentialStore`` for tests and previews.
public protocol CredentialStore: Sendable {
    /// The bytes stored under `key`, or nil when there are none.
    func read(_ key: String) throws -> Data?
    /// Stores `data` under `key`, replacing any previous value atomically.
    func write(_ data: Data, for key: String) throws
    /// Removes `key`; removing a key that is not there succeeds.
    func remove(_ key: String) throws
}

extension CredentialStore {
    /// Reads and decodes a JSON value stored with ``writeValue(_:for:)``.
    ///
    /// - Throws: ``CredentialStoreError/unreadable(key:)`` when the bytes do not decode (the value is left in place).
    public func readValue<Value: Decodable>(_ type: Value.Type, for key: String) throws -> Value? {
        guard let data = try read(key) else { return nil }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch {
            throw CredentialStoreError.unreadable(key: key)
        }
    }

    /// Encodes `value` as JSON and stores it under `key`.
    public func writeValue(_ value: some Encodable, for key: String) throws {
        try write(JSONCoding.encode(value), for: key)
    }
}

/// A credential store failed. The messages name the key, never the stored value.
public enum CredentialStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stored bytes could not be decoded as the expected type.
    case unreadable(key: String)
    /// The operating system refused the operation.
    case systemError(key: String, operation: String, code: Int32)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unreadable(let key): return "The stored value for '\(key)' could not be read"
        case .systemError(let key, let operation, let code): return "Could not \(operation) '\(key)' (system error \(code))"
        }
    }
}

/// A store that keeps values in memory only, for tests and previews.
public final class InMemoryCredentialStore: CredentialStore, @unchecked Sendable {
    // @unchecked: `values` is only read or written while `lock` is held.
    private let lock = Lock()
    private var values: [String: Data] = [:]

    /// Creates an empty store, or one holding `values`.
    public init(_ values: [String: Data] = [:]) { self.values = values }

    /// The bytes under `key`, or nil.
    public func read(_ key: String) throws -> Data? { lock.withLock { values[key] } }

    /// Replaces the value under `key`.
    public func write(_ data: Data, for key: String) throws { lock.withLock { values[key] = data } }

    /// Removes `key`.
    public func remove(_ key: String) throws { lock.withLock { values[key] = nil } }

    /// Every key currently stored, sorted.
    public var keys: [String] { lock.withLock { values.keys.sorted() } }
}
