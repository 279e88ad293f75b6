import Foundation
import OAuth2
@_spi(Generated) import SDKRuntime

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

    /// The client and connection of the configuration.
    public var settings: OAuthSessionSettings {
        OAuthSessionSettings(
            client: configuration.client, options: configuration.options,
            refresh: RefreshPolicy(skew: configuration.refreshSkew), store: configuration.store,
            storeKey: configuration.storeKey, clock: configuration.clock)
    }

    /// Authorized with the context, waiting for a redirect, or signed out.
    public func status(of state: OAuthSessionState<SMARTLaunchContext>?) -> SMARTStatus {
        if let grant = state?.grant { return .authorized(grant.context, accessTokenExpiresAt: grant.tokens.expiresAt) }
        return state?.pending == nil ? .signedOut : .awaitingRedirect
    }

    /// ``SMARTError/needsLaunch(underlying:)``.
    public func needsGrant(_ refusal: OAuth2Error?) -> any Error { SMARTError.needsLaunch(underlying: refusal) }

    /// ``SMARTError/clientRejected(_:)``.
    public func clientRejected(_ refusal: OAuth2Error) -> any Error { SMARTError.clientRejected(refusal) }

    /// Discovery and token response errors in SMART's terms.
    public func familyError(_ error: any Error) -> any Error { SMARTError.translating(error) }

    /// The FHIR server of the launch, when the configuration still allows it (a stored state cannot name another).
    ///
    /// - Throws: ``SMARTError/untrustedIssuer(_:)``.
    public func authorizationBase(of grant: OAuthSessionGrant<SMARTLaunchContext>) throws -> URL {
        try allowedServer(grant.context.fhirBaseURL)
    }

    /// The FHIR server of the launch, whose errors are OAuth errors and bearer challenges.
    ///
    /// - Throws: ``SMARTError/untrustedIssuer(_:)``.
    public func resourceServer(of grant: OAuthSessionGrant<SMARTLaunchContext>) throws -> ResourceServer {
        ResourceServer.fhir(baseURL: try allowedServer(grant.context.fhirBaseURL), options: configuration.options)
    }

    /// The context with what the refresh response carries of it.
    public func context(refreshedBy response: TokenResponse, previous: SMARTLaunchContext) throws -> SMARTLaunchContext
    {
        SMARTLaunchContext(
            try SMARTTokenResponse(extending: response), previous: previous, fhirBaseURL: previous.fhirBaseURL)
    }

    /// The FHIR servers a launch may be at: the standalone one and the allowed issuers.
    var allowedServers: [URL] { configuration.allowedIssuers + (configuration.fhirBaseURL.map { [$0] } ?? []) }

    /// `url`, when it is one of ``allowedServers``.
    ///
    /// - Throws: ``SMARTError/untrustedIssuer(_:)``.
    func allowedServer(_ url: URL) throws -> URL {
        guard allowedServers.contains(where: { $0.absoluteString == url.absoluteString }) else {
            throw SMARTError.untrustedIssuer(url.absoluteString)
        }
        return url
    }
}

extension ResourceServer {
    /// The SMART FHIR server at `baseURL`, whose errors are OAuth errors and bearer challenges.
    static func fhir(baseURL: URL, options: ClientOptions) -> ResourceServer {
        ResourceServer(
            baseURL: baseURL, family: "SMART", operation: "FHIR", accept: "application/fhir+json",
            contentType: "application/fhir+json", options: options
        ) { response in
            HTTPClientCore.error(for: response, operation: "FHIR", formats: [SMARTClient.ErrorFormats.oAuth2Error])
        }
    }
}
