import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// SMART-HTI-on-FHIR: after a module accepted an HTI launch, it signs the launched user in at the domain's identity
/// provider through the auth service, and learns who they are and which task they came for.
///
/// 1. ``start(_:prompt:)`` makes the authorization request: `launch` the HTI token as received, the scope `launch openid
///    fhirUser`, `aud` the FHIR base, PKCE S256 and a fresh `state`. Send the browser to its URL and keep the
///    ``SHOFPendingAuthorization`` with the user's web session.
/// 2. ``finish(_:pending:)`` takes the redirect back: the `state` and redirect URI are checked, the code is redeemed
///    with a client assertion and the PKCE verifier, and the id token is checked by the OAuth layer (signature by the
///    auth service's JWKS, issuer, audience, times). Its `sub` and the answer's `resource` must be the launch's.
///
/// The access token of the answer is `NOOP`; it is dropped and never reaches a FHIR server: FHIR goes through the
/// module's own backend token. No `nonce` is sent: the reference auth service puts one of its own in the id token, and
/// the code flow's `state` and PKCE already bind the answer to the request.
public struct SHOFSignIn: Sendable {
    /// The module's backend, whose registration, keys and endpoints the sign-in uses.
    public let backend: Koppeltaal2BackendClient
    /// The redirect URI registered for the module.
    public let redirectURI: String
    /// How long the user may take at the identity provider, in seconds: 0 to a day.
    public let lifetime: TimeInterval
    private let random: any RandomSource

    /// A sign-in for the module `backend` serves.
    public init(
        backend: Koppeltaal2BackendClient, redirectURI: String, lifetime: TimeInterval = 600,
        random: any RandomSource = SystemRandomSource()
    ) {
        self.backend = backend
        self.redirectURI = redirectURI
        self.lifetime = lifetime
        self.random = random
    }

    /// The authorization request for `launch`, and what its answer is checked with.
    ///
    /// - Throws: `ConfigurationError.invalidSetting` for a ``lifetime`` that is not 0 to a day; ``HTILaunchError``
    ///   when the launch came from another domain than the backend's; `SignInError` when the domain names no
    ///   authorization endpoint.
    public func start(_ launch: HTILaunch, prompt: String? = nil) async throws -> (
        url: URL, pending: SHOFPendingAuthorization
    ) {
        _ = try ConfigurationError.checked(lifetime, named: "lifetime", in: 0...86_400)
        let base = backend.configuration.registration.baseURL
        guard launch.fhirBaseURL == base else {
            throw HTILaunchError(.untrustedFHIRServer, "the launch came from another domain than the backend's")
        }
        let endpoints = try await backend.discovery.endpoints(
            for: backend.configuration.registration, needing: [.authorization])
        let clock = backend.configuration.session.clock
        let authorization = PendingAuthorization(
            random: random, openID: false, redirectURI: redirectURI, endpoints: endpoints, startedAt: clock.now())
        let client = Koppeltaal2APIClient(
            configuration: .init(
                servers: .init(fhir: base, authorize: endpoints.authorization),
                options: backend.configuration.session.options))
        let url = try client.shofAuthorize(
            .init(
                clientID: backend.configuration.registration.client.clientID, redirectURI: redirectURI,
                launch: launch.token, state: authorization.state, aud: base.absoluteString,
                codeChallenge: authorization.pkce.challenge, prompt: prompt))
        return (url, SHOFPendingAuthorization(authorization: authorization, launch: launch.context))
    }

    /// Redeems the browser's redirect back for the signed-in user and the launch context.
    ///
    /// - Throws: `SignInError` for a redirect that is not this request's answer, a refusal or an expired request;
    ///   `OAuthError` or `UnexpectedResponseError` when the code is refused (the reference service answers a plain
    ///   401); ``SHOFError`` when the id token or the context does not hold.
    public func finish(_ redirect: URL, pending: SHOFPendingAuthorization) async throws -> SHOFUser {
        let settings = backend.configuration.session
        let code = try pending.authorization.code(
            from: redirect, at: settings.clock.now(), lifetime: lifetime, family: "Koppeltaal2")
        // The pending request may have been kept where the user can change it (a cookie): the endpoints the code,
        // the keys and the issuer come from are the domain's, discovered again, not the kept ones.
        let endpoints = try await backend.discovery.endpoints(
            for: backend.configuration.registration, needing: [.authorization])
        let server = AuthorizationServer(
            endpoints: endpoints, client: backend.configuration.registration.client, options: settings.options)
        let response = try await server.token(
            .authorizationCode(
                .init(
                    code: code, redirectURI: pending.authorization.redirectURI,
                    codeVerifier: pending.authorization.verifierToSend)))
        guard let idTokenText = response.idToken else { throw SHOFError.missingIDToken }
        let idToken: IDToken
        do {
            idToken = try IDToken(
                validating: idTokenText, keys: try await server.keys(),
                expecting: .init(
                    issuer: endpoints.expectedIssuer,
                    clientID: backend.configuration.registration.client.clientID, nonce: nil,
                    algorithms: HTILaunchComposer.algorithms),
                now: settings.clock.now())
        } catch {
            throw SHOFError.idTokenRejected(error)
        }
        let extra = response.additionalProperties
        let resource = extra["resource"]?.stringValue ?? pending.launch.resource
        guard idToken.subject == pending.launch.subject, resource == pending.launch.resource else {
            throw SHOFError.contextMismatch
        }
        return SHOFUser(
            subject: idToken.subject, resource: resource,
            definition: extra["definition"]?.stringValue ?? pending.launch.definition,
            patient: extra["patient"]?.stringValue ?? pending.launch.patient,
            intent: extra["intent"]?.stringValue ?? pending.launch.intent, idToken: idToken)
    }
}

/// An authorization request waiting for the browser to come back: keep it with the user's web session (it is
/// `Codable`; its secrets are redacted when printed).
public struct SHOFPendingAuthorization: Sendable, Codable, Equatable {
    /// The state, PKCE verifier, redirect URI and endpoints.
    public let authorization: PendingAuthorization
    /// The launch it signs in for.
    public let launch: HTILaunchContext
}

/// The user SHOF signed in, with the launch context.
public struct SHOFUser: Sendable, CustomStringConvertible {
    /// The user's FHIR resource (`Patient/…`, `Practitioner/…`, `RelatedPerson/…`): the id token's `sub`.
    public let subject: String
    /// The task, `Task/<id>`.
    public let resource: String
    /// The ActivityDefinition, when given.
    public let definition: String?
    /// The patient, when the user is not the patient.
    public let patient: String?
    /// The launch's intent, when given.
    public let intent: String?
    /// The checked id token.
    public let idToken: IDToken

    /// Who and which task.
    public var description: String { "SHOFUser(\(subject), \(resource))" }
}

/// Why a SHOF sign-in was refused after the code was redeemed.
public enum SHOFError: SDKError {
    /// The answer has no id token.
    case missingIDToken
    /// The id token did not hold.
    case idTokenRejected(any Error)
    /// The id token's `sub` or the answer's `resource` is not the launch's.
    case contextMismatch

    /// The sign-in did not hold: the user has to be launched again.
    public var recovery: ErrorRecovery { .reauthorize }

    /// What was wrong.
    public var description: String {
        switch self {
        case .missingIDToken: return "SHOF: the token answer has no id_token"
        case .idTokenRejected(let error): return "SHOF: the id token was refused: \(error)"
        case .contextMismatch: return "SHOF: the signed-in user or task is not the launch's"
        }
    }
}
