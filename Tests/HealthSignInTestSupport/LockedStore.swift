import Foundation
import HealthSignInCore
import HealthSignInCredentials

/// A store that behaves like a Keychain before the first unlock: every operation fails with the system's
/// "interaction not allowed" error. Nothing about it means "signed out".
public struct LockedStore: CredentialStore {
    /// `errSecInteractionNotAllowed`.
    public static let code: Int32 = -25308

    /// Creates the store.
    public init() {}

    /// Fails.
    public func read(_ key: String) async throws -> Data? {
        throw CredentialStoreError.systemError(key: key, operation: "read", code: Self.code)
    }

    /// Fails.
    public func write(_ data: Data, for key: String) async throws {
        throw CredentialStoreError.systemError(key: key, operation: "write", code: Self.code)
    }

    /// Fails.
    public func remove(_ key: String) async throws {
        throw CredentialStoreError.systemError(key: key, operation: "remove", code: Self.code)
    }
}
