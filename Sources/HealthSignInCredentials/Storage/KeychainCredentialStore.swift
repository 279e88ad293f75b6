#if canImport(Security)
    import Foundation
    import Security

    /// A store in the Keychain: one generic-password item per key, under a service name of your choice.
    ///
    /// Every Keychain call runs on a dispatch queue apart from Swift's cooperative pool: a `SecItem` call can wait on
    /// the system's security daemon, and a task waiting for it holds no thread of the pool.
    ///
    /// Items are `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, so background refresh works after the first unlock
    /// and credentials never sync to other devices or backups. A locked device (`errSecInteractionNotAllowed`) is an
    /// error, never "no credential": callers must not mistake it for a signed-out state.
    ///
    /// On macOS the items live in the data-protection keychain (`kSecUseDataProtectionKeychain`), the iOS-style keychain
    /// where the accessibility class and access groups hold; the legacy file-based keychain ignores both. That keychain
    /// needs a signed app with a Keychain entitlement; an unsigned tool gets `errSecMissingEntitlement` (-34018) and can
    /// pass `useDataProtectionKeychain: false` to fall back to the legacy keychain.
    ///
    /// To share a session between an app and its extensions, give both the same `accessGroup` (a Keychain group in the
    /// targets' entitlements) and the same `lockDirectory`, a directory in their shared app group container. The
    /// lifecycle then refreshes under a file lock there, so the app and a widget never spend the same rotating refresh
    /// token twice.
    public struct KeychainCredentialStore: CredentialStore {
        /// The `kSecAttrService` of every item.
        public let service: String
        /// The access group to share items between apps, or nil for the app's own.
        public let accessGroup: String?
        /// A directory every sharing process can write (an app group container) for the lock files, or nil when the
        /// items are not shared between processes. It is checked as a file store's directory is (private to this
        /// user) before a lock file is made there.
        public let lockDirectory: URL?
        /// How long ``lock(_:)`` waits for another process's lock, in seconds.
        public let lockTimeout: TimeInterval
        /// Whether items live in the data-protection keychain on macOS (always so on iOS, tvOS, watchOS and visionOS).
        public let useDataProtectionKeychain: Bool

        /// Creates a store for `service`.
        public init(
            service: String, accessGroup: String? = nil, lockDirectory: URL? = nil, lockTimeout: TimeInterval = 30,
            useDataProtectionKeychain: Bool = true
        ) {
            self.service = service
            self.accessGroup = accessGroup
            self.lockDirectory = lockDirectory
            self.lockTimeout = lockTimeout
            self.useDataProtectionKeychain = useDataProtectionKeychain
        }

        /// A file lock in ``lockDirectory`` for `key` (see ``LockDirectory``), or nil when there is no lock
        /// directory.
        public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
            guard let lockDirectory else { return nil }
            return try await LockDirectory(lockDirectory, timeout: lockTimeout).lock(service + "." + key)
        }

        private func query(_ key: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: key,
                kSecAttrSynchronizable as String: false,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            if useDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
            return query
        }

        /// The bytes under `key`, or nil when there is no item.
        public func read(_ key: String) async throws -> Data? {
            try await offloaded { try copyItem(key) }
        }

        /// Replaces the item under `key` (updating it in place when it exists).
        public func write(_ data: Data, for key: String) async throws {
            try await offloaded { try updateOrAddItem(data, for: key) }
        }

        /// Deletes the item under `key`.
        public func remove(_ key: String) async throws {
            try await offloaded { try deleteItem(key) }
        }

        private func copyItem(_ key: String) throws -> Data? {
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

        private func updateOrAddItem(_ data: Data, for key: String) throws {
            let attributes: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query(key) as CFDictionary, attributes as CFDictionary)
            if status == errSecItemNotFound {
                let item = query(key).merging(attributes) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw CredentialStoreError.systemError(key: key, operation: "write", code: status)
            }
        }

        private func deleteItem(_ key: String) throws {
            let status = SecItemDelete(query(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw CredentialStoreError.systemError(key: key, operation: "remove", code: status)
            }
        }
    }
#endif
