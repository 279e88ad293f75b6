#if canImport(Security)
import Foundation
import Security

/// A store in the Keychain: one generic-password item per key, under a service name of your choice.
///
/// Items are `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, so background refresh works after the first unlock
/// and credentials never sync to other devices or backups. A locked device (`errSecInteractionNotAllowed`) is an
/// error, never "no credential": callers must not mistake it for a signed-out state.
public struct KeychainCredentialStore: CredentialStore {
    /// The `kSecAttrService` of every item.
    public let service: String
    /// The access group to share items between apps, or nil for the app's own.
    public let accessGroup: String?

    /// Creates a store for `service`.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func query(_ key: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
            kSecAttrSynchronizable as String: false,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// The bytes under `key`, or nil when there is no item.
    public func read(_ key: String) throws -> Data? {
        var query = query(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess: return result as? Data
        case errSecItemNotFound: return nil
        default: throw CredentialStoreError.systemError(key: key, operation: "read", code: status)
        }
    }

    /// Replaces the item under `key` (updating it in place when it exists).
    public func write(_ data: Data, for key: String) throws {
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let item = query(key).merging(attributes) { _, new in new }
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw CredentialStoreError.systemError(key: key, operation: "write", code: status) }
    }

    /// Deletes the item under `key`.
    public func remove(_ key: String) throws {
        let status = SecItemDelete(query(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw CredentialStoreError.systemError(key: key, operation: "remove", code: status)
        }
    }
}
#endif
