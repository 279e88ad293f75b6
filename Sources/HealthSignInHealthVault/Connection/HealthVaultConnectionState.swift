import Foundation
import HealthSignInCore

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
struct HealthVaultConnectionState: Sendable, Equatable, Codable, CustomStringConvertible, CustomReflectable {
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
    /// The people who authorized the instance and their records, as last fetched.
    var people: [HealthVaultPerson]?
    /// The record record calls use unless told otherwise.
    var selectedRecordID: UUID?

    /// The state with the creation token redacted (the credentials redact themselves).
    var description: String {
        Redaction.describe(
            "HealthVaultConnectionState",
            [
                "masterApplicationID": masterApplicationID.uuidString, "application": application.description,
                "applicationCreationToken": Redaction.hide(applicationCreationToken),
                "instance": Redaction.show(instance),
                "session": Redaction.show(session),
            ])
    }

    /// A mirror with the creation token redacted.
    var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "masterApplicationID": masterApplicationID, "application": application,
                "applicationCreationToken": Redaction.hide(applicationCreationToken), "instance": instance as Any,
                "session": session as Any,
            ])
    }
}

/// Where a connection is in its lifecycle.
public enum HealthVaultConnectionStatus: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Nothing is stored: call `provision(masterAppID:)`.
    case notProvisioned
    /// The app instance exists; the user must finish the Shell page at this URL, which carries the single-use
    /// creation token (so it is redacted when printed).
    case awaitingAuthorization(createApplicationURL: URL)
    /// Authorized in this instance; calls can be made.
    case connected(HealthVaultInstance)

    /// The status, with the Shell page's query redacted.
    public var description: String {
        switch self {
        case .notProvisioned: return "notProvisioned"
        case .awaitingAuthorization(let url):
            return "awaitingAuthorization(createApplicationURL: \(Redaction.url(url)))"
        case .connected(let instance): return "connected(\(instance))"
        }
    }

    /// A mirror with the Shell page's query redacted.
    public var customMirror: Mirror {
        switch self {
        case .notProvisioned: return Mirror(self, children: [])
        case .awaitingAuthorization(let url):
            return Mirror(self, children: ["createApplicationURL": Redaction.url(url)], displayStyle: .enum)
        case .connected(let instance): return Mirror(self, children: ["instance": instance], displayStyle: .enum)
        }
    }
}
