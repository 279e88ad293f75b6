import Foundation
import HealthSignInCore
import HealthSignInCredentials

/// A store in memory without a lock, as a custom store or a Keychain store without a lock directory is: sessions
/// that share it coordinate only through what it holds.
public final class LocklessStore: CredentialStore, Sendable {
    private let values = LockedValue<[String: Data]>([:])

    /// Creates an empty store.
    public init() {}

    /// The bytes under `key`, or nil.
    public func read(_ key: String) async throws -> Data? { values.current[key] }

    /// Replaces the value under `key`.
    public func write(_ data: Data, for key: String) async throws { values.withValue { $0[key] = data } }

    /// Removes `key`.
    public func remove(_ key: String) async throws { values.withValue { $0[key] = nil } }
}
