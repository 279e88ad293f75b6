import Foundation
import HealthSignInCore

/// The session every OAuth family's app session runs on: discovery with trust per registration, the authorization
/// request and its answer, the code's redemption with OpenID Connect, the grant in a `CredentialSession` refreshed
/// once for all callers, bearer calls replayed once after the server says the token expired, and revocation.
///
/// New tokens are written to the store before they are used, and a rotated refresh token replaces the old one; once a
/// token response has arrived its tokens are kept, also when a later local step fails. Only a refusal that proves
/// the grant dead (``RefreshPolicy``), or an id token that proves it compromised, erases it; network errors, 5xx and
/// 429 never do.
public final class OAuthSession<Profile: OAuthProfile>: Sendable {
    /// The family's rules.
    public let profile: Profile
    /// The lifecycle of the stored state.
    package let credentials: CredentialSession<OAuthCredentialPolicy<Profile>>
    /// Finds the registrations' endpoints.
    package let discovery: OAuthDiscovery

    /// Creates a session; stored state is read on first use.
    public init(profile: Profile) {
        self.profile = profile
        let settings = profile.settings
        let key = CredentialKey(
            configured: settings.storeKey, prefix: profile.family.lowercased() + ".session",
            registrations: profile.registrations.map { $0.credentialRegistration(family: profile.family) })
        discovery = OAuthDiscovery(
            family: profile.family, urlPolicy: settings.options.urlPolicy, store: settings.store,
            storeKey: key.primary + ".endpoints", protocolNames: profile.authorizationParameterNames
        ) { base in try await profile.advertisedEndpoints(at: base) }
        credentials = CredentialSession(
            store: settings.store, key: key, policy: OAuthCredentialPolicy(profile: profile, discovery: discovery),
            clock: settings.clock, logger: settings.options.logger, category: profile.family)
    }

    /// The key the state is stored under: the settings' key, or `<family>.session.` and a digest of the
    /// registrations' base URLs and client ids, so that sessions of other registrations sharing the store never read
    /// it. The grant is stored with the registration that issued it, and a grant stored for a registration this
    /// session does not have is never sent; when the settings' key holds one, the state is kept under the derived
    /// key.
    public var storeKey: String { credentials.key }

    // MARK: - Discovery

    /// The endpoints of `registration`, as discovery finds them (configured ones, then what its metadata advertises,
    /// each on an origin the registration trusts), once its issuer is known to belong to it alone.
    ///
    /// - Parameters:
    ///   - registration: the server's registration.
    ///   - needed: the endpoints the caller cannot do without; the token endpoint always is.
    /// - Throws: ``SignInError``; `ConfigurationError.insecureURL`; the metadata request's errors.
    public func endpoints(for registration: OAuthRegistration, needing needed: Set<EndpointName> = []) async throws
        -> OAuthEndpoints
    {
        let endpoints = try await discovery.endpoints(for: registration, needing: needed)
        try await checkIssuerBelongs(to: registration, endpoints: endpoints)
        return endpoints
    }

    /// One issuer belongs to one registration (RFC 9700 §4.4): a registration whose trusted origins hold the issuer
    /// `endpoints` name must not have the same issuer, or answers and id tokens of the two could not be told apart.
    private func checkIssuerBelongs(to registration: OAuthRegistration, endpoints: OAuthEndpoints) async throws {
        let issuer = endpoints.expectedIssuer
        guard let url = URL(string: issuer) else { return }
        for other in profile.registrations
        where other.baseURL.absoluteString != registration.baseURL.absoluteString && other.trustedOrigins.contains(url)
        {
            let theirs = try await discovery.endpoints(for: other).expectedIssuer
            guard theirs == issuer else { continue }
            throw SignInError(
                .invalidConfiguration,
                "the servers at \(registration.baseURL.absoluteString) and \(other.baseURL.absoluteString) both name "
                    + "the issuer \(issuer); an issuer belongs to one registration, so the trust of one of them is wrong",
                family: profile.family)
        }
    }

    // MARK: - Authorization

    /// A new authorization request at `registration`: its endpoints (with the authorization endpoint), checked for
    /// a safe configuration, and fresh secrets. Nothing is stored: a browser flow stores it with
    /// ``beginAuthorization(at:openID:)``; a flow whose answer comes back in the same call keeps it in hand.
    ///
    /// - Parameters:
    ///   - registration: the server's registration.
    ///   - openID: whether `openid` is asked for, so a `nonce` is sent.
    ///   - stateBytes: how many random bytes `state` has: 16 to 1,024 (fewer could be guessed; RFC 9700 §4.7.1).
    ///   - usesPKCE: whether the request carries the PKCE challenge, given the endpoints; by default always.
    /// - Throws: `ConfigurationError.invalidSetting` for `stateBytes` outside 16 to 1,024, or a time of the settings
    ///   outside its range (``OAuthSessionSettings/refreshSkew``, ``OAuthSessionSettings/pendingLifetime``);
    ///   ``SignInError`` with ``SignInError/Code/invalidConfiguration`` when the registration has no redirect
    ///   URI, or shares its redirect URI with another while its server does not name itself in its answers (RFC 9700
    ///   §4.4.2: the answers could not be told apart); discovery's errors.
    public func newAuthorization(
        at registration: OAuthRegistration, openID: Bool, stateBytes: Int = 32,
        usesPKCE: @Sendable (OAuthEndpoints) -> Bool = { _ in true }
    ) async throws -> PendingAuthorization {
        _ = try ConfigurationError.checked(stateBytes, named: "stateBytes", in: 16...1_024)
        try profile.settings.checkTimes()
        let bases = profile.registrations.map(\.baseURL.absoluteString)
        if let twice = bases.first(where: { base in bases.filter { $0 == base }.count > 1 }) {
            throw SignInError(
                .invalidConfiguration, "two registrations are for \(twice); a server has one registration",
                family: profile.family)
        }
        guard let redirectURI = registration.redirectURI else {
            throw SignInError(
                .invalidConfiguration,
                "the registration at \(registration.baseURL.absoluteString) has no redirect URI", family: profile.family
            )
        }
        let endpoints = try await endpoints(for: registration, needing: [.authorization])
        if !endpoints.issuerParameterSupported,
            let other = profile.registrations.first(where: {
                $0.redirectURI == redirectURI && $0.baseURL.absoluteString != registration.baseURL.absoluteString
            })
        {
            throw SignInError(
                .invalidConfiguration,
                "the server at \(registration.baseURL.absoluteString) does not name itself in its answers (RFC 9207), "
                    + "so its redirect URI must be its own, but \(other.baseURL.absoluteString) has it too; give each "
                    + "registration a redirect URI of its own",
                family: profile.family)
        }
        let settings = profile.settings
        return PendingAuthorization(
            random: settings.random, stateBytes: stateBytes, openID: openID, usesPKCE: usesPKCE(endpoints),
            redirectURI: redirectURI, endpoints: endpoints, startedAt: settings.clock.now())
    }

    /// ``newAuthorization(at:openID:stateBytes:usesPKCE:)``, stored (replacing an older one) so that it survives the app being
    /// ended while the user is in the browser.
    public func beginAuthorization(at registration: OAuthRegistration, openID: Bool) async throws
        -> PendingAuthorization
    {
        let pending = try await newAuthorization(at: registration, openID: openID)
        try await credentials.transition { transition in
            try await transition.store { OAuthSessionState(grant: $0?.grant, pending: pending) }
        }
        profile.log(.info, "authorization started")
        return pending
    }

    /// Completes the stored authorization with the redirect URL the browser handed back: checks it
    /// (``PendingAuthorization/code(from:at:lifetime:family:)``), redeems the code with the PKCE verifier, validates
    /// the id token, and stores the grant, replacing any other.
    ///
    /// - Throws: ``SignInError``: ``SignInError/Code/noPendingAuthorization``; a redirect that is not the
    ///   request's answer (the authorization keeps waiting); after the answer, what ``redeem(code:pending:send:)``
    ///   throws. Nothing is stored after an error, but a grant whose id token could not yet be checked.
    public func completeAuthorization(redirectURL: URL) async throws -> OAuthSessionGrant<Profile.Context> {
        try await authorize { transition in
            guard let pending = try await transition.current()?.pending else {
                throw SignInError(
                    .noPendingAuthorization, "no authorization is waiting for a redirect; \(self.profile.signInAgain)",
                    family: self.profile.family)
            }
            let settings = self.profile.settings
            let code: Result<String, SignInError>
            do throws(SignInError) {
                code = .success(
                    try pending.code(
                        from: redirectURL, at: settings.clock.now(), lifetime: settings.pendingLifetime,
                        family: self.profile.family))
            } catch {
                guard error.recovery != .none else { throw error }
                code = .failure(error)
            }
            // The redirect answered this authorization, whatever its outcome.
            try await transition.update { OAuthSessionState(grant: $0.grant, pending: nil) }
            return try await self.redeem(code: try code.get(), pending: pending)
        }
    }

    /// Runs a sign-in step (`body` returns the new grant) after every earlier step has finished, and stores its grant,
    /// replacing any other. A grant `body` throws as ``UncheckedGrant`` is stored and its error rethrown.
    package func authorize(
        _ body:
            @Sendable (CredentialTransition<OAuthCredentialPolicy<Profile>>) async throws -> OAuthSessionGrant<
                Profile.Context
            >
    ) async throws -> OAuthSessionGrant<Profile.Context> {
        try await credentials.transition { transition in
            let grant: OAuthSessionGrant<Profile.Context>
            do {
                grant = try await body(transition)
            } catch let unchecked as UncheckedGrant<Profile.Context> {
                try await transition.store(OAuthSessionState(grant: unchecked.grant))
                throw unchecked.error
            }
            try await transition.store(OAuthSessionState(grant: grant))
            self.profile.log(.info, "authorized")
            return grant
        }
    }

    /// Redeems `code` at the token endpoint of `pending`'s registration (with the PKCE verifier and the same
    /// redirect URI), validates the response's id token as OpenID Connect Core §3.1.3.7 says, and returns the grant
    /// with the family's context.
    ///
    /// - Parameters:
    ///   - code: the authorization code.
    ///   - pending: the request it answers.
    ///   - send: sends the token request; by default once, to the pending request's token endpoint.
    /// - Throws: ``SignInError``: ``SignInError/Code/clientRejected`` or ``SignInError/Code/codeRejected`` with the
    ///   server's error, ``SignInError/Code/malformedTokenResponse``, ``SignInError/Code/idTokenRejected``;
    ///   ``UncheckedGrant`` when the id token cannot be checked yet (its key set is unreachable); the request's errors.
    public func redeem(
        code: String, pending: PendingAuthorization,
        send: (@Sendable (AuthorizationServer, RequestToken.Request) async throws -> TokenResponse)? = nil
    ) async throws -> OAuthSessionGrant<Profile.Context> {
        let registration = try profile.registration(for: pending.endpoints.baseURL)
        // Stored endpoints are checked again: the store is outside data too.
        try discovery.check(pending.endpoints, for: registration)
        let server = AuthorizationServer(
            endpoints: pending.endpoints, client: registration.client, options: profile.settings.options)
        let request = RequestToken.Request.authorizationCode(
            .init(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.verifierToSend))
        let response: TokenResponse
        do {
            if let send {
                response = try await send(server, request)
            } else {
                response = try await server.token(request)
            }
        } catch let error as OAuthError where error.code == .invalidClient {
            throw profile.clientRejected(error)
        } catch let error as OAuthError {
            throw SignInError(
                .codeRejected, "the token endpoint did not accept the authorization code; \(profile.signInAgain)",
                family: profile.family, serverError: error)
        }
        var grant = OAuthSessionGrant(
            tokens: try profile.grant(response, previous: nil),
            context: try profile.checkedContext(response, previous: nil, registration: registration))
        guard let idToken = response.idToken, profile.openID != nil else { return grant }
        grant.tokens.idTokenCheck = IDTokenCheck(
            token: idToken, nonce: pending.nonce, atSignIn: true, receivedAt: profile.settings.clock.now())
        do {
            return try await OpenIDCheck(profile: profile, server: server).complete(grant, registration: registration)
        } catch let error as OpenIDCheck<Profile>.Unreachable {
            profile.log(.warning, "the id token cannot be checked yet; the grant is kept and checked on next use")
            throw UncheckedGrant(grant: grant, error: error.underlying)
        }
    }

    // MARK: - Status

    /// Where the session stands, from the store.
    ///
    /// - Throws: the store's error when it cannot be read.
    public func status() async throws -> Profile.Status {
        profile.status(of: try await credentials.current())
    }

    /// The status now, then every change: an authorization started or completed, a refresh (a new expiry), a grant
    /// ended by a refused refresh, revocation.
    public func statuses() -> AsyncStream<Profile.Status> {
        let profile = profile
        return credentials.statuses { profile.status(of: $0) }
    }

    /// What happens to the stored grant from now on.
    public func events() -> AsyncStream<CredentialEvent> { credentials.events() }

    // MARK: - Tokens and calls

    /// A usable access token, refreshed first when it expires within the refresh skew.
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/needsSignIn`` when there is no grant or it is dead.
    public func accessToken() async throws -> BearerToken {
        try await credentials.access().credential.tokens.bearer
    }

    /// Runs `call` with an access token; when the server says the token expired (`invalid_token`, an expiry the
    /// family's errors name, or a bare 401) the token is refreshed once for all callers and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await credentials.withCredential { access in try await call(access.credential.tokens.bearer) }
    }

    /// A request to `path` under the grant's resource server, with the access token, refreshed and replayed as
    /// ``withAccessToken(_:)`` does. Nothing is sent once the grant has been revoked.
    ///
    /// - Throws: the resource server's typed errors, `UnexpectedResponseError`, and ``SignInError`` for a missing
    ///   grant or a stored server the configuration does not allow.
    public func resource(
        _ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init(), body: Data? = nil,
        contentType: String? = nil, accept: String? = nil
    ) async throws -> HTTPResponseMessage {
        let profile = profile
        return try await credentials.withCredential { access in
            let grant = access.credential
            return try await profile.resourceServer(of: grant, registration: try profile.registration(of: grant)).send(
                method, path, query: query, body: body, contentType: contentType, accept: accept,
                token: grant.tokens.bearer, transport: access.lease.guarding(profile.settings.options.transport))
        }
    }

    /// Runs `call` with the grant's resource server, its access token, and options whose transport refuses to send
    /// once the grant has been revoked or replaced; refreshed and replayed as ``withAccessToken(_:)`` does.
    ///
    /// - Throws: what `call` throws, and ``SignInError`` for a missing grant or a stored server the configuration
    ///   does not allow.
    public func withResourceServerAccess<Result: Sendable>(
        _ call: @Sendable (ResourceServerAccess) async throws -> Result
    ) async throws -> Result {
        let profile = profile
        return try await credentials.withCredential { access in
            let grant = access.credential
            let server = profile.resourceServer(of: grant, registration: try profile.registration(of: grant))
            var options = server.options
            options.transport = access.lease.guarding(options.transport)
            return try await call(
                ResourceServerAccess(baseURL: server.baseURL, token: grant.tokens.bearer, options: options))
        }
    }

    // MARK: - Revocation

    /// Forgets the grant and asks the server to revoke it (RFC 7009): the refresh token when there is one, then the
    /// access token. A refresh in flight finishes first, so the tokens revoked are the newest; after this returns no
    /// request carries the grant again. An authorization waiting for its redirect is forgotten too.
    @discardableResult
    public func revoke() async throws -> RevocationOutcome {
        let (profile, discovery) = (profile, discovery)
        return try await credentials.transition { transition in
            guard let grant = try await transition.erase(settlingRefresh: true)?.grant else { return .nothingToRevoke }
            let outcome: RevocationOutcome
            do {
                let registration = try profile.registration(of: grant)
                outcome = await AuthorizationServer(
                    endpoints: try await discovery.endpoints(for: registration), client: registration.client,
                    options: profile.settings.options
                ).revoke(grant.tokens)
            } catch {
                outcome = .failed(error)
            }
            switch outcome {
            case .revoked: profile.log(.info, "revoked the grant")
            case .failed: profile.log(.warning, "revocation did not reach the server; the grant is forgotten locally")
            case .nothingToRevoke, .unsupportedByServer: break
            }
            return outcome
        }
    }
}

/// A grant whose token response arrived but whose id token could not be checked yet (its key set was unreachable):
/// the grant is stored, since the authorization code is spent, and `error` is reported; the check finishes on its
/// next use.
public struct UncheckedGrant<Context: Codable & Sendable & Equatable>: Error, Sendable {
    /// The grant to store.
    public let grant: OAuthSessionGrant<Context>
    /// Why the check could not finish.
    public let error: any Error
}

extension OAuthSession: ResourceServerAccessProvider {}

extension OAuthProfile {
    /// The tokens `response` gives over `previous`, or a ``SignInError`` with
    /// ``SignInError/Code/malformedTokenResponse``.
    func grant(_ response: TokenResponse, previous: OAuthGrant?) throws -> OAuthGrant {
        do {
            return try OAuthGrant(response, previous: previous, receivedAt: settings.clock.now())
        } catch let error as TokenResponseError {
            throw SignInError(
                .malformedTokenResponse, "the token response cannot be used: \(error.reason)", family: family)
        }
    }

    /// The family's context for `response`, a token response it cannot use as a ``SignInError``.
    func checkedContext(_ response: TokenResponse, previous: Context?, registration: OAuthRegistration) throws
        -> Context
    {
        do {
            return try context(response, previous: previous, registration: registration)
        } catch let error as TokenResponseError {
            throw SignInError(
                .malformedTokenResponse, "the token response cannot be used: \(error.reason)", family: family)
        }
    }
}
