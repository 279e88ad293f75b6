import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// SMART's rules on the OAuth layer: the grant keeps the launch context, its servers are the configuration's
/// registrations (found from their SMART configuration), and who signed in comes from the id token.
/// ``SMARTSession`` uses it; apps do not need to.
public struct SMARTProfile: OAuthProfile {
    /// The launch context the grant keeps.
    public typealias Context = SMARTLaunchContext

    /// The session's configuration.
    public let configuration: SMARTSession.Configuration

    /// The profile of a session with `configuration`.
    public init(configuration: SMARTSession.Configuration) { self.configuration = configuration }

    /// `SMART`.
    public var family: String { "SMART" }

    /// The configuration's session settings.
    public var settings: OAuthSessionSettings { configuration.session }

    /// The configuration's registrations.
    public var registrations: [OAuthRegistration] { configuration.registrations }

    /// The configuration's OpenID Connect policy.
    public var openID: OpenIDPolicy? { configuration.openID }

    /// `launch again`.
    public var signInAgain: String { "launch again" }

    /// The parameters of SMART's authorization request.
    public var authorizationParameterNames: Set<String> { Authorize.Request.propertyNames }

    /// The FHIR server's SMART configuration.
    public func advertisedEndpoints(at base: URL) async throws -> AdvertisedEndpoints {
        try await .smartConfiguration(at: base, options: configuration.session.options)
    }

    /// Authorized with the context, waiting for a redirect, or signed out.
    public func status(of state: OAuthSessionState<SMARTLaunchContext>?) -> SMARTStatus {
        if let grant = state?.grant { return .authorized(grant.context, accessTokenExpiresAt: grant.tokens.expiresAt) }
        return state?.pending == nil ? .signedOut : .awaitingRedirect
    }

    /// The FHIR server of the launch.
    public func baseURL(of grant: OAuthSessionGrant<SMARTLaunchContext>) -> URL { grant.context.fhirBaseURL }

    /// The launch context a token response gives, over the one a refresh renews.
    public func context(_ response: TokenResponse, previous: SMARTLaunchContext?, registration: OAuthRegistration)
        throws -> SMARTLaunchContext
    {
        SMARTLaunchContext(
            try SMARTTokenResponse(extending: response), previous: previous, fhirBaseURL: registration.baseURL)
    }

    /// The context with who signed in: the id token's issuer and subject, and its `fhirUser` when it names a
    /// resource of the FHIR server (relative, or absolute under its base URL).
    public func context(_ context: SMARTLaunchContext, signedInAs identity: IDToken, registration: OAuthRegistration)
        -> SMARTLaunchContext
    {
        var context = context
        context.issuer = identity.issuer
        context.subject = identity.subject
        context.fhirUser = identity.claims["fhirUser"]?.stringValue.flatMap {
            SMARTLaunchContext.resource($0, on: registration.baseURL)
        }
        return context
    }

    /// The FHIR server of the launch, whose errors are OAuth errors and bearer challenges.
    public func resourceServer(
        of grant: OAuthSessionGrant<SMARTLaunchContext>, registration: OAuthRegistration
    ) -> ResourceServer {
        ResourceServer.fhir(baseURL: registration.baseURL, options: configuration.session.options)
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
