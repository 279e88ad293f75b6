import Foundation
@_spi(Generated) import HealthSignInCore

/// The `jti`s a request's client assertions used and how many were refused, while client authentication runs.
final class AssertionLedger {
    var seen: Set<String>
    var rejected = 0

    init(seen: Set<String>) { self.seen = seen }
}

/// `private_key_jwt` as SMART asks it (RFC 7523, as the emulator checks it on Authlib): RS384 or ES384, `typ` JWT, a
/// `kid`, `iss` = `sub` = the client (and = `client_id` when sent), `aud` = the token endpoint's URL, `exp` at most
/// five minutes ahead (60 s leeway either way), a `jti` never seen before. Every refusal is counted.
extension SMARTTestServer {
    private static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    private static let leeway: TimeInterval = 60

    /// The client id an assertion proves, nil when the request carries none.
    static func verifyAssertion(
        _ request: ReceivedRequest, audience: String, now: Date, clients: [String: Client], ledger: AssertionLedger
    ) throws(OAuthFailure) -> String? {
        guard request.form["client_assertion_type"] == assertionType, let assertion = request.form["client_assertion"],
            !assertion.isEmpty
        else { return nil }
        do throws(OAuthFailure) {
            return try verify(
                assertion, request: request, audience: audience, now: now, clients: clients, ledger: ledger)
        } catch {
            ledger.rejected += 1
            throw error
        }
    }

    private static func refuse(_ description: String) -> OAuthFailure { OAuthFailure("invalid_client", description) }

    private static func verify(
        _ assertion: String, request: ReceivedRequest, audience: String, now: Date, clients: [String: Client],
        ledger: AssertionLedger
    ) throws(OAuthFailure) -> String {
        guard let parts = try? JWS.parts(of: assertion) else { throw refuse("Invalid JWT assertion.") }
        guard let claims = (try? JSONValue.parse(parts.payload))?.objectValue else {
            throw refuse("Invalid JWT payload.")
        }
        guard parts.header["typ"]?.stringValue == "JWT", let keyID = parts.keyID, !keyID.isEmpty,
            let algorithm = JWSAlgorithm(rawValue: parts.algorithm), [.rs384, .es384].contains(algorithm)
        else { throw refuse("the header needs typ JWT, a kid and alg RS384 or ES384") }
        guard let subjectValue = claims["sub"] else { throw refuse("Missing claim: 'sub'") }
        guard let subject = subjectValue.stringValue else { throw refuse("Invalid claim: 'sub'") }
        guard let client = clients[subject] else { throw OAuthClientAuthentication.unknownClient(status: 400) }
        guard case .privateKeyJWT(let keys) = client.authentication, let key = keys.key(for: algorithm, keyID: keyID),
            (try? JWS.verify(assertion, key: key, algorithms: [.rs384, .es384])) != nil
        else { throw refuse("bad_signature") }
        try checkClaims(claims, audience: audience, now: now)
        guard claims["iss"]?.stringValue == subject else { throw refuse("Issuer and Subject MUST match.") }
        guard let expiry = number(claims["exp"]), expiry <= now.timeIntervalSince1970 + 300 + leeway else {
            throw refuse("exp is more than 5 minutes ahead")
        }
        guard let jti = claims["jti"]?.stringValue else { throw refuse("Missing JWT ID.") }
        guard ledger.seen.insert(subject + "|" + jti).inserted else { throw refuse("JWT ID is used before.") }
        if let sent = request.form["client_id"], sent != subject {
            throw refuse("client_id does not match the assertion")
        }
        return subject
    }

    /// The registered claims every assertion needs, with the leeway for clocks that differ.
    private static func checkClaims(_ claims: JSONObject, audience: String, now: Date) throws(OAuthFailure) {
        for name in ["iss", "sub", "aud", "exp"] where claims[name] == nil {
            throw refuse("Missing '\(name)' claim")
        }
        let audiences =
            claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? [claims["aud"]?.stringValue].compactMap { $0 }
        guard audiences.contains(audience) else { throw refuse("Invalid claim: 'aud'") }
        let time = now.timeIntervalSince1970
        guard let expiry = number(claims["exp"]) else { throw refuse("Invalid claim: 'exp'") }
        guard expiry >= time - leeway else { throw refuse("The token is expired") }
        if let notBefore = number(claims["nbf"]), notBefore > time + leeway {
            throw refuse("The token is not valid yet")
        }
    }

    private static func number(_ value: JSONValue?) -> Double? { value?.numberValue.flatMap { Double($0.text) } }

    /// An id token for `client`, signed with `key` under the settings' variants.
    func idToken(
        client: String, authTime: Int?, nonce: String?, accessToken: String?, issue: Issue, settings: Settings,
        key: JSONWebKey
    ) -> String {
        let now = EpochSeconds.of(issue.now)
        var claims: [JSONObject.Member] = [
            ("iss", .string(settings.idTokenIssuer ?? issue.issuer)),
            ("aud", settings.idTokenAudienceIsArray ? [.string(client)] : .string(client)), ("iat", .integer(now)),
            ("auth_time", authTime.map { .integer($0) } ?? .null),
            ("exp", .integer(settings.idTokenExpired ? now - 3600 : EpochSeconds.adding(now, settings.tokenLifetime))),
        ]
        if let nonce = settings.idTokenNonce ?? nonce { claims.append(("nonce", .string(nonce))) }
        if let accessToken {
            // OpenID Connect Core 3.1.3.6: the left half of the access token's SHA-256, base64url.
            let digest = CryptoPrimitives.sha256(Array(accessToken.utf8))
            claims.append(("at_hash", .string(Base64URL.encode(digest.prefix(digest.count / 2)))))
        }
        claims += [("sub", .string(settings.subject)), ("fhirUser", .string(settings.fhirUser))]
        let algorithm: JWSAlgorithm = settings.idTokenAlgorithm == .es256 ? .es256 : .rs256
        let header: JSONValue = ["typ": "JWT", "alg": .string(algorithm.rawValue), "kid": .text(key.keyID)]
        // The kit's own keys fit their algorithms: signing cannot fail on them.
        let token =
            (try? JWS.sign(
                header: header.serialized(), payload: JSONValue.object(JSONObject(claims)).serialized(), key: key,
                algorithm: algorithm)) ?? ""
        guard settings.tampersIDTokenSignature, let dot = token.lastIndex(of: ".") else { return token }
        var signature = Array(token[token.index(after: dot)...])
        if signature.count > 5 { signature[5] = signature[5] == "A" ? "B" : "A" }
        return String(token[...dot]) + String(signature)
    }
}
