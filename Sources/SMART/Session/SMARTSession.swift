import Foundation
@_spi(Generated) import SDKRuntime

/// The app's side of SMART App Launch: standalone and EHR launch with PKCE, the redirect, OpenID Connect sign-in,
/// the token lifecycle, FHIR calls and revocation.
///
/// ```swift
/// let session = SMARTSession(configuration: .init(
///     clientID: "my-app", redirectURI: "myapp://smart/callback",
///     fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
///     store: KeychainCredentialStore(service: "app.smart")))
/// let url = try await session.standaloneAuthorizationURL()     // open it in the browser
/// // … the browser hands back the redirect URL:
/// let context = try await session.completeAuthorization(redirectURL: redirect)
/// let patient = try await session.fhir(path: "Patient/\(context.patient ?? "")")
/// ```
///
/// The pending request (state, PKCE verifier, nonce) is stored until its redirect arrives, so it survives the app
/// being ended while the user is in the browser. The grant lives in a `CredentialSession`: new tokens are written to
/// the store before they are used, a rotated refresh token replaces the old one, and concurrent calls that find the
/// access token expired share one refresh. Only `invalid_grant` (and `unauthorized_client`) on refresh ends the
/// grant; network errors, 5xx and 429 never do.
public final class SMARTSession: Sendable {
    /// The app's registration, the servers it trusts, and where the session keeps its state.
    public struct Configuration: Sendable {
        /// The app's OAuth client and how it authenticates: public (`none`), `client_secret_basic`, or
        /// `private_key_jwt`.
        public var client: OAuthClientCredentials
        /// The app's registered redirect URI.
        public var redirectURI: String
        /// The scopes asked for; an EHR launch adds `launch` when missing.
        public var scope: String
        /// The FHIR server of a standalone launch.
        public var fhirBaseURL: URL?
        /// The FHIR servers an EHR launch's `iss` may name (the standalone server is always allowed). Any other is
        /// refused before anything is sent to it, so a crafted launch link cannot make the app talk to a stranger.
        public var allowedIssuers: [URL]
        /// Hosts besides the FHIR server's that its authorization, token and key endpoints may be on.
        public var trustedEndpointHosts: [String]
        /// The algorithms accepted for id tokens; RS256 is OpenID Connect's baseline.
        public var idTokenAlgorithms: Set<JWSAlgorithm>
        /// How far the server's clock may differ from this device's when id tokens are checked, in seconds.
        public var clockLeeway: TimeInterval
        /// How long an authorization may wait for its redirect, in seconds.
        public var pendingLifetime: TimeInterval
        /// The transport, URL policy, timeout, logger and middlewares of every request.
        public var options: ClientOptions
        /// How long before its expiry an access token is refreshed.
        public var refreshSkew: TimeInterval
        /// Where the grant and a pending authorization are kept.
        public var store: any CredentialStore
        /// The key they are stored under.
        public var storeKey: String
        /// Decides when tokens expire and id tokens are current.
        public var clock: any WallClock
        /// Makes `state`, `nonce` and PKCE verifiers.
        public var random: any RandomSource

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - clientID: the registered client id.
        ///   - clientSecret: the secret of a confidential client (sent as `client_secret_basic`); nil for a
        ///     public client, which native apps are.
        ///   - signer: the key of a `private_key_jwt` client; wins over `clientSecret`.
        ///   - redirectURI: the registered redirect URI.
        ///   - scope: the scopes to ask for.
        ///   - fhirBaseURL: the FHIR server of a standalone launch.
        ///   - allowedIssuers: further FHIR servers an EHR launch may come from.
        ///   - trustedEndpointHosts: hosts besides the FHIR server's its endpoints may be on.
        ///   - idTokenAlgorithms: the algorithms accepted for id tokens.
        ///   - clockLeeway: how far the server's clock may be off when id tokens are checked, in seconds.
        ///   - pendingLifetime: how long an authorization may wait for its redirect, in seconds.
        ///   - urlPolicy: which URLs requests may go to.
        ///   - refreshSkew: how long before its expiry an access token is refreshed.
        ///   - store: where the grant and a pending authorization are kept.
        ///   - storeKey: the key they are stored under.
        ///   - transport: sends the requests.
        ///   - clock: decides when tokens expire.
        ///   - random: makes `state`, `nonce` and PKCE verifiers.
        ///   - timeout: the timeout of each request.
        ///   - logger: receives redacted records.
        ///   - middlewares: run around every request, in order.
        public init(
            clientID: String, clientSecret: String? = nil, signer: ClientAssertionSigner? = nil,
            redirectURI: String, scope: String = "launch/patient openid fhirUser offline_access patient/*.rs",
            fhirBaseURL: URL? = nil, allowedIssuers: [URL] = [], trustedEndpointHosts: [String] = [],
            idTokenAlgorithms: Set<JWSAlgorithm> = [.rs256], clockLeeway: TimeInterval = 120,
            pendingLifetime: TimeInterval = 600, urlPolicy: URLPolicy = .init(), refreshSkew: TimeInterval = 60,
            store: any CredentialStore, storeKey: String = "smart.session",
            transport: any HTTPTransport = URLSessionTransport(), clock: any WallClock = SystemClock(),
            random: any RandomSource = SystemRandomSource(), timeout: TimeInterval? = nil,
            logger: (any LogSink)? = nil, middlewares: [any ClientMiddleware] = []
        ) {
            client =
                signer.map { OAuthClientCredentials(clientID: clientID, signer: $0) }
                ?? OAuthClientCredentials(clientID: clientID, secret: clientSecret, method: .basic)
            self.redirectURI = redirectURI
            self.scope = scope
            self.fhirBaseURL = fhirBaseURL
            self.allowedIssuers = allowedIssuers
            self.trustedEndpointHosts = trustedEndpointHosts
            self.idTokenAlgorithms = idTokenAlgorithms
            self.clockLeeway = clockLeeway
            self.pendingLifetime = pendingLifetime
            options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)
            self.refreshSkew = refreshSkew
            self.store = store
            self.storeKey = storeKey
            self.clock = clock
            self.random = random
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let discovery: SMARTDiscovery
    private let session: CredentialSession<SMARTCredentialPolicy>

    /// Creates a session; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        discovery = SMARTDiscovery(options: configuration.options, trustedHosts: configuration.trustedEndpointHosts)
        session = CredentialSession(
            store: configuration.store, key: configuration.storeKey,
            policy: SMARTCredentialPolicy(configuration: configuration), clock: configuration.clock,
            logger: configuration.options.logger, category: "SMART")
    }

    // MARK: - Status

    /// Where the session stands, from the store.
    ///
    /// - Throws: the store's error when it cannot be read.
    public func status() async throws -> SMARTStatus {
        Self.status(of: try await session.current())
    }

    /// The status now, then every change: an authorization started, completed, refreshed (a new expiry), a grant
    /// ended by a refused refresh, revocation.
    public func statuses() -> AsyncStream<SMARTStatus> {
        session.statuses(Self.status(of:))
    }

    /// What happens to the stored grant from now on.
    public func events() -> AsyncStream<CredentialEvent> {
        session.events()
    }

    private static func status(of state: SMARTState?) -> SMARTStatus {
        if let grant = state?.grant { return .authorized(grant.context, accessTokenExpiresAt: grant.expiresAt) }
        return state?.pending == nil ? .signedOut : .awaitingRedirect
    }

    /// The SMART configuration of `fhirBaseURL` (the standalone server by default), read once per session.
    ///
    /// - Throws: ``SMARTError/invalidLaunch(_:)`` without a server, and what discovery throws.
    public func discover(_ fhirBaseURL: URL? = nil) async throws -> SMARTEndpoints {
        guard let base = fhirBaseURL ?? configuration.fhirBaseURL else {
            throw SMARTError.invalidLaunch("no FHIR server is configured")
        }
        return try await discovery.endpoints(for: base)
    }

    // MARK: - Launch

    /// Starts a standalone launch at the configured FHIR server and returns the URL for the browser to open.
    ///
    /// - Throws: ``SMARTError`` for a missing server or an unusable configuration document.
    public func standaloneAuthorizationURL() async throws -> URL {
        guard let base = configuration.fhirBaseURL else {
            throw SMARTError.invalidLaunch("a standalone launch needs fhirBaseURL in the configuration")
        }
        return try await authorizationURL(fhirBaseURL: base, launch: nil)
    }

    /// Starts an EHR launch from the URL the EHR opened the app with (`…?iss=<FHIR base>&launch=<handle>`) and
    /// returns the URL for the browser to open.
    ///
    /// - Throws: ``SMARTError/invalidLaunch(_:)`` without `iss` or `launch`, ``SMARTError/untrustedIssuer(_:)``
    ///   for an `iss` that is not an allowed FHIR server.
    public func ehrAuthorizationURL(launchURL: URL) async throws -> URL {
        let items = URLComponents(url: launchURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let iss = items.first(where: { $0.name == "iss" })?.value, !iss.isEmpty else {
            throw SMARTError.invalidLaunch("the launch URL has no iss")
        }
        guard let launch = items.first(where: { $0.name == "launch" })?.value, !launch.isEmpty else {
            throw SMARTError.invalidLaunch("the launch URL has no launch")
        }
        let allowed = configuration.allowedIssuers + (configuration.fhirBaseURL.map { [$0] } ?? [])
        guard let base = allowed.first(where: { $0.absoluteString == iss }) else {
            throw SMARTError.untrustedIssuer(iss)
        }
        return try await authorizationURL(fhirBaseURL: base, launch: launch)
    }

    /// Stores a new pending authorization (replacing an older one) and builds its URL. PKCE S256 is always used;
    /// `nonce` is sent whenever `openid` is asked for.
    private func authorizationURL(fhirBaseURL: URL, launch: String?) async throws -> URL {
        let endpoints = try await discovery.endpoints(for: fhirBaseURL)
        guard let authorization = endpoints.authorization else {
            throw SMARTError.discoveryFailed("authorization_endpoint is missing")
        }
        var scopes = configuration.scope.split(separator: " ").map(String.init)
        if launch != nil, !scopes.contains("launch") { scopes.insert("launch", at: 0) }
        let random = configuration.random
        let pkce = PKCE(random: random)
        let pending = PendingAuthorization(
            state: Base64URL.encode(random.bytes(count: 32)), codeVerifier: pkce.verifier,
            nonce: scopes.contains("openid") ? Base64URL.encode(random.bytes(count: 32)) : nil,
            redirectURI: configuration.redirectURI, endpoints: endpoints, startedAt: configuration.clock.now())
        let url = try configuration.options.smartClient(.init(authorize: authorization)).authorize(
            .init(
                clientID: configuration.client.clientID, redirectURI: pending.redirectURI, launch: launch,
                scope: scopes.joined(separator: " "), state: pending.state, aud: fhirBaseURL.absoluteString,
                codeChallenge: pkce.challenge, nonce: pending.nonce))
        try await session.transition { transition in
            try await transition.store { SMARTState(grant: $0?.grant, pending: pending) }
        }
        log(.info, "authorization started")
        return url
    }

    /// Completes the launch with the redirect URL the browser handed back: checks `state` (in constant time),
    /// redeems the code with the PKCE verifier, validates the id token, and stores the grant, replacing any other.
    ///
    /// - Returns: the launch context.
    /// - Throws: ``SMARTError/stateMismatch`` (the code is not redeemed and the authorization keeps waiting),
    ///   ``SMARTError/noPendingAuthorization``, ``SMARTError/authorizationExpired``,
    ///   ``SMARTError/authorizationDenied(error:description:)``, ``SMARTError/codeExchangeFailed(_:)``,
    ///   ``SMARTError/idTokenRejected(_:)``; nothing is stored after any of them.
    public func completeAuthorization(redirectURL: URL) async throws -> SMARTLaunchContext {
        try await session.transition { transition in
            guard let pending = try await transition.current()?.pending else {
                throw SMARTError.noPendingAuthorization
            }
            let items = URLComponents(url: redirectURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
            func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
            guard let state = value("state"),
                Crypto.constantTimeEqual(Array(state.utf8), Array(pending.state.utf8))
            else { throw SMARTError.stateMismatch }
            // The state matched: this authorization is answered, whatever the outcome.
            try await transition.update { SMARTState(grant: $0.grant, pending: nil) }
            guard
                self.configuration.clock.now().timeIntervalSince(pending.startedAt)
                    <= self.configuration.pendingLifetime
            else { throw SMARTError.authorizationExpired }
            if let error = value("error") {
                throw SMARTError.authorizationDenied(error: error, description: value("error_description"))
            }
            guard let code = value("code"), !code.isEmpty else {
                throw SMARTError.authorizationDenied(error: "invalid_request", description: "the redirect has no code")
            }
            let grant = try await self.redeem(code: code, pending: pending)
            try await transition.store(SMARTState(grant: grant, pending: nil))
            self.log(.info, "authorized")
            return grant.context
        }
    }

    private func redeem(code: String, pending: PendingAuthorization) async throws -> SMARTGrant {
        let endpoints = pending.endpoints
        let response: TokenResponse
        do {
            response = try await configuration.options.smartClient(.init(token: endpoints.token)).token(
                .authorizationCode(
                    .init(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier)),
                client: configuration.client)
        } catch let error as OAuth2Error where error.code == .invalidClient {
            throw SMARTError.clientRejected(error)
        } catch let error as OAuth2Error {
            throw SMARTError.codeExchangeFailed(error)
        }
        let receivedAt = configuration.clock.now()
        var grant = try SMARTGrant(response, previous: nil, endpoints: endpoints, receivedAt: receivedAt)
        if let idToken = response.idToken {
            let identity = try await validate(idToken, accessToken: response.accessToken, pending: pending)
            grant.context.subject = identity.subject
            grant.context.fhirUser = identity.claims["fhirUser"]?.stringValue.flatMap {
                URL(string: $0, relativeTo: endpoints.fhirBaseURL.appendingPathComponent(""))?.absoluteURL
            }
        }
        return grant
    }

    /// Checks the id token's signature with the server's keys and its claims.
    private func validate(_ token: String, accessToken: String, pending: PendingAuthorization) async throws
        -> IDToken
    {
        let endpoints = pending.endpoints
        guard let jwks = endpoints.jwks else {
            throw SMARTError.idTokenRejected(.noKey(keyID: nil))
        }
        let document = try await configuration.options.smartClient(.init(jwks: jwks)).getKeys()
        let keys = JSONWebKeySet(
            keys: document.keys.compactMap { key in
                try? JSONWebKey(
                    object: JSONObject(key.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }))
            })
        do {
            return try IDToken(
                validating: token, keys: keys,
                expecting: .init(
                    issuer: endpoints.issuer ?? endpoints.fhirBaseURL.absoluteString,
                    clientID: configuration.client.clientID, nonce: pending.nonce, accessToken: accessToken,
                    algorithms: configuration.idTokenAlgorithms, leeway: configuration.clockLeeway),
                now: configuration.clock.now())
        } catch {
            log(.warning, "the id token was refused: \(public: error.description)")
            throw SMARTError.idTokenRejected(error)
        }
    }

    // MARK: - Tokens and calls

    /// A usable access token, refreshed first when it expires within the configured skew.
    ///
    /// - Throws: ``SMARTError/needsLaunch(underlying:)`` when there is no grant or it is dead.
    public func accessToken() async throws -> BearerToken {
        BearerToken(try await session.access().credential.accessToken)
    }

    /// Runs `call` with an access token; when the server says the token expired (`invalid_token`, or a bare 401)
    /// the token is refreshed once for all callers and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await session.withCredential { access in try await call(BearerToken(access.credential.accessToken)) }
    }

    /// A FHIR request to `path` under the grant's FHIR base URL, with the access token, refreshed and replayed as
    /// ``withAccessToken(_:)`` does. Nothing is sent once the grant has been revoked.
    ///
    /// - Throws: ``OAuth2Error`` for an error response with an OAuth body or challenge, `UnexpectedResponseError`
    ///   otherwise.
    public func fhir(
        _ method: HTTPRequestMethod = .get, path: String, query: FormFields = .init(), body: Data? = nil,
        contentType: String = "application/fhir+json"
    ) async throws -> HTTPResponseMessage {
        let options = configuration.options
        return try await session.withCredential { access in
            var builder = try HTTPRequestBuilder(
                method: method, server: access.credential.context.fhirBaseURL, serverName: "fhir", path: path)
            builder.query = query
            builder.headers["Accept"] = "application/fhir+json"
            builder.authorize(bearer: BearerToken(access.credential.accessToken))
            if let body { builder.setBody(body, contentType: contentType) }
            let request = try builder.build(timeout: options.timeout)
            try options.urlPolicy.check(request.url)
            let response = try await options.send(
                request, operation: OperationID(family: "SMART", method: "FHIR"),
                transport: access.lease.guarding(options.transport))
            guard response.isSuccess else {
                throw HTTPClientCore.error(
                    for: response, operation: "FHIR", formats: [SMARTClient.ErrorFormats.oAuth2Error])
            }
            return response
        }
    }

    // MARK: - Revocation

    /// How revocation went; the local grant is gone in every case.
    public enum RevocationOutcome: Sendable {
        /// The server revoked the token.
        case revoked
        /// There was no grant to revoke.
        case nothingToRevoke
        /// The server has no revocation endpoint, or does not revoke this token type.
        case unsupportedByServer
        /// The server could not be reached or refused; the grant is forgotten locally anyway.
        case failed(any Error)
    }

    /// Forgets the grant and asks the server to revoke it (RFC 7009): the refresh token when there is one, which
    /// ends the access tokens of its grant too, otherwise the access token. A refresh in flight finishes first, so
    /// the token revoked is the newest one. After this returns no request carries the grant again.
    @discardableResult
    public func revoke() async throws -> RevocationOutcome {
        try await session.transition { transition in
            guard let grant = try await transition.erase(settlingRefresh: true)?.grant else { return .nothingToRevoke }
            return await self.revokeAtServer(grant)
        }
    }

    private func revokeAtServer(_ grant: SMARTGrant) async -> RevocationOutcome {
        guard let endpoint = grant.revocationEndpoint else { return .unsupportedByServer }
        let request =
            grant.refreshToken.map { Revoke.Request(token: $0, tokenTypeHint: .refreshToken) }
            ?? Revoke.Request(token: grant.accessToken, tokenTypeHint: .accessToken)
        do {
            try await configuration.options.smartClient(.init(revoke: endpoint)).revoke(
                request, client: configuration.client)
            log(.info, "revoked the grant")
            return .revoked
        } catch let error as OAuth2Error where error.code == .unsupportedTokenType {
            return .unsupportedByServer
        } catch {
            log(.warning, "revocation did not reach the server; the grant is forgotten locally")
            return .failed(error)
        }
    }

    private func log(_ level: LogLevel, _ message: LogMessage) {
        configuration.options.logger.log(level, "SMART", message)
    }
}
