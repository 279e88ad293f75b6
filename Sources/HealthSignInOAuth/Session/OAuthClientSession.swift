import Foundation
import HealthSignInCore

/// An app's session with an OAuth server, as every OAuth family's session offers it: its status, an access token on
/// demand, calls replayed once after a refresh, and revocation, all from the ``OAuthSession`` it holds.
public protocol OAuthClientSession: Sendable {
    /// The family's rules.
    associatedtype Profile: OAuthProfile
    /// The OAuth session under the family's own steps.
    var oauth: OAuthSession<Profile> { get }
}

extension OAuthClientSession {
    /// Where the session stands, from the store.
    ///
    /// - Throws: the store's error when it cannot be read (e.g. a locked Keychain).
    public func status() async throws -> Profile.Status { try await oauth.status() }

    /// The status now, then every change: an authorization, a refresh (a new expiry), a grant ended by a refused
    /// refresh, revocation.
    public func statuses() -> AsyncStream<Profile.Status> { oauth.statuses() }

    /// What happens to the stored grant from now on (refreshed, discarded after a refusal, erased, found unreadable).
    public func events() -> AsyncStream<CredentialEvent> { oauth.events() }

    /// The key the grant is stored under (see ``OAuthSession/storeKey``).
    public var storeKey: String { oauth.storeKey }

    /// A usable access token, refreshed first when it expires within the refresh skew.
    ///
    /// - Throws: the family's needs-a-grant error when there is no grant or it is dead.
    public func accessToken() async throws -> BearerToken { try await oauth.accessToken() }

    /// Runs `call` with an access token; when the server says the token expired the token is refreshed once for all
    /// callers and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await oauth.withAccessToken(call)
    }

    /// Runs `call` with the grant's resource server, its access token and the session's options, refreshed and
    /// replayed as ``withAccessToken(_:)`` does; what a typed client of the resource server is built on.
    public func withResourceServerAccess<Result: Sendable>(
        _ call: @Sendable (ResourceServerAccess) async throws -> Result
    ) async throws -> Result {
        try await oauth.withResourceServerAccess(call)
    }

    /// Forgets the grant and asks the server to revoke it (RFC 7009): the refresh token when there is one, then the
    /// access token. After this returns no request carries the grant again.
    @discardableResult
    public func revoke() async throws -> RevocationOutcome { try await oauth.revoke() }
}
