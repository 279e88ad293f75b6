import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInOAuth

/// SMART-HTI-on-FHIR: after a module accepted an HTI launch, it signs the launched user in at the domain's identity
/// provider through the auth service, and learns who they are and which task they came for.
///
/// 1. ``start(_:prompt:)`` makes the authorization request: `launch` the HTI token as received, the scope `launch openid
///    fhirUser`, `aud` the FHIR base, PKCE S256 and a fresh `state`. Send the browser to its URL and keep the
///    ``SHOFPendingAuthorization`` with the user's web session. It is sealed with ``requestSealing``
///    (AES-256-GCM), so it may be kept where the user can read and change it, such as a cookie: it shows nothing, and
///    a changed one is refused.
/// 2. ``finish(_:pending:)`` opens the kept request, takes the redirect back: the `state` and redirect URI are
///    checked, the code is redeemed with a client assertion and the PKCE verifier, and the id token is checked by the
///    OAuth layer (signature by the auth service's JWKS, issuer, audience, times). Its `sub` and the answer's
///    `resource` must be the launch's.
///
/// The signed-in user's context (`subject`, `resource`, `patient`, `definition`, `intent`) comes from the token answer
/// and the verified launch only: the launch is inside the sealed request, so nobody without the module's key can
/// change whose record the module shows.
///
/// ```swift
/// let sealing = try CredentialSealing(keys: ["2026-11": keyBytes], current: "2026-11")
/// let signIn = SHOFSignIn(backend: backend, redirectURI: "https://module.example/shof", requestSealing: sealing)
/// let (url, pending) = try await signIn.start(launch)
/// cookie = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)  // then redirect to `url`
/// // ... the browser comes back:
/// let kept = try JSONDecoder().decode(SHOFPendingAuthorization.self, from: Data(cookie.utf8))
/// let user = try await signIn.finish(redirect, pending: kept)
/// ```
///
/// Every instance of a module that may finish what another started needs the same sealing keys; keys rotate as
/// `CredentialSealing` describes.
///
/// The access token of the answer is `NOOP`; it is dropped and never reaches a FHIR server: FHIR goes through the
/// module's own backend token. No `nonce` is sent: the reference auth service puts one of its own in the id token, and
/// the code flow's `state` and PKCE already bind the answer to the request.
public struct SHOFSignIn: Sendable {
    /// The module's backend, whose registration, keys and endpoints the sign-in uses.
    public let backend: Koppeltaal2BackendClient
    /// The redirect URI registered for the module.
    public let redirectURI: String
    /// The keys the pending requests are sealed with: the module's own, the same on every instance.
    public let requestSealing: CredentialSealing
    /// How long the user may take at the identity provider, in seconds: 0 to a day.
    public let lifetime: TimeInterval
    private let random: any RandomSource

    /// A sign-in for the module `backend` serves, sealing its pending requests with `requestSealing`.
    public init(
        backend: Koppeltaal2BackendClient, redirectURI: String, requestSealing: CredentialSealing,
        lifetime: TimeInterval = 600, random: any RandomSource = SystemRandomSource()
    ) {
        self.backend = backend
        self.redirectURI = redirectURI
        self.requestSealing = requestSealing
        self.lifetime = lifetime
        self.random = random
    }

    /// What a sealed request is bound to: this module, so a request sealed for another module with the same keys
    /// does not open here.
    private var sealingLabel: String {
        "koppeltaal2.shof-request." + backend.configuration.registration.client.clientID
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
        let kept = try JSONEncoder().encode(SHOFKeptRequest(authorization: authorization, launch: launch.context))
        let sealed = try requestSealing.seal(kept, for: sealingLabel)
        return (url, SHOFPendingAuthorization(sealed: Base64URL.encode(sealed)))
    }

    /// The request `pending` holds, when it was sealed by this module and not changed since.
    private func open(_ pending: SHOFPendingAuthorization) throws(SHOFError) -> SHOFKeptRequest {
        // Only sealed bytes: a sealing that still reads values in clear must not take a request written by the user.
        guard let sealed = Base64URL.decode(pending.sealed), sealed.first == 1,
            let opened = try? requestSealing.open(sealed, for: sealingLabel),
            let kept = try? JSONDecoder().decode(SHOFKeptRequest.self, from: opened)
        else { throw SHOFError.tamperedRequest }
        return kept
    }

    /// Redeems the browser's redirect back for the signed-in user and the launch context.
    ///
    /// - Throws: ``SHOFError/tamperedRequest`` when `pending` was changed or sealed with other keys; `SignInError` for
    ///   a redirect that is not this request's answer, a refusal or an expired request;
    ///   `OAuthError` when the code or the module's assertion is refused (a plain-text 401 too),
    ///   `UnexpectedResponseError` for other answers; ``SHOFError`` when the id token or the context does not hold.
    public func finish(_ redirect: URL, pending: SHOFPendingAuthorization) async throws -> SHOFUser {
        let pending = try open(pending)
        let settings = backend.configuration.session
        let code = try pending.authorization.code(
            from: redirect, at: settings.clock.now(), lifetime: lifetime, family: "Koppeltaal2")
        // The endpoints the code, the keys and the issuer come from are the domain's, discovered again: a request
        // kept from before the domain moved them is still redeemed where the domain says now.
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

/// An authorization request waiting for the browser to come back, sealed by ``SHOFSignIn``: keep it with the user's
/// web session. It is `Codable` as one string, the sealed request in base64url, which shows neither the PKCE verifier
/// nor the launch, and which the module refuses once changed.
public struct SHOFPendingAuthorization: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The sealed request, base64url: what to keep.
    public let sealed: String

    /// A request as kept: ``SHOFSignIn/finish(_:pending:)`` opens it.
    public init(sealed: String) { self.sealed = sealed }

    /// Reads the sealed string.
    public init(from decoder: any Decoder) throws {
        sealed = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the sealed string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(sealed)
    }

    /// Its length only.
    public var description: String { "SHOFPendingAuthorization(\(sealed.utf8.count) sealed bytes)" }
}

/// What a sealed request holds.
private struct SHOFKeptRequest: Codable {
    /// The state, PKCE verifier, redirect URI and endpoints.
    let authorization: PendingAuthorization
    /// The verified launch it signs in for.
    let launch: HTILaunchContext
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
    /// The kept request does not open with the module's keys: it was changed, or sealed by another module.
    case tamperedRequest

    /// The sign-in did not hold: the user has to be launched again.
    public var recovery: ErrorRecovery { .reauthorize }

    /// What was wrong.
    public var description: String {
        switch self {
        case .missingIDToken: return "SHOF: the token answer has no id_token"
        case .idTokenRejected(let error): return "SHOF: the id token was refused: \(error)"
        case .contextMismatch: return "SHOF: the signed-in user or task is not the launch's"
        case .tamperedRequest: return "SHOF: the kept request was changed or sealed with other keys"
        }
    }
}
