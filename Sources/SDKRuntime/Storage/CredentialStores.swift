import Foundation

/// The platform's usual place for an app's credentials.
public enum CredentialStores {
    /// The secure store for `service` (e.g. `com.example.vital`): the Keychain on Apple platforms; elsewhere a
    /// ``FileCredentialStore`` in an owner-only directory under `$XDG_DATA_HOME` (or `~/.local/share`).
    ///
    /// ```swift
    /// let store = try CredentialStores.secure(service: "com.example.vital")
    /// ```
    ///
    /// - Throws: when the directory cannot be created (not on Apple platforms).
    public static func secure(service: String) throws -> any CredentialStore {
        #if canImport(Security)
        return KeychainCredentialStore(service: service)
        #else
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return try FileCredentialStore(directory: base.appendingPathComponent(service))
        #endif
    }
}
