import Foundation
import HealthSignInCore

/// What ``VitalSession`` cannot do by itself; each case says what the app should do next. Server errors that need no
/// decision (``VitalError`` for other codes, `UnexpectedResponseError`, `TransportError`) pass through unchanged and
/// never sign the user out.
public enum VitalSessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sign-in token cannot be used; request a new one from the backend.
    case invalidSignInToken(SignInTokenProblem)
    /// The sign-in token is for another environment or team than the configuration expects (the parts are named:
    /// `environment`, `team`); nothing was sent. Check which backend minted it.
    case unexpectedSignInToken([String])
    /// Another user (or the same user id in another team) is signed in; sign out first (or use
    /// `reconcile(appUserID:tokenProvider:)`).
    case alreadySignedIn(userID: UUID)
    /// The SDK is in API-key mode for another user or environment, so the sign-in token cannot take over; the
    /// differing parts are named (`user`, `environment`).
    case migrationMismatch([String])
    /// A production team key (`pk_…`) was given to API-key mode: team keys on devices are for sandbox evaluation.
    /// Use sign-in tokens, or set `allowsProductionAPIKey` if this really is a trusted device.
    case productionAPIKeyRefused
    /// No API key is configured (API-key mode needs ``VitalSession/configure(apiKey:environment:region:)`` first).
    case notConfigured
    /// Nobody is signed in.
    case notSignedIn
    /// The call needs the other authentication mode: `setUserID` needs API-key mode, access tokens need a sign-in
    /// token.
    case wrongMode(VitalStatus)
    /// The server says the user no longer exists; the SDK has signed out and erased the session.
    case userNoLongerValid(userID: UUID)
    /// The refresh token was revoked; sign in with a new sign-in token for the same user.
    case needsReauthentication(userID: UUID)
    /// The token response cannot be used; the reason says why (never the token).
    case malformedTokenResponse(String)

    /// A one-line explanation with what to do.
    public var description: String {
        switch self {
        case .invalidSignInToken(let problem): return "Invalid sign-in token: \(problem)"
        case .unexpectedSignInToken(let parts):
            return "The sign-in token's \(parts.joined(separator: " and ")) is not the configured one; nothing was sent"
        case .productionAPIKeyRefused:
            return
                "A production API key (pk_) is refused in API-key mode, which is for sandbox evaluation; use sign-in tokens"
        case .alreadySignedIn(let user): return "Already signed in as \(user.uuidString.lowercased()); sign out first"
        case .migrationMismatch(let parts):
            return
                "The sign-in token's \(parts.joined(separator: " and ")) differ from the API-key sign-in; sign out first"
        case .notConfigured:
            return "Vital is not configured: call configure(apiKey:environment:region:) or sign in with a token"
        case .notSignedIn: return "No Vital user is signed in"
        case .wrongMode(let status): return "Not available with the current sign-in \(status)"
        case .userNoLongerValid(let user):
            return "The Vital user \(user.uuidString.lowercased()) no longer exists; signed out"
        case .needsReauthentication(let user):
            return
                "The Vital session of \(user.uuidString.lowercased()) was revoked; sign in again with a new sign-in token"
        case .malformedTokenResponse(let reason): return "The token response cannot be used: \(reason)"
        }
    }
}

extension VitalSessionError: SDKError {
    /// What the case asks of the app: a new sign-in for a token or session that cannot be used, the configuration
    /// for the wrong key or backend, the calls themselves when they come in the wrong order or mode.
    public var recovery: ErrorRecovery {
        switch self {
        case .invalidSignInToken, .notSignedIn, .userNoLongerValid, .needsReauthentication: return .reauthorize
        case .unexpectedSignInToken, .productionAPIKeyRefused, .notConfigured: return .reconfigure
        case .alreadySignedIn, .migrationMismatch, .wrongMode: return .fixRequest
        case .malformedTokenResponse: return .none
        }
    }
}
