import Foundation
import HealthSignInCore

/// An id token that arrived with a token response and is still to be checked, kept with the grant so that the check
/// can finish later when the server's key set cannot be read now: the tokens are never dropped for that, since the
/// server has already spent the code or rotated the refresh token.
public struct IDTokenCheck: Sendable, Equatable, Codable {
    /// The id token.
    public var token: String
    /// The `nonce` the sign-in's request sent, which a sign-in's id token must carry.
    public var nonce: String?
    /// Whether it is the sign-in's id token (OpenID Connect Core §3.1.3.7) rather than a refresh's (§12.2).
    public var atSignIn: Bool
    /// When it arrived: its times are checked as of then.
    public var receivedAt: Date

    /// Creates a check.
    public init(token: String, nonce: String?, atSignIn: Bool, receivedAt: Date) {
        self.token = token
        self.nonce = nonce
        self.atSignIn = atSignIn
        self.receivedAt = receivedAt
    }
}

extension IDTokenCheck: CustomStringConvertible, CustomReflectable {
    /// What is checked, and when the token arrived; the token and nonce are redacted.
    public var description: String {
        "IDTokenCheck(\(atSignIn ? "sign-in" : "refresh"), receivedAt: \(DateTimeText.format(receivedAt)), "
            + "token: \(Redaction.placeholder))"
    }

    /// A mirror that shows the same as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["check": description]) }
}

/// OpenID Connect in one place: the id token of a sign-in is checked as OpenID Connect Core §3.1.3.7 says (the
/// registration's issuer, the client, the nonce, `at_hash`, the times and the key), and that of a refresh as §12.2
/// says (the same issuer, user and client as the sign-in's). A family gives only its ``OpenIDPolicy`` and what the
/// identity means for its context.
struct OpenIDCheck<Profile: OAuthProfile>: Sendable {
    /// The server's key set could not be read: the check is not over, and the grant must be kept.
    struct Unreachable: Error {
        let underlying: any Error
    }

    let profile: Profile
    let server: AuthorizationServer

    /// `grant` with its id token checked: kept as the grant's, and for a sign-in's, its identity in the context.
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/idTokenRejected`` when the token fails (or the server has no
    ///   key set); ``Unreachable`` when the key set cannot be read.
    func complete(_ grant: OAuthSessionGrant<Profile.Context>, registration: OAuthRegistration) async throws
        -> OAuthSessionGrant<Profile.Context>
    {
        guard let check = grant.tokens.idTokenCheck, let policy = profile.openID else { return grant }
        guard server.endpoints.jwks != nil else { throw rejected(.noKey(keyID: nil)) }
        let keys: JSONWebKeySet
        do {
            keys = try await server.keys()
        } catch {
            throw Unreachable(underlying: error)
        }
        var grant = grant
        let expected = policy.expectations(
            issuer: server.endpoints.expectedIssuer, clientID: registration.client.clientID, nonce: check.nonce,
            accessToken: grant.tokens.accessToken)
        do {
            if check.atSignIn {
                let identity = try IDToken(
                    validating: check.token, keys: keys, expecting: expected, now: check.receivedAt)
                grant.context = profile.context(grant.context, signedInAs: identity, registration: registration)
            } else if let original = grant.tokens.idToken {
                _ = try IDToken(
                    validating: check.token, refreshing: try IDToken(previouslyValidated: original), keys: keys,
                    expecting: expected, now: check.receivedAt)
            }
        } catch {
            profile.log(.warning, "the id token was refused: \(error.description)")
            throw rejected(error)
        }
        grant.tokens.idToken = check.token
        grant.tokens.idTokenCheck = nil
        return grant
    }

    private func rejected(_ error: IDTokenError) -> SignInError {
        SignInError(
            .idTokenRejected, "the id token was refused, so the sign-in is not trusted: \(error)",
            family: profile.family, underlying: error)
    }
}
