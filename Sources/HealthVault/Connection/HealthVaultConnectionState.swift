import Foundation
import SDKRuntime

/// A HealthVault instance (for example US or EU) and its URLs.
public struct HealthVaultInstance: Sendable, Hashable, Codable {
    /// The instance id, as Shell reports it.
    public let id: String
    /// The platform URL every XML call goes to.
    public let platformURL: URL
    /// The Shell URL for this instance's browser pages.
    public let shellURL: URL

    /// Creates an instance description.
    public init(id: String, platformURL: URL, shellURL: URL) {
        self.id = id
        self.platformURL = platformURL
        self.shellURL = shellURL
    }
}

/// Everything a connection keeps in its credential store. Secrets are only in the store, never in logs.
struct HealthVaultConnectionState: Sendable, Equatable, Codable {
    /// The master application the instance was created under.
    var masterApplicationID: UUID
    /// The child application id and the application shared secret.
    var application: HealthVaultApplicationCredential
    /// The single-use creation token, kept until Shell has used it.
    var applicationCreationToken: String?
    /// The instance the user authorized in, once known.
    var instance: HealthVaultInstance?
    /// The current session, once created.
    var session: HealthVaultSessionCredential?
}

/// Where a connection is in its lifecycle.
public enum HealthVaultConnectionStatus: Sendable, Hashable {
    /// Nothing is stored: call `provision(masterAppID:)`.
    case notProvisioned
    /// The app instance exists; the user must finish the Shell page at this URL.
    case awaitingAuthorization(createApplicationURL: URL)
    /// Authorized in this instance; calls can be made.
    case connected(HealthVaultInstance)
}
