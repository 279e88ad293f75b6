import Foundation
import HealthSignInCore

/// A sign-in-token session as stored: the user, where it lives, and the token pair.
struct VitalTokenSession: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    var userID: UUID
    var teamID: String?
    var environment: VitalEnvironment
    var accessToken: String
    var refreshToken: String
    var expiresAt: Date
    var pendingReauthentication: Bool

    var description: String {
        "VitalTokenSession(userID: \(userID), environment: \(environment), accessToken: \(Redaction.placeholder), refreshToken: \(Redaction.placeholder), expiresAt: \(DateTimeText.format(expiresAt)))"
    }

    var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "userID": userID, "teamID": teamID as Any, "environment": environment,
                "accessToken": Redaction.placeholder,
                "refreshToken": Redaction.placeholder, "expiresAt": expiresAt,
                "pendingReauthentication": pendingReauthentication,
            ])
    }
}

/// API-key mode as stored.
struct VitalAPIKeySession: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    var apiKey: String
    var environment: VitalEnvironment
    var userID: UUID?

    var description: String {
        "VitalAPIKeySession(apiKey: \(Redaction.placeholder), environment: \(environment), userID: \(Redaction.show(userID)))"
    }

    var customMirror: Mirror {
        Mirror(self, children: ["apiKey": Redaction.placeholder, "environment": environment, "userID": userID as Any])
    }
}

/// Everything ``VitalSession`` keeps in its credential store.
struct VitalStoredState: Sendable, Hashable, Codable {
    /// How the SDK is signed in, if at all.
    enum Mode: Sendable, Hashable, Codable {
        case signInToken(VitalTokenSession)
        case apiKey(VitalAPIKeySession)
    }

    var mode: Mode?
    /// The app's own id for the signed-in user, recorded by reconciliation.
    var appUserID: String?

    var status: VitalStatus {
        switch mode {
        case nil: return []
        case .apiKey(let session):
            return session.userID == nil ? .configured : [.configured, .signedIn, .useApiKey]
        case .signInToken(let session):
            return session.pendingReauthentication
                ? [.configured, .signedIn, .useSignInToken, .pendingReauthentication]
                : [.configured, .signedIn, .useSignInToken]
        }
    }

    var userID: UUID? {
        switch mode {
        case nil: return nil
        case .apiKey(let session): return session.userID
        case .signInToken(let session): return session.userID
        }
    }

    var environment: VitalEnvironment? {
        switch mode {
        case nil: return nil
        case .apiKey(let session): return session.environment
        case .signInToken(let session): return session.environment
        }
    }
}
