import Foundation
import HealthSignInCore

/// When a grant is refreshed, and what a refused refresh means for it: the rules every OAuth family shares.
///
/// - A grant with a refresh token is refreshed `skew` seconds before its access token expires.
/// - A grant without one serves until its access token really expires, and then it is over.
/// - Only a code whose recovery is `discardGrant` (`invalid_grant`, `unauthorized_client`) with a 4xx status ends a
///   grant: the same body behind a 5xx comes from a server or proxy in trouble. `invalid_client` is the client's
///   configuration, and keeps the grant; so does everything else (network errors, 5xx, 429).
/// - A refresh response the family refused (``RefreshResponseRefused``, such as an id token for another user) ends
///   the grant too: it is treated as compromised.
public struct RefreshPolicy: Sendable, Hashable {
    /// How long before its expiry an access token with a refresh token is refreshed, in seconds.
    public var skew: TimeInterval

    /// Creates the rules with a skew in seconds, held to 0 to a day (NaN is 0): a sign-in refuses any other
    /// (`OAuthSessionSettings.refreshSkew`), and a grant restored from a store is still refreshed by its expiry.
    public init(skew: TimeInterval) { self.skew = min(max(0, skew), 86_400) }

    /// Whether `grant` must be refreshed (or, without a refresh token, has ended) before it is used at `now`.
    public func needsRefresh(_ grant: OAuthGrant, at now: Date) -> Bool {
        guard let expiresAt = grant.expiresAt else { return false }
        let margin = grant.refreshToken == nil ? 0 : skew
        return expiresAt.addingTimeInterval(-margin) <= now
    }

    /// What a refresh that failed with `error` means.
    public func refusal(_ error: any Error) -> Refusal {
        if let refused = error as? RefreshResponseRefused { return .compromised(refused.reason) }
        guard let error = error as? OAuthError else { return .transient(error) }
        switch error.recovery {
        case .discardGrant where error.isClientErrorStatus: return .grantEnded(error)
        case .reconfigure where error.code == .invalidClient: return .clientRejected(error)
        default: return .transient(error)
        }
    }

    /// What a refused refresh means for the grant.
    public enum Refusal: Sendable {
        /// The server proved the grant dead: erase it; the user must sign in again.
        case grantEnded(OAuthError)
        /// The server refused the client's credentials: a configuration error; the grant is kept.
        case clientRejected(OAuthError)
        /// The family refused the refresh response: the grant is treated as compromised and erased; the reason is
        /// the family's error.
        case compromised(any Error)
        /// Anything else (network, 5xx, 429, a malformed answer): the grant is kept and the error reported.
        case transient(any Error)
    }
}

/// A refresh response a family refused although the server issued it, such as one whose id token names another user
/// than the sign-in's (OpenID Connect Core §12.2): the grant is treated as compromised, its new tokens are revoked,
/// and it is erased.
public struct RefreshResponseRefused: Error, Sendable, CustomStringConvertible {
    /// The family's error saying why.
    public let reason: any Error

    /// Refuses a refresh response for `reason`.
    public init(_ reason: any Error) { self.reason = reason }

    /// `The refresh response was refused: <reason>`.
    public var description: String { "The refresh response was refused: \(reason)" }
}

extension RefreshResponseRefused: SDKError {
    /// The reason's recovery; `ErrorRecovery.reauthorize` when the reason does not say (the grant has ended).
    public var recovery: ErrorRecovery { (reason as? any SDKError)?.recovery ?? .reauthorize }
}
