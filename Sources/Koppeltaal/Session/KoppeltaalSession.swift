import Foundation
import SDKRuntime

/// The mobile app's side of a Koppeltaal mobile launch: discovery, activation with the code the patient was
/// given, the token lifecycle, FHIR calls, and revocation.
///
/// ```swift
/// let session = KoppeltaalSession(configuration: .init(
///     fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
///     client: OAuthClientCredentials(clientID: "RANJKA", secret: secret),
///     redirectURI: "ranjka://after-auth",
///     store: KeychainCredentialStore(service: "app.koppeltaal")
/// ))
/// let context = try await session.activate(code: "593740")
/// let bundle = try await session.fhir(path: "/MessageHeader/_search", query: query)
/// ```
///
/// New tokens are written to the store before they are used. Concurrent calls that find the access token expired
/// share one refresh. Only `invalid_grant` (and `unauthorized_client` on refresh) discards the grant; network
/// errors, 5xx, 429 and 503 never do.
public actor KoppeltaalSession {
    /// When to use PKCE (RFC 7636, S256).
    public enum PKCEMode: Sendable, Hashable {
        /// Never: Koppeltaal 1.x servers predate it.
        case never
        /// When the server's SMART configuration lists S256.
        case whenAdvertised
        /// Always.
        case always
    }

    /// How the session reaches the server and where it keeps its grant.
    public struct Configuration: Sendable {
        /// The FHIR base URL, e.g. `https://ggz.koppeltaal.nl/FHIR/Koppeltaal`.
        public var fhirBaseURL: URL
        /// The app's OAuth client and how it authenticates at the token and revocation endpoints.
        public var client: OAuthClientCredentials
        /// The app's registered redirect URI; sent identically to Authorize and Token.
        public var redirectURI: String
        /// The scope asked for, before `launch:<code>` is added.
        public var scope: String
        /// Endpoints configured by hand; each wins over discovery.
        public var endpoints: EndpointOverrides
        /// When to use PKCE.
        public var pkce: PKCEMode
        /// Whether to read `.well-known/smart-configuration` as well as the Conformance.
        public var readsSMARTConfiguration: Bool
        /// Which endpoint URLs are acceptable (https only, unless loopback is allowed for tests).
        public var urlPolicy: URLPolicy
        /// How long before its expiry an access token is refreshed.
        public var refreshSkew: TimeInterval
        /// Where the grant and the discovered endpoints are kept.
        public var store: any CredentialStore
        /// The key they are stored under.
        public var storeKey: String
        /// Sends requests.
        public var transport: any HTTPTransport
        /// Decides when tokens expire.
        public var clock: any WallClock
        /// Makes `state` values and PKCE verifiers.
        public var random: any RandomSource
        /// How long a request may take, or nil for the transport's default.
        public var timeout: TimeInterval?
        /// Receives redacted log records.
        public var logger: (any LogSink)?

        /// Creates a configuration.
        public init(
            fhirBaseURL: URL, client: OAuthClientCredentials, redirectURI: String, scope: String = "patient/*.read",
            endpoints: EndpointOverrides = .init(), pkce: PKCEMode = .whenAdvertised, readsSMARTConfiguration: Bool = true,
            urlPolicy: URLPolicy = .init(), refreshSkew: TimeInterval = 60, store: any CredentialStore,
            storeKey: String = "koppeltaal.session", transport: any HTTPTransport = URLSessionTransport(),
            clock: any WallClock = SystemClock(), random: any RandomSource = SystemRandomSource(),
            timeout: TimeInterval? = nil, logger: (any LogSink)? = nil
        ) {
            self.fhirBaseURL = fhirBaseURL
            self.client = client
            self.redirectURI = redirectURI
            self.scope = scope
            self.endpoints = endpoints
            self.pkce = pkce
            self.readsSMARTConfiguration = readsSMARTConfiguration
            self.urlPolicy = urlPolicy
            self.refreshSkew = refreshSkew
            self.store = store
            self.storeKey = storeKey
            self.transport = transport
            self.clock = clock
            self.random = random
            self.timeout = timeout
            self.logger = logger
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private var loaded = false
    private var state = KoppeltaalState()
    private let refreshes = SingleFlight<KoppeltaalGrant>()

    /// Creates a session; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    // MARK: - Status and discovery

    /// Whether the session is activated, from the store.
    public func status() throws -> KoppeltaalStatus {
        guard let grant = try current().grant else { return .needsActivation }
        return .active(grant.context, accessTokenExpiresAt: grant.expiresAt)
    }

    /// The OAuth endpoints: configured ones win; the rest come from the Conformance (any of its four spellings, JSON
    /// or XML) and, when enabled, the SMART configuration. The result is cached in the store.
    ///
    /// - Throws: ``KoppeltaalError/discoveryFailed(missing:)`` naming the endpoints nobody gave,
    ///   `ConfigurationError.insecureURL` for an endpoint that is not https.
    public func discover() async throws -> KoppeltaalEndpoints {
        if let cached = try current().endpoints { return cached }
        let overrides = configuration.endpoints
        // Both required endpoints configured by hand: nothing to discover (the revocation endpoint is optional).
        let advertised = overrides.authorize != nil && overrides.token != nil ? AdvertisedEndpoints() : try await advertisedEndpoints()
        let authorize: URL? = try overrides.authorize ?? resolve(advertised.uris["authorize"])
        let token: URL? = try overrides.token ?? resolve(advertised.uris["token"])
        let revoke: URL? = try overrides.revoke ?? resolve(advertised.uris["revoke"])
        guard let authorize, let token else {
            var missing: [String] = []
            if authorize == nil { missing.append("authorize") }
            if token == nil { missing.append("token") }
            throw KoppeltaalError.discoveryFailed(missing: missing)
        }
        try configuration.urlPolicy.check(authorize)
        try configuration.urlPolicy.check(token)
        if let revoke { try configuration.urlPolicy.check(revoke) }
        let endpoints = KoppeltaalEndpoints(authorize: authorize, token: token, revoke: revoke, codeChallengeMethods: advertised.codeChallengeMethods)
        state.endpoints = endpoints
        try save()
        log(.info, "discovered the OAuth endpoints")
        return endpoints
    }

    /// What the server says about itself: endpoint URIs by name, and the PKCE methods it supports.
    private struct AdvertisedEndpoints {
        var uris: [String: String] = [:]
        var codeChallengeMethods: [String] = []
    }

    /// The Conformance's endpoints, completed by the SMART configuration when it is read and available.
    private func advertisedEndpoints() async throws -> AdvertisedEndpoints {
        try configuration.urlPolicy.check(configuration.fhirBaseURL)
        let client = client(.init(fhir: configuration.fhirBaseURL))
        var advertised = AdvertisedEndpoints(uris: ConformanceEndpoints.uris(in: try await client.conformance()))
        guard configuration.readsSMARTConfiguration, let smart = try? await client.smartConfiguration() else { return advertised }
        let smartURIs: [String: String?] = [
            "authorize": smart.authorizationEndpoint, "token": smart.tokenEndpoint, "revoke": smart.revocationEndpoint,
        ]
        for (name, value) in smartURIs where advertised.uris[name] == nil {
            advertised.uris[name] = value
        }
        advertised.codeChallengeMethods = smart.codeChallengeMethodsSupported
        return advertised
    }

    /// An absolute URL for a URI from discovery: relative ones resolve against the FHIR base.
    private func resolve(_ uri: String?) throws -> URL? {
        guard let uri, !uri.isEmpty else { return nil }
        guard let url = URL(string: uri, relativeTo: configuration.fhirBaseURL)?.absoluteURL else {
            throw RequestEncodingError.invalidURL("the server named an endpoint that is not a URL")
        }
        return url
    }

    // MARK: - Activation

    /// Exchanges the activation code the patient was given for a grant, and returns the launch context.
    ///
    /// Authorize is called with `scope=<scope> launch:<code>` (and PKCE when enabled); its JSON answer's
    /// authorization code (`authorization_code`, or the British `authorisation_code`) is redeemed at the token
    /// endpoint with the same `redirect_uri`. The grant is stored before this returns.
    ///
    /// - Throws: ``KoppeltaalError/activationCodeRejected(_:)`` for an unknown, used or expired code;
    ///   ``KoppeltaalError/activationFailed(_:)`` when the token exchange is refused (the code is spent then).
    public func activate(code: String) async throws -> LaunchContext {
        let endpoints = try await discover()
        let pkce = usesPKCE(endpoints) ? PKCE(random: configuration.random) : nil
        let expectedState = Base64URL.encode(configuration.random.bytes(count: 16))
        let client = client(.init(authorize: endpoints.authorize, token: endpoints.token))
        let authorized: Authorize.Response
        do {
            authorized = try await client.authorize(.init(
                clientID: configuration.client.clientID, redirectURI: configuration.redirectURI,
                scope: configuration.scope + " launch:" + code, state: expectedState,
                codeChallenge: pkce?.challenge, codeChallengeMethod: pkce?.method
            ))
        } catch let error as OAuth2Error where [.invalidScope, .accessDenied, .invalidRequest].contains(error.code) {
            throw KoppeltaalError.activationCodeRejected(error)
        }
        if let echoed = authorized.state, echoed != expectedState { throw KoppeltaalError.stateMismatch }
        let grantRequest = Token.Request.authorizationCode(.init(
            code: authorized.authorizationCode, redirectURI: configuration.redirectURI, codeVerifier: pkce?.verifier
        ))
        let response: TokenResponse
        do {
            response = try await redeemRetryingTransientFailures(client, grantRequest)
        } catch let error as OAuth2Error where error.code == .invalidClient {
            throw KoppeltaalError.clientRejected(error)
        } catch let error as OAuth2Error {
            throw KoppeltaalError.activationFailed(error)
        }
        let grant = try grant(from: response, previous: nil)
        try current()
        state.grant = grant
        try save()
        log(.info, "activated")
        return grant.context
    }

    /// Redeems an authorization code, retrying twice on transient failures: the code was spent at Authorize, so a
    /// retry of this request (within the code's short life) is the only way to recover from a dropped response.
    private func redeemRetryingTransientFailures(_ client: KoppeltaalClient, _ request: Token.Request) async throws -> TokenResponse {
        var attempt = 0
        while true {
            do {
                return try await client.token(request, client: configuration.client)
            } catch {
                attempt += 1
                guard attempt <= 2, let delay = Self.retryDelay(after: error, now: configuration.clock.now()) else { throw error }
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            }
        }
    }

    /// How long to wait before retrying after `error`, or nil when retrying cannot help.
    static func retryDelay(after error: any Error, now: Date) -> TimeInterval? {
        if let error = error as? TransportError, error.isTransient { return 0.2 }
        if let error = error as? UnexpectedResponseError, error.isTransient {
            return min(error.response.retryAfter(now: now) ?? 0.2, 5)
        }
        return nil
    }

    private func usesPKCE(_ endpoints: KoppeltaalEndpoints) -> Bool {
        switch configuration.pkce {
        case .never: return false
        case .always: return true
        case .whenAdvertised: return endpoints.codeChallengeMethods.contains("S256")
        }
    }

    /// A grant from a token response, keeping what a refresh response leaves out.
    private func grant(from response: TokenResponse, previous: KoppeltaalGrant?) throws -> KoppeltaalGrant {
        guard !response.accessToken.isEmpty else { throw KoppeltaalError.malformedTokenResponse("access_token is empty") }
        guard response.tokenType.caseInsensitiveCompare("bearer") == .orderedSame else {
            throw KoppeltaalError.malformedTokenResponse("token_type is \"\(response.tokenType)\", expected Bearer")
        }
        if let lifetime = response.expiresIn, lifetime < 0 {
            throw KoppeltaalError.malformedTokenResponse("expires_in is negative")
        }
        return KoppeltaalGrant(
            accessToken: response.accessToken,
            refreshToken: response.refreshToken ?? previous?.refreshToken,
            expiresAt: response.expiresIn.map { configuration.clock.now().addingTimeInterval(TimeInterval($0)) },
            context: (previous?.context ?? LaunchContext()).updated(with: response)
        )
    }

    // MARK: - Tokens and calls

    /// A usable access token, refreshed first when it expires within the configured skew.
    ///
    /// - Throws: ``KoppeltaalError/needsActivation(underlying:)`` when there is no grant or it is dead.
    public func accessToken() async throws -> BearerToken {
        BearerToken(try await usableGrant().accessToken)
    }

    /// Runs `call` with an access token; when the server says the token expired (an `expired` OperationOutcome, an
    /// `invalid_token` error or challenge, or a bare 401) the token is refreshed once for all callers and `call` is
    /// replayed once.
    public func withAccessToken<Result: Sendable>(_ call: @Sendable (BearerToken) async throws -> Result) async throws -> Result {
        let grant = try await usableGrant()
        do {
            return try await call(BearerToken(grant.accessToken))
        } catch where Self.meansExpiredAccess(error) {
            log(.info, "the access token was refused as expired; refreshing")
            let fresh = try await refreshed(replacing: grant)
            return try await call(BearerToken(fresh.accessToken))
        }
    }

    /// A FHIR request to `path` under the FHIR base, with the access token, through ``withAccessToken(_:)``.
    ///
    /// - Throws: ``OperationOutcomeError`` or ``OAuth2Error`` for an error response with such a body,
    ///   `UnexpectedResponseError` otherwise.
    public func fhir(
        _ method: HTTPMethod = .get, path: String, query: FormFields = .init(), body: Data? = nil,
        contentType: String = "application/json+fhir", accept: String = "application/json"
    ) async throws -> HTTPResponse {
        let configuration = configuration
        try configuration.urlPolicy.check(configuration.fhirBaseURL)
        return try await withAccessToken { token in
            var builder = try HTTPRequestBuilder(method: method, server: configuration.fhirBaseURL, serverName: "fhir", path: path)
            builder.query = query
            builder.headers["Accept"] = accept
            builder.authorize(bearer: token)
            if let body { builder.setBody(body, contentType: contentType) }
            let response = try await configuration.transport.send(try builder.build(timeout: configuration.timeout))
            guard response.isSuccess else {
                throw KoppeltaalClient.error(for: response, operation: "FHIR", formats: [.operationOutcomeError, .oAuth2Error])
            }
            return response
        }
    }

    /// Whether `error` says the access token expired, so that one refresh and replay may help.
    static func meansExpiredAccess(_ error: any Error) -> Bool {
        switch error {
        case let error as OperationOutcomeError: return error.code == .expired
        case let error as OAuth2Error: return error.code == .invalidToken
        case let error as UnexpectedResponseError:
            return error.status == 401 && [nil, "invalid_token"].contains(error.response.bearerError)
        default: return false
        }
    }

    private func usableGrant() async throws -> KoppeltaalGrant {
        guard let grant = try current().grant else { throw KoppeltaalError.needsActivation(underlying: nil) }
        if let expiresAt = grant.expiresAt, expiresAt.addingTimeInterval(-configuration.refreshSkew) <= configuration.clock.now() {
            return try await refreshed(replacing: grant)
        }
        return grant
    }

    /// A grant to use instead of `stale`: one another caller already got, or a refresh shared by everyone who asks
    /// while it runs.
    private func refreshed(replacing stale: KoppeltaalGrant) async throws -> KoppeltaalGrant {
        if let current = state.grant, current != stale { return current }
        return try await refreshes.run { [self] in try await self.refresh() }
    }

    /// Redeems the refresh token and stores the new grant before returning it.
    private func refresh() async throws -> KoppeltaalGrant {
        guard let grant = try current().grant else { throw KoppeltaalError.needsActivation(underlying: nil) }
        guard let refreshToken = grant.refreshToken else {
            try discardGrant()
            throw KoppeltaalError.needsActivation(underlying: nil)
        }
        let endpoints = try await discover()
        let response: TokenResponse
        do {
            response = try await client(.init(token: endpoints.token)).token(.refreshToken(.init(refreshToken: refreshToken)), client: configuration.client)
        } catch let error as OAuth2Error {
            switch error.code {
            case .invalidGrant, .unauthorizedClient:
                log(.warning, "the server refused the refresh token (\(error.code)); activation is needed")
                try discardGrant()
                throw KoppeltaalError.needsActivation(underlying: error)
            case .invalidClient:
                throw KoppeltaalError.clientRejected(error)
            default:
                throw error
            }
        } catch let error as UnexpectedResponseError where error.status == 404 {
            // The endpoint moved: discover again next time.
            state.endpoints = nil
            try save()
            throw error
        }
        // The grant may have been revoked or replaced while the request was out.
        guard state.grant == grant else { throw KoppeltaalError.needsActivation(underlying: nil) }
        let fresh = try self.grant(from: response, previous: grant)
        state.grant = fresh
        try save()
        log(.info, "refreshed the access token")
        return fresh
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

    /// Forgets the grant and asks the server to revoke it (RFC 7009): the refresh token when there is one
    /// (`token_type_hint=refresh_token`), otherwise the access token.
    @discardableResult
    public func revoke() async throws -> RevocationOutcome {
        guard let grant = try current().grant else { return .nothingToRevoke }
        try discardGrant()
        let endpoint = state.endpoints?.revoke ?? configuration.endpoints.revoke
        guard let endpoint else { return .unsupportedByServer }
        let request = grant.refreshToken.map { Revoke.Request(token: $0, tokenTypeHint: .refreshToken) }
            ?? Revoke.Request(token: grant.accessToken, tokenTypeHint: .accessToken)
        do {
            try configuration.urlPolicy.check(endpoint)
            try await client(.init(revoke: endpoint)).revoke(request, client: configuration.client)
            log(.info, "revoked the grant")
            return .revoked
        } catch let error as OAuth2Error where error.code == .unsupportedTokenType {
            return .unsupportedByServer
        } catch {
            log(.warning, "revocation did not reach the server; the grant is forgotten locally")
            return .failed(error)
        }
    }

    // MARK: - Store

    @discardableResult
    private func current() throws -> KoppeltaalState {
        if !loaded {
            state = try configuration.store.readValue(KoppeltaalState.self, for: configuration.storeKey) ?? KoppeltaalState()
            loaded = true
        }
        return state
    }

    private func save() throws {
        try configuration.store.writeValue(state, for: configuration.storeKey)
    }

    private func discardGrant() throws {
        state.grant = nil
        try save()
    }

    private func client(_ servers: KoppeltaalClient.Servers) -> KoppeltaalClient {
        KoppeltaalClient(configuration: .init(
            servers: servers, transport: configuration.transport, urlPolicy: configuration.urlPolicy, timeout: configuration.timeout,
            logger: configuration.logger
        ))
    }

    private func log(_ level: LogLevel, _ message: String) {
        configuration.logger.log(level, "Koppeltaal", message)
    }
}
