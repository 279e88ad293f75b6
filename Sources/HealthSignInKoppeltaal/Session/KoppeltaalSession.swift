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
///     store: try CredentialStores.secure(service: "app.koppeltaal")
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

    /// The app's registration, what it asks for, and how the session reaches the server and keeps its grant.
    public struct Configuration: Sendable {
        /// The FHIR server (its base URL, e.g. `https://ggz.koppeltaal.nl/FHIR/Koppeltaal`), the app's OAuth client
        /// and how it authenticates at the token and revocation endpoints, the registered redirect URI (sent
        /// identically to Authorize and Token), the hosts besides the FHIR server's origin its endpoints may be on,
        /// and endpoints configured by hand. A discovered endpoint receives the client secret and tokens, so one on
        /// any other origin (another port of the same host too) is refused before anything is sent.
        public var registration: OAuthRegistration
        /// The scope asked for, before `launch:<code>` is added.
        public var scope: String
        /// What the app adds to Authorize: OpenID Connect's `prompt` (`consent` when the scope asks for `openid`
        /// and `offline_access` and the app chose none), and parameters of its own.
        public var authorization: AuthorizationParameters
        /// When to use PKCE.
        public var pkce: PKCEMode
        /// Whether to read `.well-known/smart-configuration` as well as the Conformance.
        public var readsSMARTConfiguration: Bool
        /// How long activation keeps trying through an outage (connection errors, 5xx, 408, 425, 429 with or
        /// without `Retry-After`) before it gives up, in seconds, at most an hour; 0 tries once. A refusal is never
        /// retried.
        public var activationRetryWindow: TimeInterval
        /// The store, its key, the connection (transport, URL policy, timeout, logger, middlewares), the refresh
        /// skew, the clock and the randomness.
        public var session: OAuthSessionSettings

        /// A configuration from its parts.
        public init(
            registration: OAuthRegistration, scope: String = "patient/*.read",
            authorization: AuthorizationParameters = .init(), pkce: PKCEMode = .whenAdvertised,
            readsSMARTConfiguration: Bool = true, activationRetryWindow: TimeInterval = 30,
            session: OAuthSessionSettings
        ) {
            self.registration = registration
            self.scope = scope
            self.authorization = authorization
            self.pkce = pkce
            self.readsSMARTConfiguration = readsSMARTConfiguration
            self.activationRetryWindow = activationRetryWindow
            self.session = session
        }

        /// The common case: the app's client at one FHIR server, with the defaults.
        ///
        /// The client authenticates at the token and revocation endpoints with `Authorization: Basic` over the id
        /// and secret as they are (RFC 7617), as Koppeltaal's own example sends it; a registration of its own can
        /// choose `.basic`, which form-encodes them first (RFC 6749 §2.3.1). Without a secret the client is public
        /// and sends only `client_id`.
        public init(
            fhirBaseURL: URL, clientID: String, clientSecret: String? = nil, redirectURI: String,
            store: any CredentialStore
        ) {
            self.init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL,
                    client: OAuthClientCredentials(clientID: clientID, secret: clientSecret, method: .unencodedBasic),
                    redirectURI: redirectURI),
                session: OAuthSessionSettings(store: store))
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
    /// or XML) and, when enabled, the SMART configuration, and must be on the FHIR base URL's origin or a host the
    /// registration trusts. What was discovered is cached in the store for this FHIR base URL.
    ///
    /// - Throws: `SignInError` (`discoveryFailed` naming the endpoints nobody gave, `untrustedEndpoint` for a
    ///   discovered endpoint on another origin), `ConfigurationError.insecureURL` for an endpoint that is not https.
    public func discover() async throws -> OAuthEndpoints {
        try await oauth.endpoints(for: configuration.registration, needing: [.authorization])
    }

    // MARK: - Activation

    /// Exchanges the activation code the patient was given for a grant, and returns the launch context.
    ///
    /// Authorize is called with `scope=<scope> launch:<code>`, the layer's `state` (compared in constant time when
    /// the answer echoes it) and PKCE when enabled; its JSON answer's authorization code (`authorization_code`, or
    /// the British `authorisation_code`) is redeemed by the layer at the token endpoint with the same
    /// `redirect_uri`. The grant is stored before this returns, replacing any other (also one that could not be
    /// decoded). Activation and ``revoke()`` run one at a time, in the order called.
    ///
    /// - Throws: `SignInError`: `activationCodeRejected` for an unknown, used or expired code; `requestRejected`
    ///   when Authorize refuses the request itself (a client id or redirect URI the server does not know);
    ///   `codeRejected` when the token exchange is refused (the code is spent then); `clientRejected`;
    ///   `invalidAuthorizationParameters` for parameters of the app's that Authorize cannot carry (nothing is sent);
    ///   `ConfigurationError.invalidSetting` for an `activationRetryWindow` that is not 0 to an hour (nothing is sent).
    public func activate(code: String) async throws -> LaunchContext {
        _ = try ConfigurationError.checked(
            configuration.activationRetryWindow, named: "activationRetryWindow", in: 0...3_600)
        return try await oauth.authorize { _ in try await self.redeem(code: code) }.context
    }

    /// Authorize with the activation code, then the layer's token exchange.
    private func redeem(code: String) async throws -> OAuthSessionGrant<LaunchContext> {
        let parameters = configuration.authorization
        let prompt = try parameters.prompt(
            for: configuration.scope.split(separator: " ").map(String.init), family: "Koppeltaal")
        let additional = try parameters.additionalParameters(
            protocolNames: MobileAuthorize.Request.propertyNames, family: "Koppeltaal")
        let pkce = configuration.pkce
        let pending = try await oauth.newAuthorization(
            at: configuration.registration, openID: false, stateBytes: 16, usesPKCE: { Self.usesPKCE(pkce, $0) })
        let client = KoppeltaalAPIClient(
            configuration: .init(
                servers: .init(authorize: pending.endpoints.authorization), options: configuration.session.options))
        let deadline = configuration.session.clock.now().addingTimeInterval(configuration.activationRetryWindow)
        let request = MobileAuthorize.Request(
            clientID: configuration.registration.client.clientID, redirectURI: pending.redirectURI,
            scope: configuration.scope + " launch:" + code, state: pending.state,
            codeChallenge: pending.usesPKCE ? pending.pkce.challenge : nil,
            codeChallengeMethod: pending.usesPKCE ? pending.pkce.method : nil, prompt: prompt,
            additionalProperties: additional)
        let authorized: MobileAuthorize.Response
        do {
            authorized = try await retryingOutages(until: deadline) { try await client.mobileAuthorize(request) }
        } catch let error as OAuthError where [.invalidScope, .accessDenied].contains(error.code) {
            throw SignInError(
                .activationCodeRejected,
                "the activation code was not accepted (unknown, used or expired); ask the patient for a new one",
                family: "Koppeltaal", serverError: error)
        } catch let error as OAuthError where [.invalidRequest, .unauthorizedClient].contains(error.code) {
            throw SignInError(
                .requestRejected,
                "Authorize refused the request itself, not the activation code; check the registration's client id "
                    + "and redirect URI against the server's",
                family: "Koppeltaal", serverError: error)
        }
        if let echoed = authorized.state, !pending.accepts(state: echoed) {
            throw SignInError(
                .stateMismatch, "the Authorize answer's state does not match the request's", family: "Koppeltaal")
        }
        return try await oauth.redeem(code: authorized.authorizationCode, pending: pending) { server, request in
            try await self.retryingOutages(until: deadline) { try await server.token(request) }
        }
    }

    /// Runs one step of activation, again after each outage until `deadline`: the activation code is single-use
    /// and the authorization code short-lived, so a connection error, a 5xx (with an OAuth body or not), a 408, 425
    /// or a 429 is waited out (0.5 s, doubling, or the server's `Retry-After` when it fits before the deadline)
    /// rather than surfacing and costing the patient a new code. A definite OAuth refusal is thrown at once.
    private func retryingOutages<Value>(until deadline: Date, _ step: () async throws -> Value) async throws -> Value {
        try await RequestRetryPolicy.retrying(delay: 0.5, step) { error, backoff in
            let now = configuration.session.clock.now()
            guard let wait = Self.outageWait(after: error, backoff: backoff, now: now),
                now.addingTimeInterval(wait) <= deadline
            else { return nil }
            log(.warning, "activation met an outage; trying again in \(wait) s")
            return wait
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

    private static func usesPKCE(_ mode: PKCEMode, _ endpoints: OAuthEndpoints) -> Bool {
        switch mode {
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
