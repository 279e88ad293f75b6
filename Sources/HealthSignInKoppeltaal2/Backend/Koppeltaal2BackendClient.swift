import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// An application's access to a Koppeltaal 2.0 domain: SMART Backend Services tokens (`client_credentials` with a
/// `private_key_jwt` assertion), with which every portal and module reads and writes the domain's FHIR resources.
///
/// ```swift
/// let backend = Koppeltaal2BackendClient(configuration: .init(
///     clientID: "7f1d0d3e-module", signer: try Koppeltaal2BackendClient.signer(key: privateKey),
///     fhirBaseURL: URL(string: "https://fhir.koppeltaal.example/fhir/DEFAULT")!))
/// let fhir = Koppeltaal2FHIRClient(backend: backend)
/// ```
///
/// - The token endpoint is discovered at the FHIR base (the SMART configuration, else the CapabilityStatement's
///   `oauth-uris`), and only on an origin the registration trusts.
/// - Each token request carries a new assertion: `iss` and `sub` the client id, `aud` the token endpoint exactly,
///   `iat`, `exp` at most five minutes later and a fresh `jti`, signed with RS512 (the reference domain's algorithm)
///   unless the signer says RS384 or ES384.
/// - Every request carries an `X-Request-Id` (and an `X-Correlation-Id`), as the domain's servers expect.
/// - There is no refresh token. The token is kept until `renewalMargin` seconds before it expires (halfway through a
///   shorter life); then, or when the FHIR server answers 401, one new token is requested for every caller waiting,
///   and a refused call is replayed once.
public final class Koppeltaal2BackendClient: ResourceServerAccessProvider {
    /// The application's registration and the domain it calls.
    public struct Configuration: Sendable {
        /// The FHIR base URL of the domain, the client id and key, the origins trusted for the endpoints, and any
        /// endpoint configured rather than discovered.
        public var registration: OAuthRegistration
        /// The scope asked for. The domain grants what the application's role allows whatever is asked; the
        /// reference server needs the field present, so the default asks for everything the role has.
        public var scope: String
        /// How long before its expiry a token is renewed, in seconds.
        public var renewalMargin: TimeInterval
        /// Where the token is kept (in memory by default), the connection and the clock.
        public var session: OAuthSessionSettings

        /// Creates a configuration from its parts.
        public init(
            registration: OAuthRegistration, scope: String = "system/*.cruds", renewalMargin: TimeInterval = 30,
            session: OAuthSessionSettings = OAuthSessionSettings(store: InMemoryCredentialStore())
        ) {
            self.registration = registration
            self.scope = scope
            self.renewalMargin = renewalMargin
            self.session = session
        }

        /// The common case: an application with a signing key in one domain, whose endpoints are discovered.
        ///
        /// - Parameters:
        ///   - clientID: the client id the domain gave the application.
        ///   - signer: its signing key (see ``Koppeltaal2BackendClient/signer(key:algorithm:lifetime:clock:)``).
        ///   - fhirBaseURL: the domain's FHIR base URL.
        ///   - trustedHosts: the hosts of the domain's auth service, when it is not on the FHIR server's origin (as
        ///     in the reference domains): `host`, or `host:port` for another port than the scheme's, e.g.
        ///     `["auth-service.koppeltaal.example", "auth.example:8443"]`. Discovered endpoints and the issuer must
        ///     be on the FHIR server's origin or one of these; it is `OAuthRegistration.trustedHosts`.
        ///   - store: where the token is kept; the fleet's shared store, so its instances share one token.
        ///   - storeKey: the key it is kept under; nil derives one from the registration.
        ///   - options: the transport, URL policy, logger and middlewares.
        public init(
            clientID: String, signer: ClientAssertionSigner, fhirBaseURL: URL, trustedHosts: [String] = [],
            store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
            options: ClientOptions = .init()
        ) {
            self.init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL, client: OAuthClientCredentials(clientID: clientID, signer: signer),
                    trustedHosts: trustedHosts),
                session: OAuthSessionSettings(store: store, storeKey: storeKey, options: options))
        }

        /// The common case, with the auth service's hosts under their former name.
        @available(*, deprecated, renamed: "init(clientID:signer:fhirBaseURL:trustedHosts:store:storeKey:options:)")
        public init(
            clientID: String, signer: ClientAssertionSigner, fhirBaseURL: URL, authHosts: [String],
            options: ClientOptions = .init()
        ) {
            self.init(
                clientID: clientID, signer: signer, fhirBaseURL: fhirBaseURL, trustedHosts: authHosts,
                options: options)
        }
    }

    /// A token and when it expires.
    public typealias Token = ClientCredentialsSession.Token

    /// The algorithms a Koppeltaal 2.0 auth server verifies client assertions with.
    public static let assertionAlgorithms: Set<JWSAlgorithm> = [.rs512, .rs384, .es384]

    /// The configuration.
    public let configuration: Configuration
    /// The token's lifecycle.
    public let tokens: ClientCredentialsSession

    /// The key the token is kept under (see `ClientCredentialsSession.storeKey`).
    public var storeKey: String { tokens.storeKey }
    let discovery: OAuthDiscovery

    /// Creates a client; nothing is sent until a token is needed.
    public init(configuration: Configuration) {
        var configuration = configuration
        configuration.session.options.middlewares.append(KT2TraceHeaders())
        self.configuration = configuration
        let options = configuration.session.options
        discovery = OAuthDiscovery(family: "Koppeltaal2", urlPolicy: options.urlPolicy) { base in
            try await Koppeltaal2Discovery.advertised(at: base, options: options)
        }
        tokens = ClientCredentialsSession(
            registration: configuration.registration, scope: configuration.scope,
            renewalMargin: configuration.renewalMargin, settings: configuration.session, discovery: discovery)
    }

    /// A signer for Koppeltaal 2.0 client assertions: `iat` stated, five minutes at most.
    ///
    /// - Parameters:
    ///   - key: the application's private key, with the `kid` its JWKS publishes.
    ///   - algorithm: RS512 (the default, and the only one the reference domain accepts), RS384 or ES384.
    ///   - lifetime: seconds until the assertion's `exp`.
    ///   - clock: the time assertions count from.
    /// - Throws: `JOSEError.algorithmNotAccepted` for another algorithm, and what `ClientAssertionSigner` throws for
    ///   a key that cannot sign with it.
    public static func signer(
        key: JSONWebKey, algorithm: JWSAlgorithm = .rs512, lifetime: TimeInterval = 120,
        clock: any TimeSource = SystemClock()
    ) throws(JOSEError) -> ClientAssertionSigner {
        guard assertionAlgorithms.contains(algorithm) else { throw .algorithmNotAccepted(algorithm.rawValue) }
        return try ClientAssertionSigner(
            key: key, algorithm: algorithm, lifetime: lifetime, clock: clock, statesIssuedAt: true)
    }

    /// The domain's endpoints, discovered once and kept.
    ///
    /// - Throws: `SignInError` when none can be read or one is on an untrusted origin.
    public func endpoints() async throws -> OAuthEndpoints {
        try await discovery.endpoints(for: configuration.registration)
    }

    /// A token valid for at least the renewal margin (or half its life, when that is shorter): the kept one, or the
    /// result of the one request every concurrent caller shares.
    ///
    /// - Throws: `OAuthError` for a refusal (`invalid_client` with the server's words for a refused assertion, in
    ///   JSON or in the reference server's plain-text 401), `UnexpectedResponseError` for other answers,
    ///   `SignInError` for discovery, `JOSEError` when the assertion cannot be signed, and transport errors.
    public func token() async throws -> Token { try await tokens.token() }

    /// Proves this instance's credentials with a token request whose token is not kept; run it before the server
    /// reports ready, so an instance with the wrong key fails its start with the authorization server's reason
    /// (see `ClientCredentialsSession.verifyCredentials()`).
    public func verifyCredentials() async throws { try await tokens.verifyCredentials() }

    /// Runs `call` with a token; when the server refuses it (a 401) a new token is requested once for every caller
    /// and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await tokens.withAccessToken(call)
    }

    /// Runs `call` with the domain's FHIR base URL, a token and the configured options, renewed and replayed as
    /// ``withAccessToken(_:)`` does; a typed FHIR client (`FHIRClient(backend)` in `HealthSignInFHIR`) is built on it.
    public func withResourceServerAccess<Result: Sendable>(
        _ call: @Sendable (ResourceServerAccess) async throws -> Result
    ) async throws -> Result {
        try await tokens.withResourceServerAccess(call)
    }
}
