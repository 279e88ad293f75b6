import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// The mobile app's side of a Koppeltaal mobile launch: discovery, activation with the code the patient was
/// given, the token lifecycle, FHIR calls, and revocation.
///
/// ```swift
/// let session = KoppeltaalSession(configuration: .init(
///     fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
///     clientID: "RANJKA", clientSecret: secret,
///     redirectURI: "ranjka://after-auth",
///     store: KeychainCredentialStore(service: "app.koppeltaal")
/// ))
/// let context = try await session.activate(code: "593740")
/// let bundle = try await session.fhir(ResourcePath("MessageHeader", "_search"), query: query)
/// ```
///
/// The grant lives in an `OAuthSession`: new tokens are written to the store before they are used, activation and
/// revocation run one at a time, and concurrent calls that find the access token expired share one refresh (also
/// with other sessions and processes sharing the store). Only `invalid_grant` (and `unauthorized_client` on
/// refresh) discards the grant, and only the grant that was refused; network errors, 5xx, 429 and 503 never do. A
/// grant without a refresh token serves until its access token expires.
public final class KoppeltaalSession: OAuthClientSession {
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
        /// What the app adds to Authorize: OpenID Connect's `prompt` (`consent` when the scope asks for `openid`
        /// and `offline_access` and the app chose none), and parameters of its own.
        public var authorizationParameters: AuthorizationParameters
        /// Endpoints configured by hand; each wins over discovery.
        public var endpoints: EndpointOverrides
        /// Hosts (`host`, or `host:port`) besides the FHIR base URL's origin that discovered endpoints may be on. A
        /// discovered endpoint receives the client secret and tokens, so one on any other origin (another port of the
        /// same host too) is refused with ``KoppeltaalError/untrustedEndpoint(name:url:)`` before anything is sent.
        public var trustedEndpointHosts: [String]
        /// When to use PKCE.
        public var pkce: PKCEMode
        /// Whether to read `.well-known/smart-configuration` as well as the Conformance.
        public var readsSMARTConfiguration: Bool
        /// The transport, URL policy, timeout and logger of every request; the clients the flow makes share them.
        public var options: ClientOptions
        /// How long before its expiry an access token is refreshed.
        public var refreshSkew: TimeInterval
        /// How long activation keeps trying through an outage (connection errors, 5xx, 408, 425, 429 with or
        /// without `Retry-After`) before it gives up, in seconds; 0 tries once. A refusal is never retried.
        public var activationRetryWindow: TimeInterval
        /// Where the grant and the discovered endpoints are kept.
        public var store: any CredentialStore
        /// The key they are stored under.
        public var storeKey: String
        /// Decides when tokens expire.
        public var clock: any TimeSource
        /// Makes `state` values and PKCE verifiers.
        public var random: any RandomSource

        /// Creates a configuration.
        ///
        /// The client authenticates at the token and revocation endpoints with `clientAuthentication`: by default
        /// `Authorization: Basic` over the id and secret as they are (RFC 7617), as Koppeltaal's own example sends
        /// it; `.basic` form-encodes them first (RFC 6749 §2.3.1) for servers that decode that way. Without a secret
        /// the client is public and sends only `client_id`.
        public init(
            fhirBaseURL: URL, clientID: String, clientSecret: String? = nil,
            clientAuthentication: OAuthClientCredentials.Method = .unencodedBasic,
            redirectURI: String, scope: String = "patient/*.read",
            authorizationParameters: AuthorizationParameters = .init(), endpoints: EndpointOverrides = .init(),
            trustedEndpointHosts: [String] = [],
            pkce: PKCEMode = .whenAdvertised,
            readsSMARTConfiguration: Bool = true,
            urlPolicy: URLPolicy = .init(), refreshSkew: TimeInterval = 60, activationRetryWindow: TimeInterval = 30,
            store: any CredentialStore,
            storeKey: String = "koppeltaal.session", transport: any HTTPTransport = URLSessionHTTPTransport(),
            clock: any TimeSource = SystemClock(), random: any RandomSource = SystemRandomSource(),
            timeout: TimeInterval? = nil, logger: (any LogSink)? = nil,
            middlewares: [any HTTPClientMiddleware] = []
        ) {
            self.fhirBaseURL = fhirBaseURL
            self.client = OAuthClientCredentials(clientID: clientID, secret: clientSecret, method: clientAuthentication)
            self.redirectURI = redirectURI
            self.scope = scope
            self.authorizationParameters = authorizationParameters
            self.endpoints = endpoints
            self.trustedEndpointHosts = trustedEndpointHosts
            self.pkce = pkce
            self.readsSMARTConfiguration = readsSMARTConfiguration
            self.options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)
            self.refreshSkew = refreshSkew
            self.activationRetryWindow = activationRetryWindow
            self.store = store
            self.storeKey = storeKey
            self.clock = clock
            self.random = random
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The OAuth session the grant lives in.
    public let oauth: OAuthSession<KoppeltaalProfile>

    /// Creates a session; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        oauth = OAuthSession(profile: KoppeltaalProfile(configuration: configuration))
    }

    /// The OAuth endpoints: configured ones win; the rest come from the Conformance (any of its four spellings, JSON
    /// or XML) and, when enabled, the SMART configuration, and must be on the FHIR base URL's origin or a trusted
    /// one. What was discovered is cached in the store for this FHIR base URL.
    ///
    /// - Throws: ``KoppeltaalError/discoveryFailed(missing:)`` naming the endpoints nobody gave,
    ///   ``KoppeltaalError/untrustedEndpoint(name:url:)`` for a discovered endpoint on another origin,
    ///   `ConfigurationError.insecureURL` for an endpoint that is not https.
    public func discover() async throws -> OAuthEndpoints {
        try await oauth.endpoints(for: configuration.fhirBaseURL, needing: [.authorization])
    }

    // MARK: - Activation

    /// Exchanges the activation code the patient was given for a grant, and returns the launch context.
    ///
    /// Authorize is called with `scope=<scope> launch:<code>` (and PKCE when enabled); its JSON answer's
    /// authorization code (`authorization_code`, or the British `authorisation_code`) is redeemed at the token
    /// endpoint with the same `redirect_uri`. The grant is stored before this returns, replacing any other (also one
    /// that could not be decoded). Activation and ``revoke()`` run one at a time, in the order called.
    ///
    /// - Throws: ``KoppeltaalError/activationCodeRejected(_:)`` for an unknown, used or expired code;
    ///   ``KoppeltaalError/activationFailed(_:)`` when the token exchange is refused (the code is spent then);
    ///   `AuthorizationRequestError` for parameters of the app's that Authorize cannot carry (nothing is sent).
    public func activate(code: String) async throws -> LaunchContext {
        try await oauth.credentials.transition { transition in
            let grant = try await self.redeem(code: code)
            try await transition.store(OAuthSessionState(grant: grant))
            self.log(.info, "activated")
            return grant.context
        }
    }

    /// Authorize with the activation code, then the token exchange.
    private func redeem(code: String) async throws -> OAuthSessionGrant<LaunchContext> {
        let endpoints = try await discover()
        let pkce = usesPKCE(endpoints) ? PKCEPair(random: configuration.random) : nil
        let expectedState = Base64URL.encode(configuration.random.bytes(count: 16))
        let client = KoppeltaalAPIClient(
            configuration: .init(servers: .init(authorize: endpoints.authorization), options: configuration.options))
        let authorized: MobileAuthorize.Response
        let deadline = configuration.clock.now().addingTimeInterval(configuration.activationRetryWindow)
        let parameters = configuration.authorizationParameters
        let request = MobileAuthorize.Request(
            clientID: configuration.client.clientID, redirectURI: configuration.redirectURI,
            scope: configuration.scope + " launch:" + code, state: expectedState, codeChallenge: pkce?.challenge,
            codeChallengeMethod: pkce?.method,
            prompt: try parameters.prompt(for: configuration.scope.split(separator: " ").map(String.init)),
            additionalProperties: try parameters.additionalParameters(reserved: MobileAuthorize.Request.propertyNames))
        do {
            authorized = try await retryingOutages(until: deadline) { try await client.mobileAuthorize(request) }
        } catch let error as OAuthError where [.invalidScope, .accessDenied, .invalidRequest].contains(error.code) {
            throw KoppeltaalError.activationCodeRejected(error)
        }
        if let echoed = authorized.state, echoed != expectedState { throw KoppeltaalError.stateMismatch }
        let server = AuthorizationServer(
            endpoints: endpoints, client: configuration.client, options: configuration.options)
        let grantRequest = RequestToken.Request.authorizationCode(
            .init(
                code: authorized.authorizationCode, redirectURI: configuration.redirectURI, codeVerifier: pkce?.verifier
            ))
        let response: TokenResponse
        do {
            response = try await retryingOutages(until: deadline) { try await server.token(grantRequest) }
        } catch let error as OAuthError where error.code == .invalidClient {
            throw KoppeltaalError.clientRejected(error)
        } catch let error as OAuthError {
            throw KoppeltaalError.activationFailed(error)
        }
        do {
            let tokens = try OAuthGrant(response, receivedAt: configuration.clock.now())
            return OAuthSessionGrant(
                tokens: tokens, context: LaunchContext().updated(with: try KoppeltaalTokenResponse(extending: response))
            )
        } catch {
            throw oauth.profile.familyError(error)
        }
    }

    /// Runs one step of activation, again after each outage until `deadline`: the activation code is single-use
    /// and the authorization code short-lived, so a connection error, a 5xx (with an OAuth body or not), a 408, 425
    /// or a 429 is waited out (0.5 s, doubling, or the server's `Retry-After` when it fits before the deadline)
    /// rather than surfacing and costing the patient a new code. A definite OAuth refusal is thrown at once.
    private func retryingOutages<Value>(until deadline: Date, _ step: () async throws -> Value) async throws -> Value {
        var delay: TimeInterval = 0.5
        while true {
            do {
                return try await step()
            } catch {
                let now = configuration.clock.now()
                guard let wait = Self.outageWait(after: error, backoff: delay, now: now),
                    now.addingTimeInterval(wait) <= deadline
                else { throw error }
                log(.warning, "activation met an outage; trying again in \(wait) s")
                try await RequestRetryPolicy.taskSleep(wait)
                delay *= 2
            }
        }
    }

    /// How long to wait before trying again after `error`, or nil when it is not an outage.
    static func outageWait(after error: any Error, backoff: TimeInterval, now: Date) -> TimeInterval? {
        switch error {
        case let error as TransportError: return error.isTransient ? backoff : nil
        case let error as UnexpectedResponseError:
            return error.isTransient ? max(error.response.retryAfter(now: now) ?? backoff, 0) : nil
        case let error as OAuthError:
            return error.httpStatus >= 500 || error.recovery == .retryLater ? backoff : nil
        default: return nil
        }
    }

    private func usesPKCE(_ endpoints: OAuthEndpoints) -> Bool {
        switch configuration.pkce {
        case .never: return false
        case .always: return true
        case .whenAdvertised: return endpoints.codeChallengeMethods.contains("S256")
        }
    }

    // MARK: - FHIR calls

    /// A FHIR request to `path` under the FHIR base, with the access token; when the server says the token expired
    /// (an `expired` OperationOutcome, an `invalid_token` error or challenge, or a bare 401) it is refreshed once for
    /// all callers and the request replayed once. Nothing is sent once the grant has been revoked.
    ///
    /// - Throws: ``OperationOutcomeError`` or `OAuthError` for an error response with such a body,
    ///   `UnexpectedResponseError` otherwise.
    public func fhir(
        _ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init(), body: Data? = nil,
        contentType: String? = nil, accept: String? = nil
    ) async throws -> HTTPResponseMessage {
        try await oauth.resource(
            path, method: method, query: query, body: body, contentType: contentType, accept: accept)
    }

    private func log(_ level: LogEntry.Level, _ message: LogMessage) {
        oauth.profile.log(level, message)
    }
}
