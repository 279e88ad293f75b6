import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// Koppeltaal's rules on the OAuth layer: the grant keeps the launch context, its servers are the configured FHIR
/// server's (found from its Conformance), and its errors are ``KoppeltaalError``s. ``KoppeltaalSession`` uses it;
/// apps do not need to.
public struct KoppeltaalProfile: OAuthProfile {
    /// The launch context the grant keeps.
    public typealias Context = LaunchContext

    /// The session's configuration.
    public let configuration: KoppeltaalSession.Configuration
    /// The configured endpoints, completed from the Conformance and the SMART configuration.
    public let discovery: OAuthDiscovery

    /// The profile of a session with `configuration`.
    public init(configuration: KoppeltaalSession.Configuration) {
        self.configuration = configuration
        let options = configuration.options
        let readsSMARTConfiguration = configuration.readsSMARTConfiguration
        discovery = OAuthDiscovery(
            overrides: configuration.endpoints, trustedHosts: configuration.trustedEndpointHosts,
            urlPolicy: options.urlPolicy, store: configuration.store, storeKey: configuration.storeKey + ".endpoints"
        ) { base in
            try await ConformanceEndpoints.advertised(
                at: base, options: options, readsSMARTConfiguration: readsSMARTConfiguration)
        }
    }

    /// `Koppeltaal`.
    public var family: String { "Koppeltaal" }

    /// The client and connection of the configuration.
    public var settings: OAuthSessionSettings {
        OAuthSessionSettings(
            options: configuration.options, refresh: RefreshPolicy(skew: configuration.refreshSkew),
            store: configuration.store,
            storeKey: configuration.storeKey, clock: configuration.clock)
    }

    /// Activated with the context, or waiting for an activation code.
    public func status(of state: OAuthSessionState<LaunchContext>?) -> KoppeltaalStatus {
        guard let grant = state?.grant else { return .needsActivation }
        return .active(grant.context, accessTokenExpiresAt: grant.tokens.expiresAt)
    }

    /// ``KoppeltaalError/needsActivation(underlying:)``.
    public func needsGrant(_ refusal: OAuthError?) -> any Error {
        KoppeltaalError.needsActivation(underlying: refusal)
    }

    /// ``KoppeltaalError/clientRejected(_:)``.
    public func clientRejected(_ refusal: OAuthError) -> any Error { KoppeltaalError.clientRejected(refusal) }

    /// Discovery and token response errors in Koppeltaal's terms.
    public func familyError(_ error: any Error) -> any Error {
        switch error {
        case DiscoveryError.untrustedEndpoint(let name, let url):
            return KoppeltaalError.untrustedEndpoint(name: Self.name(of: name), url: url)
        case DiscoveryError.missingEndpoints(let names):
            return KoppeltaalError.discoveryFailed(missing: names.map(Self.name))
        case DiscoveryError.invalidEndpoint(let name):
            return KoppeltaalError.discoveryFailed(missing: [Self.name(of: name)])
        case DiscoveryError.untrustedIssuer(let issuer):
            guard let url = URL(string: issuer) else { return KoppeltaalError.discoveryFailed(missing: ["issuer"]) }
            return KoppeltaalError.untrustedEndpoint(name: "issuer", url: url)
        case let error as TokenResponseError: return KoppeltaalError.malformedTokenResponse(error.reason)
        default: return error
        }
    }

    /// The configured FHIR server and client.
    public func registration(of grant: OAuthSessionGrant<LaunchContext>) -> OAuthRegistration {
        OAuthRegistration(
            baseURL: configuration.fhirBaseURL, client: configuration.client, redirectURI: configuration.redirectURI)
    }

    /// The configured FHIR server, whose errors are OperationOutcomes or OAuth errors.
    public func resourceServer(of grant: OAuthSessionGrant<LaunchContext>) -> ResourceServer {
        ResourceServer(
            baseURL: configuration.fhirBaseURL, family: family, operation: "FHIR", accept: "application/json",
            contentType: "application/json+fhir", options: configuration.options
        ) { response in
            HTTPClientCore.error(
                for: response, operation: "FHIR",
                formats: [
                    KoppeltaalAPIClient.ErrorFormats.operationOutcomeError, KoppeltaalAPIClient.ErrorFormats.oAuthError,
                ])
        }
    }

    /// The context with what the refresh response carries of it.
    public func context(refreshedBy response: TokenResponse, previous: LaunchContext) throws -> LaunchContext {
        previous.updated(with: try KoppeltaalTokenResponse(extending: response))
    }

    /// An endpoint's name as Koppeltaal's `oauth-uris` spells it.
    static func name(of endpoint: EndpointName) -> String {
        ConformanceEndpoints.names.first { $0.value == endpoint }?.key ?? endpoint.rawValue
    }
}
