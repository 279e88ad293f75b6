import Foundation
import HealthSignInCore

/// The auth service: client assertions, backend tokens, SHOF's authorization and code, introspection. Refusals are
/// plain text, as the reference service answers.
extension Koppeltaal2TestServer {
    /// The algorithms of client assertions.
    static let assertionAlgorithms: Set<JWSAlgorithm> = [.rs384, .es384, .rs512]
    /// The algorithms of launch tokens.
    static let launchAlgorithms: Set<JWSAlgorithm> = [.rs256, .rs384, .rs512, .es256, .es384, .es512]

    static var accessDenied: HTTPResponseMessage { .text(401, "Access Denied", type: "text/plain") }

    private static func badRequest(_ reason: String) -> HTTPResponseMessage {
        .text(400, "Bad Request, \(reason)", type: "text/plain")
    }

    /// The client id of a valid client assertion in the form, for `audiences`; nil when it is not one.
    private func authenticatedClient(_ request: ReceivedRequest, audiences: [URL]) -> String? {
        guard request.form["client_assertion_type"] == ClientAssertion.type,
            let assertion = request.form["client_assertion"], let parts = try? JWS.parts(of: assertion),
            let claims = (try? JSONValue.parse(parts.payload))?.objectValue,
            let issuer = claims["iss"]?.stringValue, let id = claims["jti"]?.stringValue,
            audiences.map(\.absoluteString).contains(claims["aud"]?.stringValue ?? ""),
            let expiry = claims["exp"]?.numberValue?.doubleValue
        else { return nil }
        let now = core.now.timeIntervalSince1970
        return state.withValue { state -> String? in
            guard let application = state.applications[issuer] else { return nil }
            // As the reference service, the jti is spent before the signature is checked.
            guard state.assertionIDs.insert(issuer + "\n" + id).inserted else { return nil }
            guard expiry > now, expiry <= now + ClientAssertion.maximumLifetime + 10,
                let algorithm = JWSAlgorithm(rawValue: parts.algorithm), Self.assertionAlgorithms.contains(algorithm),
                let key = application.keys.key(for: algorithm, keyID: parts.keyID),
                (try? JWS.verify(assertion, key: key, algorithms: Self.assertionAlgorithms)) != nil
            else { return nil }
            return issuer
        }
    }

    func clientCredentials(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard let clientID = authenticatedClient(request, audiences: [tokenURL]) else { return Self.accessDenied }
        let token = core.token()
        let lifetime = settings.accessTokenLifetime
        state.withValue {
            $0.accessTokens[token] = .init(clientID: clientID, expiresAt: core.now + TimeInterval(lifetime))
        }
        return .oauth(
            200,
            .object([
                "access_token": .string(token), "token_type": "Bearer", "expires_in": .integer(lifetime),
                "scope": "system/*.cruds",
            ]))
    }

    /// The claims of a launch token that holds for `clientID`'s Device, spending its `jti`; nil when it does not.
    func acceptedLaunch(_ token: String, for clientID: String) -> JSONObject? {
        guard let parts = try? JWS.parts(of: token), parts.keyID != nil,
            let claims = (try? JSONValue.parse(parts.payload))?.objectValue,
            let algorithm = JWSAlgorithm(rawValue: parts.algorithm), Self.launchAlgorithms.contains(algorithm),
            let issuer = claims["iss"]?.stringValue, let id = claims["jti"]?.stringValue,
            let issuedAt = claims["iat"]?.numberValue?.doubleValue, let expiry = claims["exp"]?.numberValue?.doubleValue
        else { return nil }
        let now = core.now.timeIntervalSince1970
        return state.withValue { state -> JSONObject? in
            guard let portal = state.applications[issuer], let module = state.applications[clientID],
                let key = portal.keys.key(for: algorithm, keyID: parts.keyID),
                (try? JWS.verify(token, key: key, algorithms: Self.launchAlgorithms)) != nil,
                claims["aud"]?.stringValue == module.device, issuedAt <= now + 2, expiry > now,
                expiry - issuedAt <= state.settings.maximumLaunchLifetime + 10,
                state.launchIDs.insert(issuer + "\n" + id).inserted
            else { return nil }
            return claims
        }
    }

    func authorize(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let query = request.query
        guard let clientID = query["client_id"], let application = state.current.applications[clientID] else {
            return Self.badRequest("unknown client")
        }
        guard let redirectURI = query["redirect_uri"], application.redirectURIs.contains(redirectURI) else {
            return Self.badRequest("invalid redirect_uri")
        }
        guard query["response_type"] == "code" else { return Self.badRequest("unsupported response_type") }
        guard query["aud"] == fhirBaseURL.absoluteString else {
            return Self.badRequest("assertion failed: Invalid audience")
        }
        let scopes = Set((query["scope"] ?? "").split(separator: " ").map(String.init))
        guard scopes == ["launch", "openid", "fhirUser"] else { return Self.badRequest("invalid scope") }
        guard let state = query["state"], let challenge = query["code_challenge"],
            query["code_challenge_method"] == "S256"
        else { return Self.badRequest("PKCE S256 and state are required") }
        guard let launch = query["launch"].flatMap({ acceptedLaunch($0, for: clientID) }) else {
            return Self.badRequest("invalid launch token")
        }
        let session = core.token()
        self.state.withValue {
            $0.authorizations[session] = .init(
                clientID: clientID, redirectURI: redirectURI, state: state, challenge: challenge, launch: launch,
                code: nil, issuedAt: core.now)
        }
        return .redirect(authURL.appendingPathComponent("idp/login").absoluteString + "?session=" + session)
    }

    /// The identity provider signs the user in (``Settings/identityProviderUser``, or the launch's own) and the auth
    /// service matches them to the launch's `sub`, as the reference service does by its resource's identifiers.
    func identityProviderLogin(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard let session = request.query["session"], let pending = state.current.authorizations[session],
            pending.code == nil
        else { return Self.badRequest("unknown session") }
        let subject = pending.launch["sub"]?.stringValue ?? ""
        let identifiers = (resource(subject)?["identifier"]?.arrayValue ?? []).compactMap { $0["value"]?.stringValue }
        let user = settings.identityProviderUser ?? identifiers.first ?? ""
        guard identifiers.contains(user) else {
            return .text(403, "Forbidden, patient identifier [\(user)] not found on [\(subject)]", type: "text/plain")
        }
        let code = core.uuid()
        state.withValue {
            $0.authorizations[session]?.code = code
            $0.authorizations[session]?.issuedAt = core.now
        }
        var answer = FormFields()
        answer.append("code", code)
        answer.append("state", pending.state)
        return .redirect(pending.redirectURI + "?" + answer.queryEncoded)
    }

    func authorizationCode(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard let clientID = authenticatedClient(request, audiences: [tokenURL]), let code = request.form["code"]
        else { return Self.accessDenied }
        // A code is used once and lives for a minute, whatever the answer.
        let now = core.now
        let found = state.withValue { state -> Koppeltaal2ServerState.Authorization? in
            guard let (session, pending) = state.authorizations.first(where: { $0.value.code == code }) else {
                return nil
            }
            state.authorizations[session] = nil
            return now.timeIntervalSince(pending.issuedAt) <= 60 ? pending : nil
        }
        guard let pending = found, pending.clientID == clientID, request.form["redirect_uri"] == pending.redirectURI,
            let verifier = request.form["code_verifier"],
            PKCEPair(verifier: verifier).challenge == pending.challenge
        else { return Self.accessDenied }
        let lifetime = settings.accessTokenLifetime
        var answer: JSONObject = [
            "access_token": "NOOP", "token_type": "Bearer", "expires_in": .integer(lifetime),
            "scope": "launch openid fhirUser", "id_token": .string(idToken(for: pending, lifetime: lifetime)),
        ]
        for name in ["resource", "definition", "sub", "patient", "intent"] {
            if let value = pending.launch[name] { answer[name] = value }
        }
        return .oauth(200, .object(answer))
    }

    private func idToken(for pending: Koppeltaal2ServerState.Authorization, lifetime: Int) -> String {
        let now = EpochSeconds.of(core.now)
        let claims: JSONObject = [
            "iss": .string(issuer), "aud": .string(pending.clientID), "azp": .string(pending.clientID),
            "sub": pending.launch["sub"] ?? .null, "iat": .integer(now), "nbf": .integer(now),
            "exp": .integer(EpochSeconds.adding(now, lifetime)), "nonce": .string(core.token(bytes: 16)),
            "jti": .string(core.uuid()),
        ]
        let header: JSONObject = ["alg": "RS256", "kid": .string(signingKey.keyID ?? ""), "typ": "JWT"]
        return
            (try? JWS.sign(
                header: JSONValue.object(header).serialized(), payload: JSONValue.object(claims).serialized(),
                key: signingKey, algorithm: .rs256)) ?? ""
    }

    func introspect(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard let clientID = authenticatedClient(request, audiences: [tokenURL, introspectionURL]) else {
            return Self.accessDenied
        }
        guard let token = request.form["token"] else { return Self.badRequest("required field token missing") }
        if let access = state.current.accessTokens[token], access.expiresAt > core.now {
            return .json(200, .object(["active": true, "azp": .string(access.clientID), "scope": "system/*.cruds"]))
        }
        guard var claims = acceptedLaunch(token, for: clientID) else { return .json(200, .object(["active": false])) }
        claims["active"] = true
        return .json(200, .object(claims))
    }
}
