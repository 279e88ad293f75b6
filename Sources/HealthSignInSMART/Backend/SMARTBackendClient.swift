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
/// The token runs on the lifecycle every session runs on (a `ClientCredentialsSession`): it is kept, in memory by
/// default, until `renewalMargin` seconds before it expires (halfway through a shorter life); however many callers
/// ask at once, one token request is made and they all wait for it; a call the server refuses as expired gets a new
/// token and is replayed once. Every token request carries a new assertion (a fresh `jti`).
public final class SMARTBackendClient: ResourceServerAccessProvider {
    /// The service's registration and the server it calls.
    public struct Configuration: Sendable {
        /// The FHIR server (its base URL), the service's client and key, the hosts trusted for its token endpoint,
        /// and the token endpoint when configured rather than discovered.
        public var registration: OAuthRegistration
        /// The scopes asked for, e.g. `system/*.rs`.
        public var scope: String
        /// How long before its expiry a token is renewed, in seconds.
        public var renewalMargin: TimeInterval
        /// Where the token is kept (in memory by default), the connection and the clock.
        public var session: OAuthSessionSettings

        /// Creates a configuration from its parts.
        public init(
            registration: OAuthRegistration, scope: String, renewalMargin: TimeInterval = 30,
            session: OAuthSessionSettings = OAuthSessionSettings(store: InMemoryCredentialStore())
        ) {
            self.registration = registration
            self.scope = scope
            self.renewalMargin = renewalMargin
            self.session = session
        }

        /// The common case: a service with a signing key at one FHIR server, whose SMART configuration names the
        /// token endpoint. Every server entry point of the SDK has this shape: who the service is, where it calls,
        /// where it keeps what it is issued, and the `ClientOptions` of its requests.
        ///
        /// - Parameters:
        ///   - clientID: the client id the server registered the service under.
        ///   - signer: the service's signing key.
        ///   - scope: the scopes asked for, e.g. `system/Observation.rs`.
        ///   - fhirBaseURL: the FHIR server's base URL.
        ///   - store: where the token is kept; the fleet's shared store, so its instances share one token.
        ///   - storeKey: the key it is kept under; nil derives one from the registration (see
        ///     `OAuthSessionSettings.storeKey`).
        ///   - options: the transport, URL policy, timeout, logger and middlewares of every request.
        public init(
            clientID: String, signer: ClientAssertionSigner, scope: String, fhirBaseURL: URL,
            store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
            options: ClientOptions = .init()
        ) {
            self.init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL, client: OAuthClientCredentials(clientID: clientID, signer: signer)),
                scope: scope,
                session: OAuthSessionSettings(store: store, storeKey: storeKey, options: options))
        }
    }

    /// A token and when it expires.
    public typealias Token = ClientCredentialsSession.Token

    /// The configuration.
    public let configuration: Configuration
    /// The token's lifecycle.
    public let tokens: ClientCredentialsSession

    /// The key the token is kept under (see `ClientCredentialsSession.storeKey`).
    public var storeKey: String { tokens.storeKey }

    /// Creates a client; nothing is sent until a token is needed.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let options = configuration.session.options
        tokens = ClientCredentialsSession(
            registration: configuration.registration, scope: configuration.scope,
            renewalMargin: configuration.renewalMargin, settings: configuration.session,
            discovery: OAuthDiscovery(family: "SMART", urlPolicy: options.urlPolicy) { base in
                try await .smartConfiguration(at: base, options: options)
            })
    }

    /// A token valid for at least the renewal margin (or half its life, when that is shorter): the kept one, or the
    /// result of the one request every concurrent caller shares.
    ///
    /// - Throws: `OAuthError` (`invalid_client` for a refused assertion, `invalid_scope`), `SignInError` for
    ///   discovery, `JOSEError` when the assertion cannot be signed, and transport errors.
    public func token() async throws -> Token { try await tokens.token() }

    /// Proves this instance's credentials with a token request whose token is not kept; run it before the server
    /// reports ready, so an instance with the wrong key fails its start with the authorization server's reason
    /// (see `ClientCredentialsSession.verifyCredentials()`).
    public func verifyCredentials() async throws { try await tokens.verifyCredentials() }

    /// Forgets `stale` (a token the server refused), so the next ``token()`` asks for a new one.
    public func invalidate(_ stale: Token) async throws { try await tokens.invalidate(stale) }

    /// Runs `call` with a token; when the server refuses it as expired (`invalid_token`, or a bare 401) a new
    /// token is requested once and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await tokens.withAccessToken(call)
    }

    /// Runs `call` with the FHIR base URL, a token and the configured options, renewed and replayed as
    /// ``withAccessToken(_:)`` does; a typed FHIR client (`FHIRClient(backend)` in `HealthSignInFHIR`) is built on it.
    public func withResourceServerAccess<Result: Sendable>(
        _ call: @Sendable (ResourceServerAccess) async throws -> Result
    ) async throws -> Result {
        try await tokens.withResourceServerAccess(call)
    }

    /// A FHIR request to `path` under the FHIR base URL with a token, renewed and replayed as
    /// ``withAccessToken(_:)`` does.
    ///
    /// - Throws: `OAuthError` for an error response with an OAuth body or challenge, `UnexpectedResponseError`
    ///   otherwise.
    public func fhir(_ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init())
        async throws -> HTTPResponseMessage
    {
        let server = ResourceServer.fhir(
            baseURL: configuration.registration.baseURL, options: configuration.session.options)
        return try await withAccessToken { token in
            try await server.send(method, path, query: query, body: nil, contentType: nil, token: token)
        }
    }
}
