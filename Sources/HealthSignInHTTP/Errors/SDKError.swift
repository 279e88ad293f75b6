import Foundation

/// An error this SDK throws. Alerts and logs that read an error's `localizedDescription` show its
/// `description`, which never holds a secret, and its `recoverySuggestion` says what ``recovery`` asks of the
/// person who sees it.
///
/// Every public error type of the SDK conforms, the generated protocol errors included (through
/// `ProtocolError`).
public protocol SDKError: LocalizedError, CustomStringConvertible, Sendable {
    /// What a caller should do about the error.
    var recovery: ErrorRecovery { get }
}

extension SDKError {
    /// The `description`, redacted as it is.
    public var errorDescription: String? { description }

    /// What ``recovery`` asks of the person who sees the error, or nil when nothing they do helps.
    public var recoverySuggestion: String? { recovery.suggestion }
}

extension ErrorRecovery {
    /// A sentence for the person who sees an error with this recovery, or nil for ``none``.
    public var suggestion: String? {
        switch self {
        case .none: return nil
        case .retryLater: return "The service could not be reached or is busy. Try again in a moment."
        case .refreshCredential: return "The session expired. Try again; it is renewed on the next attempt."
        case .reauthorize: return "Sign in again to give the app access."
        case .reprovision: return "The app's connection was removed. Connect the app again from the start."
        case .discardGrant: return "The sign-in is no longer valid. Sign in again."
        case .reconfigure: return "The app is not set up correctly for this service. Contact the app's developer."
        case .fixRequest: return "The app sent a request the service cannot accept. Contact the app's developer."
        }
    }
}
