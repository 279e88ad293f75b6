import Foundation
import HealthSignInCore

/// What an OAuth family adds to the session every OAuth family shares: what it keeps beside the tokens, how it
/// names its errors, where a grant's servers are, and how apps see the session.
///
/// The family's session (`KoppeltaalSession`, `SMARTSession`) holds an ``OAuthSession`` with its profile; the layer
/// does the rest: storing, refreshing once for all callers, discarding a grant the server proved dead, bearer calls
/// and revocation.
public protocol OAuthProfile: Sendable {
    /// What the family keeps beside the tokens, such as its launch context.
    associatedtype Context: Codable & Sendable & Equatable
    /// Where a session of the family stands, as apps see it.
    associatedtype Status: Sendable & Equatable

    /// The family's name, for log records and operation ids.
    var family: String { get }
    /// How the session reaches servers and keeps its state.
    var settings: OAuthSessionSettings { get }
    /// Finds the endpoints of a grant's authorization server.
    var discovery: OAuthDiscovery { get }

    /// What apps see for `state`.
    func status(of state: OAuthSessionState<Context>?) -> Status
    /// The family's error when there is no usable grant; `refusal` is the server's answer that ended one.
    func needsGrant(_ refusal: OAuthError?) -> any Error
    /// The family's error when the server refused the client's credentials (the grant is kept).
    func clientRejected(_ refusal: OAuthError) -> any Error
    /// The family's error for a layer error it names differently (a token response or endpoint it cannot use);
    /// other errors as they are.
    func familyError(_ error: any Error) -> any Error
    /// The app's registration at the authorization server that issued `grant`, checked against the configuration:
    /// refreshing and revoking the grant send that registration's credential, and only to that server.
    func registration(of grant: OAuthSessionGrant<Context>) throws -> OAuthRegistration
    /// The server `grant`'s access token is for, checked against the configuration.
    func resourceServer(of grant: OAuthSessionGrant<Context>) throws -> ResourceServer
    /// The context a refresh response gives over `previous` (a refresh response may leave the context out).
    func context(refreshedBy response: TokenResponse, previous: Context) throws -> Context
    /// Checks what a refresh response carries beyond the tokens, before anything is stored, and returns the tokens
    /// to keep; SMART validates the response's id token here (OpenID Connect Core §12.2). Throw
    /// ``RefreshResponseRefused`` to refuse the response: the grant then ends as compromised. Any other error leaves
    /// the grant as it was. The default keeps `tokens` as they are.
    func verify(
        refreshed tokens: OAuthGrant, from response: TokenResponse, previous: OAuthSessionGrant<Context>,
        server: AuthorizationServer
    ) async throws -> OAuthGrant
}

extension OAuthProfile {
    /// Keeps `tokens` as they are.
    public func verify(
        refreshed tokens: OAuthGrant, from response: TokenResponse, previous: OAuthSessionGrant<Context>,
        server: AuthorizationServer
    ) async throws -> OAuthGrant {
        tokens
    }
}

/// How an OAuth session reaches its servers and keeps its state.
public struct OAuthSessionSettings: Sendable {
    /// The transport, URL policy, timeout, logger and middlewares of every request.
    public var options: ClientOptions
    /// When grants are refreshed.
    public var refresh: RefreshPolicy
    /// Where the state is kept.
    public var store: any CredentialStore
    /// The key it is kept under.
    public var storeKey: String
    /// Decides when tokens expire.
    public var clock: any TimeSource

    /// Creates settings.
    public init(
        options: ClientOptions, refresh: RefreshPolicy, store: any CredentialStore, storeKey: String,
        clock: any TimeSource
    ) {
        self.options = options
        self.refresh = refresh
        self.store = store
        self.storeKey = storeKey
        self.clock = clock
    }
}
