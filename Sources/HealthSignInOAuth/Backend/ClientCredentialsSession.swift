import Foundation
import HealthSignInCore

/// The tokens a service obtains with its own credentials (RFC 6749 §4.4 `client_credentials`), on the lifecycle
/// every session runs on: the token is kept in the session's store until it is due for renewal, however many
/// callers ask at once one token request is made and they all get its result, and a call the server refuses as
/// expired gets a new token and is replayed once. Every token request authenticates the client afresh (a
/// `private_key_jwt` client signs a new assertion).
public final class ClientCredentialsSession: Sendable {
    /// A token and when it expires.
    public struct Token: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The access token's text.
        private let value: String
        /// The granted scopes.
        public let scope: String
        /// When it expires.
        public let expiresAt: Date
        /// When it is renewed: the renewal margin before it expires, or halfway through a shorter life.
        let renewAt: Date

        init(accessToken: BearerToken, scope: String, expiresAt: Date, renewAt: Date) {
            (value, self.scope, self.expiresAt, self.renewAt) = (accessToken.value, scope, expiresAt, renewAt)
        }

        /// The access token.
        public var accessToken: BearerToken { BearerToken(value) }

        /// The scope and expiry; the token is redacted.
        public var description: String {
            "ClientCredentialsSession.Token(\(accessToken), scope: \(scope), expiresAt: "
                + "\(DateTimeText.format(expiresAt)))"
        }
    }

    /// The service's registration: its client (id and key or secret), the server and what is trusted of it.
    public let registration: OAuthRegistration
    /// The scopes asked for, e.g. `system/*.rs`.
    public let scope: String
    let credentials: CredentialSession<ClientCredentialsPolicy>
    private let policy: ClientCredentialsPolicy

    /// The key the token is kept under: the settings' key, or `<family>.service.` and a digest of the registration's
    /// base URL, client id and scope, so that no other registration ever reads it. A token stored for another
    /// registration is never sent; when the settings' key holds one, the token is kept under the derived key.
    public var storeKey: String { credentials.key }

    /// Creates a session; nothing is sent until a token is needed.
    ///
    /// - Parameters:
    ///   - registration: the service's registration.
    ///   - scope: the scopes asked for.
    ///   - renewalMargin: how long before its expiry a token is renewed, in seconds: 0 to a year (anything else fails
    ///     each call with `ConfigurationError.invalidSetting`, before a request is sent).
    ///   - settings: the store (in memory for a service, typically), its key (derived from the registration and the
    ///     scope when nil), the connection and the clock.
    ///   - discovery: finds the registration's token endpoint.
    public init(
        registration: OAuthRegistration, scope: String, renewalMargin: TimeInterval, settings: OAuthSessionSettings,
        discovery: OAuthDiscovery
    ) {
        self.registration = registration
        self.scope = scope
        let policy = ClientCredentialsPolicy(
            registration: registration, scope: scope, renewalMargin: renewalMargin, settings: settings,
            discovery: discovery)
        self.policy = policy
        credentials = CredentialSession(
            store: settings.store,
            key: CredentialKey(
                configured: settings.storeKey, prefix: discovery.family.lowercased() + ".service",
                registrations: [policy.recorded]),
            policy: policy, clock: settings.clock, logger: settings.options.logger, category: discovery.family)
    }

    /// A token valid at least until its renewal time: the kept one, or the result of the one request every
    /// concurrent caller shares.
    ///
    /// - Throws: `OAuthError` (`invalid_client` for a refused assertion, `invalid_scope`), ``SignInError`` for
    ///   discovery, `JOSEError` when the assertion cannot be signed, and the request's errors.
    public func token() async throws -> Token {
        guard let token = try await credentials.access().credential.token else {
            throw CredentialLifecycleError.superseded
        }
        return token
    }

    /// Proves this instance's credentials (its private key or secret, its client id, the scope) by asking the
    /// authorization server for a token, which is not kept: what a server runs before it reports ready, so an instance
    /// started with the wrong key fails its start with the server's reason instead of answering on the fleet's shared
    /// token until a renewal lands on it.
    ///
    /// - Throws: what ``token()`` throws for a token request: `OAuthError` (`invalid_client` for a refused assertion),
    ///   ``SignInError``, `JOSEError`, the request's errors.
    public func verifyCredentials() async throws {
        _ = try await policy.requestToken()
    }

    /// Forgets `stale` (a token the server refused), so the next ``token()`` asks for a new one.
    public func invalidate(_ stale: Token) async throws {
        try await credentials.transition { transition in
            guard try await transition.current()?.token == stale else { return }
            try await transition.store(ClientCredentialsPolicy.State(token: nil))
        }
    }

    /// Runs `call` with a token; when the server refuses it as expired (`invalid_token`, or a bare 401) a new token
    /// is requested once for all callers and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await withResourceServerAccess { access in try await call(access.token) }
    }
}

extension ClientCredentialsSession: ResourceServerAccessProvider {
    /// Runs `call` with the registration's base URL, a token, and the settings' options whose transport refuses to
    /// send once the token has been replaced; renewed and replayed as ``withAccessToken(_:)`` does.
    public func withResourceServerAccess<Result: Sendable>(
        _ call: @Sendable (ResourceServerAccess) async throws -> Result
    ) async throws -> Result {
        let (baseURL, settings) = (registration.baseURL, policy.settings)
        return try await credentials.withCredential { access in
            guard let token = access.credential.token else { throw CredentialLifecycleError.superseded }
            var options = settings.options
            options.transport = access.lease.guarding(options.transport)
            return try await call(ResourceServerAccess(baseURL: baseURL, token: token.accessToken, options: options))
        }
    }
}

/// The lifecycle's rules for a client-credentials token: obtained on first use, renewed before it expires, never a
/// grant to end (a refused request keeps nothing to discard).
struct ClientCredentialsPolicy: CredentialPolicy {
    /// What is stored: the current token, if any.
    struct State: Sendable, Equatable, Codable {
        var token: ClientCredentialsSession.Token?
    }

    let registration: OAuthRegistration
    let scope: String
    let renewalMargin: TimeInterval
    let settings: OAuthSessionSettings
    let discovery: OAuthDiscovery

    /// What the token is stored with: the registration's base URL and client id, and the scope.
    var recorded: CredentialRegistration {
        registration.credentialRegistration(family: discovery.family, scope: scope)
    }

    func initialState() -> State? { State(token: nil) }

    func registration(of state: State) -> CredentialRegistration? { recorded }

    func accepts(_ registration: CredentialRegistration) -> Bool { registration == recorded }

    /// None: a token stored without its registration (under the key every registration of the family once shared)
    /// may be another's, and a new one costs one request.
    func claimsUnrecorded(_ state: State) -> Bool { false }

    func credential(in state: State) -> State? { state }

    func state(_ state: State, replacing credential: State) -> State { credential }

    func missingCredentialError(in state: State?) -> any Error { CredentialLifecycleError.superseded }

    func needsRefresh(_ credential: State, at now: Date) -> Bool {
        guard let token = credential.token else { return true }
        return token.renewAt <= now
    }

    func refresh(_ credential: State, lease: CredentialLease) async throws -> State {
        try await requestToken()
    }

    /// A new token from the token endpoint; nothing is sent with a margin that is NaN, negative or past a year (a
    /// renewal time that is not a date could never be stored).
    func requestToken() async throws -> State {
        let margin = try ConfigurationError.checked(renewalMargin, named: "renewalMargin", in: 0...31_536_000)
        let server = AuthorizationServer(
            endpoints: try await discovery.endpoints(for: registration), client: registration.client,
            options: settings.options)
        let response = try await server.token(.clientCredentials(.init(scope: scope)))
        let receivedAt = settings.clock.now()
        let grant: OAuthGrant
        do {
            grant = try OAuthGrant(response, receivedAt: receivedAt)
        } catch let error as TokenResponseError {
            throw SignInError(
                .malformedTokenResponse, "the token response cannot be used: \(error.reason)",
                family: discovery.family)
        }
        settings.options.logger.log(.debug, discovery.family, "service token received")
        // Without expires_in the token is used for five minutes at most.
        let expiresAt = grant.expiresAt ?? receivedAt.addingTimeInterval(300)
        // A token that lives no longer than the margin is still kept for half its life, not asked for on every call.
        let life = expiresAt.timeIntervalSince(receivedAt)
        return State(
            token: ClientCredentialsSession.Token(
                accessToken: grant.bearer, scope: grant.scope ?? scope, expiresAt: expiresAt,
                renewAt: expiresAt.addingTimeInterval(-min(margin, life / 2))))
    }

    /// Nothing is discarded: a refused request leaves no grant behind, and the next call asks again.
    func refusal(of credential: State, error: any Error) -> CredentialRefusal<State> { .keep(error) }
}

extension ClientCredentialsSession.Token: CustomReflectable {
    /// A mirror that shows the same as the description: the token is redacted.
    public var customMirror: Mirror { Mirror(self, children: ["token": description]) }
}
