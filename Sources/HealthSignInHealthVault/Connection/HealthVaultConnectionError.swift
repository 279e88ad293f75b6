import Foundation
import HealthSignInCore

/// What a ``HealthVaultConnection`` cannot do by itself; each case says what the app should do next.
public enum HealthVaultConnectionError: Error, Sendable, CustomStringConvertible {
    /// Nothing is provisioned yet: call `provision(masterAppID:)`.
    case notProvisioned
    /// The app instance exists but the user has not completed the Shell page yet.
    case notAuthorized
    /// The connection is already set up; call `disconnect()` first to start again.
    case alreadyConnected
    /// The user declined in Shell; stored credentials are kept so the same page can be offered again.
    case authorizationRejected
    /// HealthVault denied access (status 11): the user must authorize again at `appAuthorizationURL`.
    case reauthorizationRequired(appAuthorizationURL: URL, underlying: HealthVaultError)
    /// The app instance is gone (status 6): call `disconnect()` and `provision(masterAppID:)` again.
    case reprovisionRequired(underlying: HealthVaultError)
    /// Shell named an instance that the service definition does not list.
    case unknownInstance(String)
    /// No record is authorized (or selected) to make a record call with.
    case noRecord
    /// The record is not one the people who authorized this instance gave access to.
    case unknownRecord(UUID)

    /// A one-line explanation with what to do.
    public var description: String {
        switch self {
        case .notProvisioned: return "HealthVault is not provisioned; call provision(masterAppID:) first"
        case .notAuthorized: return "The user has not authorized this app instance in HealthVault Shell yet"
        case .alreadyConnected: return "The HealthVault connection is already set up; call disconnect() to start again"
        case .authorizationRejected: return "The user declined to authorize the app in HealthVault Shell"
        case .reauthorizationRequired(_, let underlying):
            return "HealthVault denied access; the user must authorize the app again (\(underlying))"
        case .reprovisionRequired(let underlying):
            return "The HealthVault app instance no longer exists; disconnect and provision again (\(underlying))"
        case .unknownInstance(let id): return "HealthVault instance '\(id)' is not in the service definition"
        case .noRecord:
            return "No HealthVault record is authorized for this app instance; refresh the people or authorize one"
        case .unknownRecord(let id): return "HealthVault record \(id.wireText) is not authorized for this app instance"
        }
    }
}

extension HealthVaultConnectionError: SDKError {
    /// What the case asks of the app: the Shell page again, provisioning again, or the calls in another order.
    public var recovery: ErrorRecovery {
        switch self {
        case .notAuthorized, .authorizationRejected, .reauthorizationRequired: return .reauthorize
        case .notProvisioned, .reprovisionRequired: return .reprovision
        case .alreadyConnected, .noRecord, .unknownRecord: return .fixRequest
        case .unknownInstance: return .none
        }
    }
}
