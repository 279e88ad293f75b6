import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

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
/// let patient = try await session.fhir(.fhir("Patient", id: context.patient))
/// ```
///
/// The pending request (state, PKCE verifier, nonce) is stored until its redirect arrives, so it survives the app
/// being ended while the user is in the browser. The grant lives in an `OAuthSession`: new tokens are written to the
/// store before they are used, a rotated refresh token replaces the old one, and concurrent calls that find the
/// access token expired share one refresh. Only `invalid_grant` (and `unauthorized_client`) on refresh ends the
/// grant; network errors, 5xx and 429 never do.
public final class SMARTSession: OAuthClientSession {
    /// The app's registration, the servers it trusts, and where the session keeps its state.
    public struct Configuration: Sendable {
        /// The app's OAuth client at ``fhirBaseURL``'s server and how it authenticates: public (`none`),
        /// `client_secret_basic`, or `private_key_jwt`.
        public var client: OAuthClientCredentials
        /// The redirect URI registered at ``fhirBaseURL``'s server.
        public var redirectURI: String
        /// The scopes asked for; an EHR launch adds `launch` when missing.
        public var scope: String
        /// The FHIR server of a standalone launch (and of EHR launches that name it), where the app is ``client``
        /// with ``redirectURI``.
        public var fhirBaseURL: URL?
        /// The other FHIR servers an EHR launch's `iss` may name, each with the app's registration there: its own
        /// client, credential and redirect URI, so that no server ever receives another's credential (RFC 9700
        /// §4.4). Any other `iss` is refused before anything is sent to it, so a crafted launch link cannot make the
        /// app talk to a stranger.
        public var registrations: [OAuthRegistration]
        /// Hosts (`host`, or `host:port`) besides the FHIR server's origin that its endpoints may be on.
        public var trustedEndpointHosts: [String]
        /// What the app adds to every authorization request: OpenID Connect's `prompt`, and parameters of its own.
        ///
        /// Without a `prompt` of the app's, a request whose scope holds both `openid` and `offline_access` sends
        /// `prompt=consent`: OpenID Connect Core §11 lets a provider grant offline access only then, and strict
        /// providers otherwise drop `offline_access` and issue no refresh token. EHRs that do not follow that rule
        /// ignore it or show a consent page once. An empty `prompt` sends none.
        public var authorizationParameters: AuthorizationParameters
        /// The algorithms accepted for id tokens; RS256 is OpenID Connect's baseline.
        public var idTokenAlgorithms: Set<JWSAlgorithm>
        /// How long after it was issued an id token is still accepted, in seconds (plus ``clockLeeway``); nil for
        /// no limit.
        public var idTokenMaximumAge: TimeInterval?
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
        public var clock: any TimeSource
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
        ///   - fhirBaseURL: the FHIR server of a standalone launch, where the app is `clientID` with `redirectURI`.
        ///   - registrations: further FHIR servers an EHR launch may come from, with the app's registration at each.
        ///   - trustedEndpointHosts: hosts (`host` or `host:port`) besides the FHIR server's its endpoints may be on.
        ///   - authorizationParameters: `prompt` and parameters of the app's own for every authorization request.
        ///   - idTokenAlgorithms: the algorithms accepted for id tokens.
        ///   - idTokenMaximumAge: how long after it was issued an id token is still accepted, in seconds.
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
            fhirBaseURL: URL? = nil, registrations: [OAuthRegistration] = [], trustedEndpointHosts: [String] = [],
            authorizationParameters: AuthorizationParameters = .init(), idTokenAlgorithms: Set<JWSAlgorithm> = [.rs256],
            idTokenMaximumAge: TimeInterval? = 600, clockLeeway: TimeInterval = 120,
            pendingLifetime: TimeInterval = 600, urlPolicy: URLPolicy = .init(), refreshSkew: TimeInterval = 60,
            store: any CredentialStore, storeKey: String = "smart.session",
            transport: any HTTPTransport = URLSessionHTTPTransport(), clock: any TimeSource = SystemClock(),
            random: any RandomSource = SystemRandomSource(), timeout: TimeInterval? = nil,
            logger: (any LogSink)? = nil, middlewares: [any HTTPClientMiddleware] = []
        ) {
            client =
                signer.map { OAuthClientCredentials(clientID: clientID, signer: $0) }
                ?? OAuthClientCredentials(clientID: clientID, secret: clientSecret, method: .basic)
            self.redirectURI = redirectURI
            self.scope = scope
            self.fhirBaseURL = fhirBaseURL
            self.registrations = registrations
            self.trustedEndpointHosts = trustedEndpointHosts
            self.authorizationParameters = authorizationParameters
            self.idTokenAlgorithms = idTokenAlgorithms
            self.idTokenMaximumAge = idTokenMaximumAge
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

        /// The app's registration at the FHIR server `fhirBaseURL`: ``client`` and ``redirectURI`` at
        /// ``fhirBaseURL``, one of ``registrations`` elsewhere; nil for a server the configuration does not allow.
        public func registration(for fhirBaseURL: URL) -> OAuthRegistration? {
            let text = fhirBaseURL.absoluteString
            if let base = self.fhirBaseURL, base.absoluteString == text {
                return OAuthRegistration(baseURL: base, client: client, redirectURI: redirectURI)
            }
            return registrations.first { $0.baseURL.absoluteString == text }
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The OAuth session the grant and a pending authorization live in.
    public let oauth: OAuthSession<SMARTProfile>

    /// Creates a session; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        oauth = OAuthSession(profile: SMARTProfile(configuration: configuration))
    }

    /// The endpoints of `fhirBaseURL` (the standalone server by default) from its SMART configuration, read once and
    /// kept in the store.
    ///
    /// - Throws: ``SMARTError/invalidLaunch(_:)`` without a server, and what discovery throws.
    public func discover(_ fhirBaseURL: URL? = nil) async throws -> OAuthEndpoints {
        guard let base = fhirBaseURL ?? configuration.fhirBaseURL else {
            throw SMARTError.invalidLaunch("no FHIR server is configured")
        }
        return try await oauth.endpoints(for: base)
    }

    // MARK: - Launch

    /// Starts a standalone launch at the configured FHIR server and returns the URL for the browser to open.
    ///
    /// - Throws: ``SMARTError`` for a missing server or an unusable configuration document,
    ///   `AuthorizationRequestError` for parameters of the app's that the request cannot carry.
    public func standaloneAuthorizationURL() async throws -> URL {
        try await authorizationPage(at: try standaloneServer(), launch: nil).url
    }

    /// Starts an EHR launch from the URL the EHR opened the app with (`…?iss=<FHIR base>&launch=<handle>`) and
    /// returns the URL for the browser to open.
    ///
    /// - Throws: ``SMARTError/invalidLaunch(_:)`` without `iss` or `launch`, ``SMARTError/untrustedIssuer(_:)``
    ///   for an `iss` that is not an allowed FHIR server, `AuthorizationRequestError` for parameters of the app's
    ///   that the request cannot carry.
    public func ehrAuthorizationURL(launchURL: URL) async throws -> URL {
        let (base, launch) = try ehrLaunch(launchURL)
        return try await authorizationPage(at: base, launch: launch).url
    }

    /// A whole standalone launch in `browser`: the authorization page, then ``completeAuthorization(redirectURL:)``
    /// with the redirect the browser hands back.
    ///
    /// - Throws: what ``standaloneAuthorizationURL()`` and ``completeAuthorization(redirectURL:)`` throw, and
    ///   `AuthorizationBrowserError` (`cancelled` when the user closes the page; the authorization then stays pending until it expires or another starts).
    public func authorize(with browser: any AuthorizationBrowser) async throws -> SMARTLaunchContext {
        try await complete(try await authorizationPage(at: try standaloneServer(), launch: nil), in: browser)
    }

    /// A whole EHR launch in `browser`, from the URL the EHR opened the app with.
    ///
    /// - Throws: what ``ehrAuthorizationURL(launchURL:)`` and ``completeAuthorization(redirectURL:)`` throw, and
    ///   `AuthorizationBrowserError`.
    public func authorize(launchURL: URL, with browser: any AuthorizationBrowser) async throws -> SMARTLaunchContext {
        let (base, launch) = try ehrLaunch(launchURL)
        return try await complete(try await authorizationPage(at: base, launch: launch), in: browser)
    }

    private func complete(_ page: (url: URL, redirectURI: String), in browser: any AuthorizationBrowser)
        async throws -> SMARTLaunchContext
    {
        guard let callback = AuthorizationCallback(redirectURI: page.redirectURI) else {
            throw SMARTError.invalidLaunch("the redirect URI is not an absolute URL")
        }
        return try await completeAuthorization(redirectURL: try await browser.authorize(page.url, callback: callback))
    }

    private func standaloneServer() throws -> URL {
        guard let base = configuration.fhirBaseURL else {
            throw SMARTError.invalidLaunch("a standalone launch needs fhirBaseURL in the configuration")
        }
        return base
    }

    /// The FHIR server and launch handle of an EHR launch URL.
    private func ehrLaunch(_ launchURL: URL) throws -> (URL, String) {
        let items = URLComponents(url: launchURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let iss = items.first(where: { $0.name == "iss" })?.value, !iss.isEmpty else {
            throw SMARTError.invalidLaunch("the launch URL has no iss")
        }
        guard let launch = items.first(where: { $0.name == "launch" })?.value, !launch.isEmpty else {
            throw SMARTError.invalidLaunch("the launch URL has no launch")
        }
        guard let base = URL(string: iss), configuration.registration(for: base) != nil else {
            throw SMARTError.untrustedIssuer(iss)
        }
        return (base, launch)
    }

    /// Stores a new pending authorization (replacing an older one) and builds its URL. PKCE S256 is always used;
    /// `nonce` is sent whenever `openid` is asked for; `prompt` and the app's parameters follow
    /// (``Configuration/authorizationParameters``).
    private func authorizationPage(at fhirBaseURL: URL, launch: String?) async throws -> (url: URL, redirectURI: String)
    {
        let registration = try oauth.profile.registration(at: fhirBaseURL)
        let endpoints = try await oauth.endpoints(for: fhirBaseURL, needing: [.authorization])
        var scopes = configuration.scope.split(separator: " ").map(String.init)
        if launch != nil, !scopes.contains("launch") { scopes.insert("launch", at: 0) }
        let pending = PendingAuthorization(
            random: configuration.random, openID: scopes.contains("openid"),
            redirectURI: registration.redirectURI ?? configuration.redirectURI, endpoints: endpoints,
            startedAt: configuration.clock.now())
        let parameters = configuration.authorizationParameters
        let client = SMARTAPIClient(
            configuration: .init(servers: .init(authorize: endpoints.authorization), options: configuration.options))
        let url = try client.authorize(
            .init(
                clientID: registration.client.clientID, redirectURI: pending.redirectURI, launch: launch,
                scope: scopes.joined(separator: " "), state: pending.state, aud: fhirBaseURL.absoluteString,
                codeChallenge: pending.pkce.challenge, nonce: pending.nonce,
                prompt: try parameters.prompt(for: scopes),
                additionalProperties: try parameters.additionalParameters(reserved: Authorize.Request.propertyNames)))
        try await oauth.credentials.transition { transition in
            try await transition.store { OAuthSessionState(grant: $0?.grant, pending: pending) }
        }
        log(.info, "authorization started")
        return (url, pending.redirectURI)
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
        try await oauth.credentials.transition { transition in
            guard let pending = try await transition.current()?.pending else {
                throw SMARTError.noPendingAuthorization
            }
            let code: Result<String, AuthorizationResponseError>
            do throws(AuthorizationResponseError) {
                code = .success(
                    try pending.code(
                        from: redirectURL, at: self.configuration.clock.now(),
                        lifetime: self.configuration.pendingLifetime))
            } catch {
                guard !error.isAnotherRequests else { throw SMARTError(error) }
                code = .failure(error)
            }
            // The state matched: this authorization is answered, whatever the outcome.
            try await transition.update { OAuthSessionState(grant: $0.grant, pending: nil) }
            let grant = try await self.redeem(code: try code.mapError(SMARTError.init).get(), pending: pending)
            try await transition.store(OAuthSessionState(grant: grant))
            self.log(.info, "authorized")
            return grant.context
        }
    }

    private func redeem(code: String, pending: PendingAuthorization) async throws
        -> OAuthSessionGrant<SMARTLaunchContext>
    {
        let profile = oauth.profile
        let registration = try profile.registration(at: pending.endpoints.baseURL)
        let base = registration.baseURL
        do {
            try profile.discovery.check(pending.endpoints)
        } catch {
            throw SMARTError.translating(error)
        }
        let server = AuthorizationServer(
            endpoints: pending.endpoints, client: registration.client, options: configuration.options)
        let response: TokenResponse
        do {
            response = try await server.token(
                .authorizationCode(
                    .init(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier)))
        } catch let error as OAuthError where error.code == .invalidClient {
            throw SMARTError.clientRejected(error)
        } catch let error as OAuthError {
            throw SMARTError.codeExchangeFailed(error)
        }
        var grant: OAuthSessionGrant<SMARTLaunchContext>
        do {
            let tokens = try OAuthGrant(response, receivedAt: configuration.clock.now())
            let context = SMARTLaunchContext(
                try SMARTTokenResponse(extending: response), previous: nil, fhirBaseURL: base)
            grant = OAuthSessionGrant(tokens: tokens, context: context)
        } catch {
            throw SMARTError.translating(error)
        }
        if let idToken = response.idToken {
            let identity = try await validate(
                idToken, accessToken: response.accessToken, pending: pending, server: server)
            grant.tokens.idToken = idToken
            grant.context.issuer = identity.issuer
            grant.context.subject = identity.subject
            grant.context.fhirUser = identity.claims["fhirUser"]?.stringValue.flatMap {
                URL(string: $0, relativeTo: base.appendingPathComponent(""))?.absoluteURL
            }
        }
        return grant
    }

    /// Checks the id token's signature with the server's keys and its claims.
    private func validate(
        _ token: String, accessToken: String, pending: PendingAuthorization, server: AuthorizationServer
    ) async throws -> IDToken {
        guard server.endpoints.jwks != nil else { throw SMARTError.idTokenRejected(.noKey(keyID: nil)) }
        let keys = try await server.keys()
        do {
            return try IDToken(
                validating: token, keys: keys,
                expecting: oauth.profile.idTokenExpectations(
                    issuer: pending.endpoints.expectedIssuer, clientID: server.client.clientID, nonce: pending.nonce,
                    accessToken: accessToken),
                now: configuration.clock.now())
        } catch {
            log(.warning, "the id token was refused: \(error.description)")
            throw SMARTError.idTokenRejected(error)
        }
    }

    // MARK: - FHIR calls

    /// A FHIR request to `path` under the grant's FHIR base URL, with the access token; when the server says the
    /// token expired (`invalid_token`, or a bare 401) it is refreshed once for all callers and the request replayed
    /// once. Nothing is sent once the grant has been revoked.
    ///
    /// - Throws: `OAuthError` for an error response with an OAuth body or challenge, `UnexpectedResponseError`
    ///   otherwise; ``SMARTError/untrustedIssuer(_:)`` when the stored FHIR server is no longer allowed.
    public func fhir(
        _ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init(), body: Data? = nil,
        contentType: String? = nil
    ) async throws -> HTTPResponseMessage {
        try await oauth.resource(path, method: method, query: query, body: body, contentType: contentType)
    }

    private func log(_ level: LogEntry.Level, _ message: LogMessage) {
        oauth.profile.log(level, message)
    }
}

extension SMARTError {
    /// The error a redirect that answered the pending authorization is.
    init(_ error: AuthorizationResponseError) {
        switch error {
        case .redirectMismatch: self = .redirectMismatch
        case .stateMismatch: self = .stateMismatch
        case .issuerMismatch(let issuer): self = .issuerMismatch(issuer)
        case .expired: self = .authorizationExpired
        case .denied(let error, let description): self = .authorizationDenied(error: error, description: description)
        }
    }
}
