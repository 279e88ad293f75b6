import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// A server's side of SMART Backend Services: `client_credentials` tokens for `system/` scopes, authenticated with a
/// client assertion signed by the service's private key (`private_key_jwt`, RS384 or ES384).
///
/// ```swift
/// let backend = SMARTBackendClient(configuration: .init(
///     clientID: "my-service", signer: try ClientAssertionSigner(key: privateKey, algorithm: .es384),
///     scope: "system/Patient.rs system/Observation.rs",
///     fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!))
/// let bundle = try await backend.fhir(.fhir("Patient"))
/// ```
///
/// The token is kept in memory until `renewalMargin` seconds before it expires (halfway through a shorter life);
/// however many callers ask at once, one token request is made and they all wait for it. Every token request carries
/// a new assertion (a fresh `jti`).
public actor SMARTBackendClient {
    /// The service's registration and the server it calls.
    public struct Configuration: Sendable {
        /// The service's client id and signing key.
        public var client: OAuthClientCredentials
        /// The scopes asked for, e.g. `system/*.rs`.
        public var scope: String
        /// The FHIR server; its SMART configuration names the token endpoint.
        public var fhirBaseURL: URL
        /// The token endpoint, when configured rather than discovered.
        public var tokenEndpoint: URL?
        /// Hosts (`host`, or `host:port`) besides the FHIR server's origin that the token endpoint may be on.
        public var trustedEndpointHosts: [String]
        /// How long before its expiry a token is renewed, in seconds.
        public var renewalMargin: TimeInterval
        /// The transport, URL policy, timeout, logger and middlewares of every request.
        public var options: ClientOptions
        /// Decides when the token expires.
        public var clock: any TimeSource

        /// Creates a configuration.
        public init(
            clientID: String, signer: ClientAssertionSigner, scope: String, fhirBaseURL: URL,
            tokenEndpoint: URL? = nil, trustedEndpointHosts: [String] = [], renewalMargin: TimeInterval = 30,
            urlPolicy: URLPolicy = .init(), transport: any HTTPTransport = URLSessionHTTPTransport(),
            clock: any TimeSource = SystemClock(), timeout: TimeInterval? = nil, logger: (any LogSink)? = nil,
            middlewares: [any HTTPClientMiddleware] = []
        ) {
            client = OAuthClientCredentials(clientID: clientID, signer: signer)
            self.scope = scope
            self.fhirBaseURL = fhirBaseURL
            self.tokenEndpoint = tokenEndpoint
            self.trustedEndpointHosts = trustedEndpointHosts
            self.renewalMargin = renewalMargin
            options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)
            self.clock = clock
        }
    }

    /// A token and when it expires.
    public struct Token: Sendable, Hashable, CustomStringConvertible {
        /// The access token.
        public let accessToken: BearerToken
        /// The granted scopes.
        public let scope: String
        /// When it expires.
        public let expiresAt: Date

        /// The scope and expiry; the token is redacted.
        public var description: String {
            "SMARTBackendClient.Token(\(accessToken), scope: \(scope), expiresAt: \(DateTimeText.format(expiresAt)))"
        }
    }

    /// The configuration.
    public nonisolated let configuration: Configuration
    private let discovery: OAuthDiscovery
    private var cached: (token: Token, renewAt: Date)?
    private var flight: (id: UInt64, run: SharedRun<Token>)?
    private var flights: UInt64 = 0

    /// Creates a client; nothing is sent until a token is needed.
    public init(configuration: Configuration) {
        self.configuration = configuration
        discovery = .smartConfiguration(
            overrides: .init(token: configuration.tokenEndpoint), trustedHosts: configuration.trustedEndpointHosts,
            options: configuration.options)
    }

    /// A token valid for at least the renewal margin (or half its life, when that is shorter): the cached one, or the
    /// result of the one request every concurrent caller shares.
    ///
    /// - Throws: `OAuthError` (`invalid_client` for a refused assertion, `invalid_scope`), ``SMARTError`` for
    ///   discovery, `JOSEError` when the assertion cannot be signed, and transport errors.
    public func token() async throws -> Token {
        if let cached, cached.renewAt > configuration.clock.now() { return cached.token }
        let run = flight?.run ?? startRequest()
        return try await run.value()
    }

    /// Forgets `stale` (a token the server refused), so the next ``token()`` asks for a new one.
    public func invalidate(_ stale: Token) {
        if cached?.token == stale { cached = nil }
    }

    /// Runs `call` with a token; when the server refuses it as expired (`invalid_token`, or a bare 401) a new
    /// token is requested once and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        let first = try await token()
        do {
            return try await call(first.accessToken)
        } catch  where (error as? any ProtocolError)?.recovery == .refreshCredential {
            invalidate(first)
            return try await call(try await token().accessToken)
        }
    }

    /// A FHIR request to `path` under the FHIR base URL with a token, renewed and replayed as
    /// ``withAccessToken(_:)`` does.
    ///
    /// - Throws: `OAuthError` for an error response with an OAuth body or challenge, `UnexpectedResponseError`
    ///   otherwise.
    public func fhir(_ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init())
        async throws -> HTTPResponseMessage
    {
        let server = ResourceServer.fhir(baseURL: configuration.fhirBaseURL, options: configuration.options)
        return try await withAccessToken { token in
            try await server.send(method, path, query: query, body: nil, contentType: nil, token: token)
        }
    }

    private func startRequest() -> SharedRun<Token> {
        flights += 1
        let id = flights
        let run = SharedRun { [self] in
            do {
                let token = try await self.requestToken()
                await self.land(token, flight: id)
                return token
            } catch {
                await self.land(nil, flight: id)
                throw error
            }
        }
        flight = (id, run)
        return run
    }

    /// Ends flight `id`, caching its token; a flight that is no longer current changes nothing.
    private func land(_ token: Token?, flight id: UInt64) {
        guard flight?.id == id else { return }
        flight = nil
        guard let token else { return }
        // A token that lives no longer than the margin is still kept for half its life, not asked for on every call.
        let life = token.expiresAt.timeIntervalSince(configuration.clock.now())
        cached = (token, token.expiresAt.addingTimeInterval(-min(configuration.renewalMargin, life / 2)))
    }

    private nonisolated func requestToken() async throws -> Token {
        let server: AuthorizationServer
        do {
            server = AuthorizationServer(
                endpoints: try await discovery.endpoints(for: configuration.fhirBaseURL), client: configuration.client,
                options: configuration.options)
        } catch {
            throw SMARTError.translating(error)
        }
        let response = try await server.token(.clientCredentials(.init(scope: configuration.scope)))
        let receivedAt = configuration.clock.now()
        let grant: OAuthGrant
        do {
            grant = try OAuthGrant(response, receivedAt: receivedAt)
        } catch {
            throw SMARTError.translating(error)
        }
        configuration.options.logger.log(.info, "SMART", "backend token received")
        // Without expires_in the token is used for SMART's recommended five minutes at most.
        return Token(
            accessToken: grant.bearer, scope: grant.scope ?? configuration.scope,
            expiresAt: grant.expiresAt ?? receivedAt.addingTimeInterval(300))
    }
}
