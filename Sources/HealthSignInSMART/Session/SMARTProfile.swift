import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// SMART's rules on the OAuth layer: the grant keeps the launch context, its servers are the FHIR server of the
/// launch (which must be one the configuration allows) and those its SMART configuration names, and its errors are
/// ``SMARTError``s. ``SMARTSession`` uses it; apps do not need to.
public struct SMARTProfile: OAuthProfile {
    /// The launch context the grant keeps.
    public typealias Context = SMARTLaunchContext

    /// The session's configuration.
    public let configuration: SMARTSession.Configuration
    /// The SMART configuration of each FHIR server, read once and kept in the store.
    public let discovery: OAuthDiscovery

    /// The profile of a session with `configuration`.
    public init(configuration: SMARTSession.Configuration) {
        self.configuration = configuration
        discovery = .smartConfiguration(
            trustedHosts: configuration.trustedEndpointHosts, options: configuration.options,
            store: configuration.store, storeKey: configuration.storeKey + ".endpoints")
    }

    /// `SMART`.
    public var family: String { "SMART" }

    /// The connection and store of the configuration.
    public var settings: OAuthSessionSettings {
        OAuthSessionSettings(
            options: configuration.options, refresh: RefreshPolicy(skew: configuration.refreshSkew),
            store: configuration.store,
            storeKey: configuration.storeKey, clock: configuration.clock)
    }

    /// Authorized with the context, waiting for a redirect, or signed out.
    public func status(of state: OAuthSessionState<SMARTLaunchContext>?) -> SMARTStatus {
        if let grant = state?.grant { return .authorized(grant.context, accessTokenExpiresAt: grant.tokens.expiresAt) }
        return state?.pending == nil ? .signedOut : .awaitingRedirect
    }

    /// ``SMARTError/needsLaunch(underlying:)``.
    public func needsGrant(_ refusal: OAuthError?) -> any Error { SMARTError.needsLaunch(underlying: refusal) }

    /// ``SMARTError/clientRejected(_:)``.
    public func clientRejected(_ refusal: OAuthError) -> any Error { SMARTError.clientRejected(refusal) }

    /// Discovery and token response errors in SMART's terms.
    public func familyError(_ error: any Error) -> any Error { SMARTError.translating(error) }

    /// The app's registration at the FHIR server of the launch, when the configuration still allows it (a stored
    /// state cannot name another).
    ///
    /// - Throws: ``SMARTError/untrustedIssuer(_:)``.
    public func registration(of grant: OAuthSessionGrant<SMARTLaunchContext>) throws -> OAuthRegistration {
        try registration(at: grant.context.fhirBaseURL)
    }

    /// The FHIR server of the launch, whose errors are OAuth errors and bearer challenges.
    ///
    /// - Throws: ``SMARTError/untrustedIssuer(_:)``.
    public func resourceServer(of grant: OAuthSessionGrant<SMARTLaunchContext>) throws -> ResourceServer {
        ResourceServer.fhir(baseURL: try registration(of: grant).baseURL, options: configuration.options)
    }

    /// The context with what the refresh response carries of it.
    public func context(refreshedBy response: TokenResponse, previous: SMARTLaunchContext) throws -> SMARTLaunchContext
    {
        SMARTLaunchContext(
            try SMARTTokenResponse(extending: response), previous: previous, fhirBaseURL: previous.fhirBaseURL)
    }

    /// The id token of a refresh response, validated as OpenID Connect Core §12.2 says: signed by the server, for
    /// the same issuer, user and client as the sign-in's, issued just now, and with no nonce but the sign-in's. A
    /// response without one keeps the sign-in's; a grant signed in without an id token ignores one.
    ///
    /// - Throws: `RefreshResponseRefused` with ``SMARTError/idTokenRejected(_:)`` for an id token that fails (the
    ///   grant then ends as compromised); the key set's request errors, which leave the grant as it was.
    public func verify(
        refreshed tokens: OAuthGrant, from response: TokenResponse, previous: OAuthSessionGrant<SMARTLaunchContext>,
        server: AuthorizationServer
    ) async throws -> OAuthGrant {
        guard let token = response.idToken, let original = previous.tokens.idToken else { return tokens }
        guard server.endpoints.jwks != nil else {
            throw RefreshResponseRefused(SMARTError.idTokenRejected(.noKey(keyID: nil)))
        }
        let keys = try await server.keys()
        do {
            _ = try IDToken(
                validating: token, refreshing: try IDToken(previouslyValidated: original), keys: keys,
                expecting: idTokenExpectations(
                    issuer: server.endpoints.expectedIssuer, clientID: server.client.clientID, nonce: nil,
                    accessToken: tokens.accessToken),
                now: configuration.clock.now())
        } catch {
            log(.warning, "the id token of a refresh was refused: \(error.description)")
            throw RefreshResponseRefused(SMARTError.idTokenRejected(error))
        }
        var tokens = tokens
        tokens.idToken = token
        return tokens
    }

    /// What an id token of this configuration's servers must carry.
    func idTokenExpectations(issuer: String, clientID: String, nonce: String?, accessToken: String)
        -> IDToken.Expectations
    {
        IDToken.Expectations(
            issuer: issuer, clientID: clientID, nonce: nonce, accessToken: accessToken,
            algorithms: configuration.idTokenAlgorithms, leeway: configuration.clockLeeway,
            maximumAge: configuration.idTokenMaximumAge)
    }

    /// The app's registration at the FHIR server `url`.
    ///
    /// - Throws: ``SMARTError/untrustedIssuer(_:)`` for a server the configuration does not allow.
    func registration(at url: URL) throws -> OAuthRegistration {
        guard let registration = configuration.registration(for: url) else {
            throw SMARTError.untrustedIssuer(url.absoluteString)
        }
        return registration
    }
}

extension ResourceServer {
    /// The SMART FHIR server at `baseURL`, whose errors are OAuth errors and bearer challenges.
    static func fhir(baseURL: URL, options: ClientOptions) -> ResourceServer {
        ResourceServer(
            baseURL: baseURL, family: "SMART", operation: "FHIR", accept: "application/fhir+json",
            contentType: "application/fhir+json", options: options
        ) { response in
            HTTPClientCore.error(for: response, operation: "FHIR", formats: [SMARTAPIClient.ErrorFormats.oAuthError])
        }
    }
}
