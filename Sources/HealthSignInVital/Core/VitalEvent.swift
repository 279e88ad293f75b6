import Foundation

/// Something that changed the SDK's status, delivered through ``VitalSession/events()``.
public enum VitalEvent: Sendable, Hashable {
    /// A user signed in with a sign-in token (also after re-authentication or a migration from API-key mode).
    case signedIn(userID: UUID)
    /// API-key mode was configured.
    case configured(VitalEnvironment)
    /// The API-key mode's user was set.
    case userIDSet(UUID)
    /// The refresh token was revoked; the user stays, pending a new sign-in token.
    case reauthenticationRequired(userID: UUID)
    /// The session and configuration were erased.
    case signedOut(SignOutReason)

    /// Why the SDK signed out.
    public enum SignOutReason: Sendable, Hashable {
        /// The app called ``VitalSession/signOut()`` (or reconciliation did).
        case requested
        /// The server no longer knows the user (a refresh answered `invalid_token`).
        case userNoLongerValid(UUID)
        /// The stored session could not be decoded (a damaged or foreign value), so it counts as signed out; the next
        /// sign-in replaces it and ``VitalSession/signOut()`` clears it.
        case storedSessionUnreadable
    }
}
