import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// Koppeltaal's rules on the OAuth layer: the grant keeps the launch context, its server is the configured FHIR
/// server's (found from its Conformance). ``KoppeltaalSession`` uses it; apps do not need to.
public struct KoppeltaalProfile: OAuthProfile {
    /// The launch context the grant keeps.
    public typealias Context = LaunchContext

    /// The session's configuration.
    public let configuration: KoppeltaalSession.Configuration

    /// The profile of a session with `configuration`.
    public init(configuration: KoppeltaalSession.Configuration) { self.configuration = configuration }

    /// `Koppeltaal`.
    public var family: String { "Koppeltaal" }

    /// The configuration's session settings.
    public var settings: OAuthSessionSettings { configuration.session }

    /// The configured FHIR server's registration.
    public var registrations: [OAuthRegistration] { [configuration.registration] }

    /// None: Koppeltaal's mobile launch does not sign in with OpenID Connect.
    public var openID: OpenIDPolicy? { nil }

    /// `ask the patient for a new activation code`.
    public var signInAgain: String { "ask the patient for a new activation code" }

    /// The parameters of Koppeltaal's Authorize.
    public var authorizationParameterNames: Set<String> { MobileAuthorize.Request.propertyNames }

    /// The endpoints the Conformance (any of its four spellings, JSON or XML) and, when enabled, the SMART
    /// configuration advertise.
    public func advertisedEndpoints(at base: URL) async throws -> AdvertisedEndpoints {
        try await ConformanceEndpoints.advertised(
            at: base, options: configuration.session.options,
            readsSMARTConfiguration: configuration.readsSMARTConfiguration)
    }

    /// Activated with the context, or waiting for an activation code.
    public func status(of state: OAuthSessionState<LaunchContext>?) -> KoppeltaalStatus {
        guard let grant = state?.grant else { return .needsActivation }
        return .active(grant.context, accessTokenExpiresAt: grant.tokens.expiresAt)
    }

    /// The configured FHIR server.
    public func baseURL(of grant: OAuthSessionGrant<LaunchContext>) -> URL { configuration.registration.baseURL }

    /// A grant whose patient and user, where its context names them by absolute URL, are on an origin the
    /// registration trusts: the grant does not record its server, and an earlier version kept one grant for every
    /// Koppeltaal server of an app.
    public func claimsUnrecorded(_ grant: OAuthSessionGrant<LaunchContext>) -> Bool {
        [grant.context.patient, grant.context.user].compactMap { $0.flatMap(URL.init(string:)) }
            .filter { $0.host != nil }.allSatisfy(configuration.registration.trustedOrigins.contains)
    }

    /// The launch context the token response gives, over the one a refresh renews.
    public func context(_ response: TokenResponse, previous: LaunchContext?, registration: OAuthRegistration) throws
        -> LaunchContext
    {
        (previous ?? LaunchContext()).updated(with: try KoppeltaalTokenResponse(extending: response))
    }

    /// The configured FHIR server, whose errors are OperationOutcomes or OAuth errors.
    public func resourceServer(of grant: OAuthSessionGrant<LaunchContext>, registration: OAuthRegistration)
        -> ResourceServer
    {
        ResourceServer(
            baseURL: registration.baseURL, family: family, operation: "FHIR", accept: "application/json",
            contentType: "application/json+fhir", options: configuration.session.options
        ) { response in
            HTTPClientCore.error(
                for: response, operation: "FHIR",
                formats: [
                    KoppeltaalAPIClient.ErrorFormats.operationOutcomeError, KoppeltaalAPIClient.ErrorFormats.oAuthError,
                ])
        }
    }
}

extension SignInError.Code {
    /// Authorize refused the activation code (unknown, already used or expired): ask the patient for a new one.
    public static let activationCodeRejected = Self("activationCodeRejected", recovery: .reauthorize)
}
