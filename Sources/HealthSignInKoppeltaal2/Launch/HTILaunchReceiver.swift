import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// A module's side of an HTI 2.0 launch: reads the form the portal's page posted and accepts the launch only when
/// every rule of Koppeltaal 2.0 holds.
///
/// The checks, in order:
/// 1. The form's `iss` is the FHIR base URL the module trusts, exactly; the token is `launch`, or `token` where a
///    portal sent only HTI:core's name.
/// 2. The signature: by the portal's keys (``Verification/portalKeys(_:)``, fetched from each portal's JWKS URL and
///    kept, or ``Verification/keys(_:)``, sets the module holds), with
///    an algorithm HTI allows (RS256–512, ES256–512; never `none` or HMAC) and the header's `kid`; or by the domain's
///    auth service (``Verification/introspection(_:)``), which the specification prefers since apps do not know one
///    another's keys. Introspection uses the token up at the auth service; a module that signs the user in with SHOF
///    lets the auth service check it there instead (``Verification/signIn``).
/// 3. `aud` is the module's own Device.
/// 4. `exp` has not passed; `exp` is at most ``Configuration/maximumLifetime`` after `iat` (five minutes, the
///    specification's limit); `iat` is not in the future. ``Configuration/clockSkew`` is allowed on both clocks.
/// 5. The `jti` was not used before, recorded in the replay store until `exp` (plus the skew); with
///    ``Verification/signIn`` the auth service keeps that record instead, since the claims are not yet verified.
public struct HTILaunchReceiver: Sendable {
    /// How the token's signature is checked.
    public enum Verification: Sendable {
        /// By the public keys of each portal, by its client id (the token's `iss`), as given.
        case keys([String: JSONWebKeySet])
        /// By the public keys of each portal, fetched from its JWKS URL, cached and fetched again on rotation.
        case portalKeys(HTIPortalKeys)
        /// By the domain's introspection endpoint, with the module's own backend client authenticating. The auth
        /// service then spends the token, so it cannot also start a SHOF sign-in.
        case introspection(Koppeltaal2BackendClient)
        /// By the auth service when the module passes the token on to SHOF's authorization request, as the
        /// reference module does: the receiver checks everything but the signature, and the launch is to be
        /// trusted only once ``SHOFSignIn/finish(_:pending:)`` has returned its user, whose id token names the
        /// launch's `sub` and `resource`.
        case signIn
    }

    /// The receiver's settings.
    public struct Configuration: Sendable {
        /// The module's Device, `Device/<id>`, which a launch's `aud` must be.
        public var deviceReference: String
        /// The FHIR base URL of the domain, which the form's `iss` must be.
        public var trustedFHIRBaseURL: URL
        /// How signatures are checked.
        public var verification: Verification
        /// Where used `jti`s are remembered: in memory, or ``CredentialStoreHTIReplayStore`` for several instances.
        public var replayStore: any HTIReplayStore
        /// The longest `exp` − `iat` accepted, in seconds: ``HTILaunchReceiver/specifiedMaximumLifetime`` (300)
        /// by default. The reference portal signs tokens for 15 minutes; a module that must accept them sets
        /// ``HTILaunchReceiver/referencePortalLifetime`` (900), knowingly.
        public var maximumLifetime: TimeInterval
        /// The clock difference tolerated between portal and module, in seconds.
        public var clockSkew: TimeInterval
        /// The module's clock.
        public var clock: any TimeSource

        /// A configuration; a token without `iat` or `exp` is always refused.
        public init(
            deviceReference: String, trustedFHIRBaseURL: URL, verification: Verification,
            replayStore: any HTIReplayStore = InMemoryHTIReplayStore(),
            maximumLifetime: TimeInterval = HTILaunchReceiver.specifiedMaximumLifetime, clockSkew: TimeInterval = 30,
            clock: any TimeSource = SystemClock()
        ) {
            self.deviceReference = deviceReference
            self.trustedFHIRBaseURL = trustedFHIRBaseURL
            self.verification = verification
            self.replayStore = replayStore
            self.maximumLifetime = maximumLifetime
            self.clockSkew = clockSkew
            self.clock = clock
        }
    }

    /// The specification's longest launch token life, five minutes.
    public static let specifiedMaximumLifetime: TimeInterval = 300
    /// The life of the reference portal's launch tokens, fifteen minutes, for modules that must accept them.
    public static let referencePortalLifetime: TimeInterval = 900

    /// The settings.
    public let configuration: Configuration

    /// A receiver.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Accepts the launch a form carries.
    ///
    /// - Parameter form: the posted fields (`application/x-www-form-urlencoded`).
    /// - Throws: `ConfigurationError.invalidSetting` for a `maximumLifetime` or `clockSkew` that is NaN, negative or
    ///   past a day (an infinite one would accept any time); ``HTILaunchError`` for a launch that breaks a rule; for
    ///   introspection, what the request throws.
    public func receive(_ form: FormFields) async throws -> HTILaunch {
        let day: TimeInterval = 86_400
        _ = try ConfigurationError.checked(configuration.maximumLifetime, named: "maximumLifetime", in: 0...day)
        _ = try ConfigurationError.checked(configuration.clockSkew, named: "clockSkew", in: 0...day)
        guard let token = form["launch"] ?? form["token"], !token.isEmpty else {
            throw HTILaunchError(.missingField, "the form has no launch (or token) field")
        }
        guard let issuer = form["iss"] else { throw HTILaunchError(.missingField, "the form has no iss field") }
        guard issuer == configuration.trustedFHIRBaseURL.absoluteString else {
            throw HTILaunchError(.untrustedFHIRServer, "the form's iss is not the trusted FHIR base URL")
        }
        let claims = try await verifiedClaims(token)
        let context = try HTILaunchContext(claims: claims)
        guard context.audience == configuration.deviceReference else {
            throw HTILaunchError(.wrongAudience, "aud is \(context.audience), not \(configuration.deviceReference)")
        }
        let (issuedAt, expiresAt) = try checkTimes(claims)
        guard let id = claims["jti"]?.stringValue, !id.isEmpty else {
            throw HTILaunchError(.malformedToken, "the launch token has no \"jti\"")
        }
        // Without a verified signature the claims are anyone's: recording their jti would let a forger spend the
        // real token's. The auth service uses the token once when SHOF passes it on.
        if case .signIn = configuration.verification {
        } else {
            let now = configuration.clock.now()
            guard
                try await configuration.replayStore.use(
                    id, issuer: context.issuer, until: expiresAt.addingTimeInterval(configuration.clockSkew), now: now)
            else { throw HTILaunchError(.replayed, "the launch token \(id) was used before") }
        }
        return HTILaunch(
            context: context, id: id, issuedAt: issuedAt, expiresAt: expiresAt,
            fhirBaseURL: configuration.trustedFHIRBaseURL, token: token)
    }

    /// `iat` and `exp`, checked against the clock and the lifetime limit.
    private func checkTimes(_ claims: JSONObject) throws(HTILaunchError) -> (Date, Date) {
        guard let iat = claims["iat"]?.numberValue?.doubleValue, let exp = claims["exp"]?.numberValue?.doubleValue
        else { throw HTILaunchError(.malformedToken, "the launch token needs numeric \"iat\" and \"exp\"") }
        let now = configuration.clock.now().timeIntervalSince1970
        let skew = configuration.clockSkew
        guard iat <= now + skew else { throw HTILaunchError(.issuedInTheFuture, "iat is in the future") }
        guard exp > now - skew else { throw HTILaunchError(.expired, "the launch token expired") }
        guard exp > iat else { throw HTILaunchError(.malformedToken, "exp is not after iat") }
        guard exp - iat <= configuration.maximumLifetime else {
            throw HTILaunchError(
                .lifetimeTooLong,
                "exp is \(String(format: "%.0f", exp - iat)) s after iat, at most "
                    + "\(String(format: "%.0f", configuration.maximumLifetime)) are accepted")
        }
        return (Date(timeIntervalSince1970: iat), Date(timeIntervalSince1970: exp))
    }

    /// The token's claims once its signature (or the auth service) vouches for them.
    private func verifiedClaims(_ token: String) async throws -> JSONObject {
        let parts: JWS.Parts
        do { parts = try JWS.parts(of: token) } catch {
            throw HTILaunchError(.malformedToken, "the launch token is not a compact JWS")
        }
        guard let algorithm = JWSAlgorithm(rawValue: parts.algorithm),
            HTILaunchComposer.algorithms.contains(algorithm)
        else { throw HTILaunchError(.algorithmNotAccepted, "alg \(parts.algorithm) is not an HTI algorithm") }
        guard let claims = (try? JSONValue.parse(parts.payload))?.objectValue else {
            throw HTILaunchError(.malformedToken, "the launch token's payload is not a JSON object")
        }
        switch configuration.verification {
        case .keys(let portals):
            guard let issuer = claims["iss"]?.stringValue, let keys = portals[issuer] else {
                throw HTILaunchError(.invalidSignature, "the launch token's issuer is not a known portal")
            }
            try Self.verify(token, key: parts.keyID.flatMap { keys.key(for: algorithm, keyID: $0) })
            return claims
        case .portalKeys(let portals):
            guard let issuer = claims["iss"]?.stringValue else {
                throw HTILaunchError(.invalidSignature, "the launch token's issuer is not a known portal")
            }
            guard let keyID = parts.keyID else {
                throw HTILaunchError(.invalidSignature, "the launch token names no kid")
            }
            try Self.verify(token, key: try await portals.key(issuer: issuer, keyID: keyID, algorithm: algorithm))
            return claims
        case .introspection(let backend):
            return try await introspect(token, backend: backend)
        case .signIn:
            return claims
        }
    }

    /// Checks the token's signature with `key`, the portal's key of its `kid`.
    private static func verify(_ token: String, key: JSONWebKey?) throws(HTILaunchError) {
        guard let key else { throw HTILaunchError(.invalidSignature, "no key of the portal has the token's kid") }
        do { try JWS.verify(token, key: key, algorithms: HTILaunchComposer.algorithms) } catch {
            throw HTILaunchError(.invalidSignature, "the signature does not verify: \(error)")
        }
    }

    /// Asks the domain's auth service whether the token is active, authenticating with a client assertion whose
    /// `aud` is the token endpoint: the reference auth service accepts no other, though the specification names the
    /// introspection endpoint.
    private func introspect(_ token: String, backend: Koppeltaal2BackendClient) async throws -> JSONObject {
        let endpoints = try await backend.endpoints()
        guard let introspection = endpoints.introspection else {
            throw SignInError(.discoveryFailed, "the domain names no introspection endpoint", family: "Koppeltaal2")
        }
        let client = backend.configuration.registration.client
        guard let signer = client.assertionSigner else {
            throw SignInError(
                .invalidConfiguration, "introspection needs the module's signing key", family: "Koppeltaal2")
        }
        var builder = try HTTPRequestBuilder(
            method: .post, server: introspection, serverName: "introspection", path: "")
        builder.headers["Accept"] = "application/json"
        var form = FormFields()
        form.append("token", token, sensitive: true)
        let assertion = try signer.assertion(clientID: client.clientID, tokenEndpoint: endpoints.token)
        form.append("client_assertion_type", ClientAssertion.type)
        form.append("client_assertion", assertion.token, sensitive: true)
        builder.form = form
        let options = backend.configuration.session.options
        let response = try await options.send(
            try builder.build(timeout: options.timeout),
            operation: OperationID(family: "Koppeltaal2", method: "Introspect"))
        guard response.isSuccess else {
            throw OAuthError.clientRefusal(response, operation: "Koppeltaal2.Introspect")
                ?? UnexpectedResponseError(operation: "Koppeltaal2.Introspect", response: response)
        }
        guard let answer = (try? JSONValue.parse(response.body))?.objectValue else {
            throw UnexpectedResponseError(
                operation: "Koppeltaal2.Introspect", response: response, reason: "the answer is not a JSON object")
        }
        guard answer["active"]?.boolValue == true else {
            throw HTILaunchError(.inactive, "the auth service says the launch token is not active")
        }
        return answer
    }
}
