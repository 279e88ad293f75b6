import Foundation
import HealthSignInCore

extension JSONWebKey {
    /// Reads a private key kept as a JWK in a credential store: the Keychain (`KeychainCredentialStore`) on Apple
    /// platforms, or any other store.
    ///
    /// - Throws: `JOSEError.invalidKey(_:)` when nothing is stored under `key` or what is stored is not a JWK; the
    ///   store's own errors.
    public init(storedIn store: any CredentialStore, key: String) async throws {
        guard let data = try await store.read(key) else { throw JOSEError.invalidKey("no key is stored under \(key)") }
        try self.init(json: data)
    }
}
