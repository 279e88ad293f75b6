import Foundation
import HealthSignInCore

/// An OpenID Connect id token whose signature and claims were checked as OpenID Connect Core §3.1.3.7 says for the
/// authorization code flow: the issuer, the audience, the expiry, issue time and `nbf`, the nonce and, when present,
/// `at_hash`; its header may name no critical extension and no `typ` but `JWT` (RFC 8725 §3.11).
public struct IDToken: Sendable, Equatable, CustomStringConvertible {
    /// What a token must carry to be accepted.
    public struct Expectations: Sendable, Equatable {
        /// The issuer, exactly (the discovery document's `issuer`).
        public var issuer: String
        /// The client id, which `aud` must contain; any other audience is refused.
        public var clientID: String
        /// The nonce sent with the authorization request; nil when none was sent (then the claim is not checked).
        public var nonce: String?
        /// The access token issued with the id token, checked against `at_hash` when the token has one.
        public var accessToken: String?
        /// The signing algorithms accepted; OpenID Connect's baseline is RS256.
        public var algorithms: Set<JWSAlgorithm>
        /// How far the two clocks may disagree, in seconds: 0 to a day (anything else refuses every token with
        /// ``IDTokenError/invalidExpectations(_:)``).
        public var leeway: TimeInterval
        /// How long after its `iat` a token is still accepted, in seconds (plus ``leeway``); nil for no limit. A
        /// bound limits how long a leaked token can be replayed. At most a year; NaN or negative refuses every token.
        public var maximumAge: TimeInterval?

        /// Creates expectations.
        public init(
            issuer: String, clientID: String, nonce: String?, accessToken: String? = nil,
            algorithms: Set<JWSAlgorithm> = [.rs256], leeway: TimeInterval = 120, maximumAge: TimeInterval? = 600
        ) {
            self.issuer = issuer
            self.clientID = clientID
            self.nonce = nonce
            self.accessToken = accessToken
            self.algorithms = algorithms
            self.leeway = leeway
            self.maximumAge = maximumAge
        }
    }

    /// `iss`.
    public let issuer: String
    /// `sub`.
    public let subject: String
    /// `aud`, one audience or several.
    public let audiences: [String]
    /// `exp`.
    public let expiresAt: Date
    /// `iat`.
    public let issuedAt: Date
    /// Every claim, including those above.
    public let claims: JSONObject

    /// Verifies `token` with the key `keys` hold for its `kid` and algorithm, then checks its claims.
    ///
    /// - Throws: ``IDTokenError``.
    public init(validating token: String, keys: JSONWebKeySet, expecting expected: Expectations, now: Date)
        throws(IDTokenError)
    {
        let header: JWS.Parts
        do { header = try JWS.parts(of: token) } catch { throw .signature(error) }
        guard let algorithm = JWSAlgorithm(rawValue: header.algorithm), expected.algorithms.contains(algorithm) else {
            throw .signature(.algorithmNotAccepted(header.algorithm))
        }
        if let type = header.header["typ"], !Self.isJWTType(type) {
            throw .unexpectedTokenType(type.stringValue ?? "a value that is not a string")
        }
        guard let key = keys.key(for: algorithm, keyID: header.keyID) else { throw .noKey(keyID: header.keyID) }
        let parts: JWS.Parts
        do { parts = try JWS.verify(token, key: key, algorithms: expected.algorithms) } catch {
            throw .signature(error)
        }
        try self.init(payload: parts.payload)
        guard issuer == expected.issuer else { throw .issuerMismatch(issuer) }
        guard audiences.contains(expected.clientID), audiences.allSatisfy({ $0 == expected.clientID }) else {
            throw .audienceMismatch(audiences)
        }
        // OpenID Connect Core 3.1.3.7: an authorized party, when named, must be this client.
        if let party = claims["azp"], party.stringValue != expected.clientID {
            throw .invalidClaim("azp is not the client id")
        }
        try checkTimes(expected, now: now)
        if let nonce = expected.nonce {
            guard let carried = claims["nonce"]?.stringValue,
                CryptoPrimitives.constantTimeEqual(Array(carried.utf8), Array(nonce.utf8))
            else {
                throw .nonceMismatch
            }
        }
        if let accessToken = expected.accessToken, let atHash = claims["at_hash"]?.stringValue {
            guard
                CryptoPrimitives.constantTimeEqual(
                    Array(atHash.utf8), Array(Self.accessTokenHash(accessToken, algorithm: algorithm).utf8))
            else {
                throw .accessTokenHashMismatch
            }
        }
    }

    /// Verifies an id token that came with a refresh (OpenID Connect Core §12.2) as
    /// ``init(validating:keys:expecting:now:)`` does, but with the issuer of `original` and no nonce required, and
    /// requires it to name the same user and client as `original`, the id token of the sign-in: the same `sub`,
    /// `aud` and `azp`, the same `auth_time` when both carry one, and a `nonce`, when present, equal to the
    /// original's.
    ///
    /// - Throws: ``IDTokenError``; ``IDTokenError/differsFromSignIn(_:)`` names the claim that changed.
    public init(
        validating token: String, refreshing original: IDToken, keys: JSONWebKeySet, expecting expected: Expectations,
        now: Date
    ) throws(IDTokenError) {
        var expected = expected
        expected.issuer = original.issuer
        expected.nonce = nil
        try self.init(validating: token, keys: keys, expecting: expected, now: now)
        guard subject == original.subject else { throw .differsFromSignIn("sub") }
        guard Set(audiences) == Set(original.audiences) else { throw .differsFromSignIn("aud") }
        guard claims["azp"] == original.claims["azp"] else { throw .differsFromSignIn("azp") }
        if let time = claims["auth_time"], let first = original.claims["auth_time"],
            time.numberValue?.doubleValue != first.numberValue?.doubleValue
        {
            throw .differsFromSignIn("auth_time")
        }
        if let nonce = claims["nonce"], nonce != original.claims["nonce"] { throw .differsFromSignIn("nonce") }
    }

    /// The claims of an id token this app validated before and kept, such as the sign-in's to compare a refreshed
    /// one with. Nothing is verified: only a token the app checked itself may be read this way.
    ///
    /// - Throws: ``IDTokenError`` when it is not a JWS with the claims every id token has.
    public init(previouslyValidated token: String) throws(IDTokenError) {
        let parts: JWS.Parts
        do { parts = try JWS.parts(of: token) } catch { throw .signature(error) }
        try self.init(payload: parts.payload)
    }

    /// Reads the claims every id token has: `iss`, `sub`, `aud`, `exp` and `iat`.
    private init(payload: Data) throws(IDTokenError) {
        guard let claims = (try? JSONValue.parse(payload))?.objectValue else {
            throw .invalidClaim("the payload is not a JSON object")
        }
        self.claims = claims
        guard let issuer = claims["iss"]?.stringValue else { throw .missingClaim("iss") }
        self.issuer = issuer
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else { throw .missingClaim("sub") }
        self.subject = subject
        switch claims["aud"] {
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?:
            audiences = values.compactMap(\.stringValue)
            guard audiences.count == values.count else { throw .invalidClaim("aud holds a value that is not a string") }
        default: throw .missingClaim("aud")
        }
        guard let exp = claims["exp"]?.numberValue?.doubleValue else { throw .missingClaim("exp") }
        guard let iat = claims["iat"]?.numberValue?.doubleValue else { throw .missingClaim("iat") }
        expiresAt = Date(timeIntervalSince1970: exp)
        issuedAt = Date(timeIntervalSince1970: iat)
    }

    /// `exp`, `iat`, the maximum age and `nbf`, each with the leeway.
    private func checkTimes(_ expected: Expectations, now: Date) throws(IDTokenError) {
        let day: TimeInterval = 86_400
        guard (0...day).contains(expected.leeway) else {
            throw .invalidExpectations("the leeway \(expected.leeway) is not 0 to \(day) seconds")
        }
        if let maximumAge = expected.maximumAge, !(0...(365 * day)).contains(maximumAge) {
            throw .invalidExpectations("the maximum age \(maximumAge) is not 0 to a year of seconds; nil is none")
        }
        guard expiresAt.addingTimeInterval(expected.leeway) > now else { throw .expired(expiresAt) }
        guard issuedAt.addingTimeInterval(-expected.leeway) <= now else { throw .issuedInTheFuture(issuedAt) }
        if let maximumAge = expected.maximumAge, issuedAt.addingTimeInterval(maximumAge + expected.leeway) < now {
            throw .tooOld(issuedAt)
        }
        if let notBefore = claims["nbf"] {
            guard let seconds = notBefore.numberValue?.doubleValue else { throw .invalidClaim("nbf is not a number") }
            let date = Date(timeIntervalSince1970: seconds)
            guard date.addingTimeInterval(-expected.leeway) <= now else { throw .notYetValid(date) }
        }
    }

    /// Whether a header's `typ` names a JWT: `JWT` or `application/jwt`, in any case (RFC 7515 §4.1.9).
    private static func isJWTType(_ type: JSONValue) -> Bool {
        guard let text = type.stringValue?.lowercased() else { return false }
        return text == "jwt" || text == "application/jwt"
    }

    /// `at_hash` for `accessToken` (OpenID Connect Core §3.1.3.8): the left half of the hash that `algorithm` uses,
    /// base64url-encoded.
    public static func accessTokenHash(_ accessToken: String, algorithm: JWSAlgorithm) -> String {
        let digest = algorithm.digest(Array(accessToken.utf8))
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }

    /// The issuer, subject and expiry; no other claim is shown.
    public var description: String {
        "IDToken(iss: \(issuer), sub: \(subject), exp: \(DateTimeText.format(expiresAt)))"
    }
}

/// Why an id token was refused.
public enum IDTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token is malformed, signed with an algorithm not accepted, or its signature does not verify.
    case signature(JOSEError)
    /// The header's `typ` names another kind of token (an access token's `at+jwt`, say).
    case unexpectedTokenType(String)
    /// The key set has no single key for the token's `kid` and algorithm.
    case noKey(keyID: String?)
    /// A required claim is missing.
    case missingClaim(String)
    /// A claim has the wrong shape.
    case invalidClaim(String)
    /// `iss` is not the expected issuer.
    case issuerMismatch(String)
    /// `aud` does not name the client, or also names others.
    case audienceMismatch([String])
    /// `exp` has passed.
    case expired(Date)
    /// `iat` lies ahead of the clock by more than the leeway.
    case issuedInTheFuture(Date)
    /// `iat` lies further back than the maximum age and the leeway allow.
    case tooOld(Date)
    /// `nbf` lies ahead of the clock by more than the leeway.
    case notYetValid(Date)
    /// `nonce` is missing or not the one sent.
    case nonceMismatch
    /// `at_hash` does not match the access token.
    case accessTokenHashMismatch
    /// The id token of a refresh names another user or client than the sign-in's: the claim that differs.
    case differsFromSignIn(String)
    /// The expectations cannot be checked: a leeway or maximum age that is NaN, negative or past a day (an infinite
    /// one would accept any time). No token is accepted with them.
    case invalidExpectations(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .signature(let error): return "The id token was refused: \(error)"
        case .unexpectedTokenType(let type): return "The token's typ is \(type), not an id token's"
        case .noKey(let keyID):
            return "The server's key set has no single key for the id token (kid \(keyID ?? "absent"))"
        case .missingClaim(let claim): return "The id token has no \"\(claim)\" claim"
        case .invalidClaim(let reason): return "The id token has an invalid claim: \(reason)"
        case .issuerMismatch(let issuer): return "The id token was issued by \(issuer), not the expected issuer"
        case .audienceMismatch(let audiences):
            return "The id token is for \(audiences.joined(separator: ", ")), not only this client"
        case .expired(let date): return "The id token expired at \(DateTimeText.format(date))"
        case .issuedInTheFuture(let date): return "The id token was issued in the future (\(DateTimeText.format(date)))"
        case .tooOld(let date): return "The id token was issued too long ago (\(DateTimeText.format(date)))"
        case .notYetValid(let date): return "The id token is not valid before \(DateTimeText.format(date))"
        case .nonceMismatch: return "The id token does not carry the nonce that was sent"
        case .accessTokenHashMismatch: return "The id token's at_hash does not match the access token"
        case .differsFromSignIn(let claim): return "The refreshed id token's \(claim) differs from the sign-in's"
        case .invalidExpectations(let reason): return "The id token cannot be checked: \(reason)"
        }
    }
}

extension IDTokenError: SDKError {
    /// `ErrorRecovery.reauthorize`: the sign-in cannot be trusted, so it must be done again.
    public var recovery: ErrorRecovery { .reauthorize }
}
