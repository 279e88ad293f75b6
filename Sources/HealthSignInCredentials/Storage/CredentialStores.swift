import Foundation

/// The platform's usual place for an app's credentials.
public enum CredentialStores {
    /// The secure store for `service` (e.g. `com.example.vital`): the Keychain on Apple platforms (the
    /// data-protection keychain on macOS too); elsewhere a ``FileCredentialStore`` in an owner-only directory under
    /// `$XDG_DATA_HOME` (or `~/.local/share`).
    ///
    /// ```swift
    /// let store = try CredentialStores.secure(service: "com.example.vital")
    /// ```
    ///
    /// - Parameters:
    ///   - service: the Keychain service, or the directory's name elsewhere.
    ///   - accessGroup: on Apple platforms, the Keychain access group an app shares with its extensions (see
    ///     `KeychainCredentialStore`); elsewhere unused, since a directory is shared by its path.
    ///   - lockDirectory: on Apple platforms, a directory every sharing process can write (an app group container)
    ///     where refreshes take turns; elsewhere unused, since the file store locks beside its values.
    /// - Throws: when the directory cannot be created or is not safe for secrets (not on Apple platforms).
    public static func secure(
        service: String, accessGroup: String? = nil, lockDirectory: URL? = nil
    ) throws -> any CredentialStore {
        #if canImport(Security)
            return KeychainCredentialStore(service: service, accessGroup: accessGroup, lockDirectory: lockDirectory)
        #else
            let environment = ProcessInfo.processInfo.environment
            let base =
                environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
            return try FileCredentialStore(directory: base.appendingPathComponent(service))
        #endif
    }
}
