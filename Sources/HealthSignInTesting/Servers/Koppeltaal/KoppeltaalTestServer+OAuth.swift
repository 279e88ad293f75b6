import Foundation
import HealthSignInCore

/// MobileLaunch, Authorize, Token and Revoke, with the checks and answers of the emulator's Authlib server.
extension KoppeltaalTestServer {
    private static let authenticationMethods: [ClientAuthenticationMethod] = [.secretBasic, .secretPost, .none]
    private static let allowedScopes: Set<String> = ["patient/*.read", "patient/*.*", "user/*.read"]

    func mobileLaunch(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard let portal = request.basicCredentials,
            (portal.user, portal.password) == (portalCredentials.username, portalCredentials.password)
        else { return .empty(401, headers: ["WWW-Authenticate": "Basic realm=\"Koppeltaal\""]) }
        let missing = ["client_id", "patient", "user"].filter { (request.query[$0] ?? "").isEmpty }
        guard missing.isEmpty else {
            return .json(
                400,
                [
                    "error": "invalid_request",
                    "error_description": .string("Missing " + missing.joined(separator: ", ")),
                ])
        }
        let clientID = request.query["client_id"] ?? ""
        guard state.current.clients[clientID] != nil else {
            return .json(400, ["error": "invalid_client", "error_description": "Unknown target application."])
        }
        let code = activationCode(
            clientID: clientID, patient: request.query["patient"] ?? "", user: request.query["user"] ?? "",
            resource: request.query["resource"], intent: request.query["intent"])
        return .json(200, ["activation_code": .string(code), "expires_in": 7])
    }

    func authorize(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let now = core.now
        let code = core.token(bytes: 36)
        return state.withValue { state in
            do throws(OAuthFailure) {
                let (clientID, redirectURI, scope): (String, String?, String)
                do throws(OAuthFailure) {
                    (clientID, redirectURI, scope) = try Self.validateAuthorization(request, in: state)
                } catch {
                    var failure = error
                    failure.state = request.query["state"]
                    throw failure
                }
                let launch = (request.query["scope"] ?? "").split(separator: " ").filter { $0.hasPrefix("launch:") }
                let activation =
                    launch.count == 1 ? state.activations.removeValue(forKey: String(launch[0].dropFirst(7))) : nil
                guard let activation, activation.expiresAt >= now, activation.clientID == clientID else {
                    throw OAuthFailure("invalid_scope", "Unknown, used or expired launch code")
                }
                state.codes[code] = .init(
                    clientID: clientID, redirectURI: redirectURI, scope: scope, context: activation.context,
                    challenge: request.query["code_challenge"], challengeMethod: request.query["code_challenge_method"],
                    expiresAt: now.addingTimeInterval(60))
                let key = state.settings.britishSpelling ? "authorisation_code" : "authorization_code"
                return .oauth(200, .object(JSONObject([(key, .string(code))])))
            } catch {
                return .oauthError(error)
            }
        }
    }

    /// The client, the redirect URI as sent, and the granted scope of an authorization request (Authlib's order of
    /// checks); the mobile flow answers every error as JSON.
    private static func validateAuthorization(_ request: ReceivedRequest, in state: KoppeltaalServerState)
        throws(OAuthFailure) -> (String, String?, String)
    {
        let responseType = request.query["response_type"]
        guard responseType == "code" else {
            throw OAuthFailure("unsupported_response_type", "response_type=\(responseType ?? "None") is not supported")
        }
        guard let clientID = request.query["client_id"] else {
            throw OAuthFailure("invalid_client", "Missing 'client_id' parameter.")
        }
        guard let client = state.clients[clientID] else { throw OAuthClientAuthentication.unknownClient(status: 400) }
        let redirectURI = request.query["redirect_uri"]
        if let redirectURI, !client.redirectURIs.contains(redirectURI) {
            throw OAuthFailure("invalid_request", "Redirect URI \(redirectURI) is not supported by client.")
        }
        try checkChallenge(request)
        let scope = (request.query["scope"] ?? "").split(separator: " ").map(String.init)
            .filter { !$0.hasPrefix("launch:") && allowedScopes.contains($0) }
        return (clientID, redirectURI, scope.joined(separator: " "))
    }

    /// PKCE is optional here, but a challenge that is sent must be well formed (RFC 7636 §4.2).
    private static func checkChallenge(_ request: ReceivedRequest) throws(OAuthFailure) {
        let challenge = request.query["code_challenge"]
        let method = request.query["code_challenge_method"]
        guard challenge != nil || method != nil else { return }
        guard let challenge, !challenge.isEmpty else {
            throw OAuthFailure("invalid_request", "Missing 'code_challenge'")
        }
        guard PKCE.isWellFormed(challenge) else { throw OAuthFailure("invalid_request", "Invalid 'code_challenge'") }
        if let method, !["plain", "S256"].contains(method) {
            throw OAuthFailure("invalid_request", "Unsupported 'code_challenge_method'")
        }
    }

    func token(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        let issued = (access: core.token(bytes: 32), refresh: core.token(bytes: 36))
        let now = core.now
        return state.withValue { state in
            do throws(OAuthFailure) {
                guard operation != .unsupportedGrant else { throw OAuthFailure("unsupported_grant_type") }
                let client = try authentication(state).authenticate(request).id
                if operation == .redeemCode {
                    return Handled(try Self.redeem(request, client: client, issued: issued, now: now, &state))
                }
                let lose = state.loseNextRefreshResponse
                let response = try Self.refresh(request, client: client, issued: issued, now: now, &state)
                state.loseNextRefreshResponse = false
                return Handled(response, losesResponse: lose)
            } catch {
                return Handled(.oauthError(error))
            }
        }
    }

    private func authentication(_ state: KoppeltaalServerState) -> OAuthClientAuthentication {
        let raw = state.settings.basicDecoding == .raw
        let basic: (ReceivedRequest) -> (id: String, secret: String)? = { request in
            raw ? OAuthClientAuthentication.rawBasic(request) : OAuthClientAuthentication.formDecodedBasic(request)
        }
        return OAuthClientAuthentication(
            methods: Self.authenticationMethods, basic: basic, unknownBasicClientIsRefused: false,
            client: { state.authenticatable($0) })
    }

    private static func redeem(
        _ request: ReceivedRequest, client: String, issued: (access: String, refresh: String), now: Date,
        _ state: inout KoppeltaalServerState
    ) throws(OAuthFailure) -> HTTPResponseMessage {
        guard let code = request.form["code"] else {
            throw OAuthFailure("invalid_request", "Missing 'code' in request.")
        }
        guard let stored = state.codes[code], stored.clientID == client, stored.expiresAt > now else {
            throw OAuthFailure("invalid_grant", "Invalid 'code' in request.")
        }
        if let original = stored.redirectURI, request.form["redirect_uri"] != original {
            throw OAuthFailure("invalid_grant", "Invalid 'redirect_uri' in request.")
        }
        try PKCE.checkCodeVerifier(
            request.form["code_verifier"], challenge: stored.challenge, method: stored.challengeMethod)
        let refreshes = state.clients[client]?.refreshes ?? false
        let token = KoppeltaalServerState.Token(
            accessToken: issued.access, refreshToken: refreshes ? issued.refresh : nil,
            expiresAt: now.addingTimeInterval(TimeInterval(state.settings.tokenLifetime)), clientID: client,
            scope: stored.scope, context: stored.context)
        state.tokens.append(token)
        state.codes[code] = nil
        return .oauth(200, body(token, lifetime: state.settings.tokenLifetime, context: stored.context))
    }

    private static func refresh(
        _ request: ReceivedRequest, client: String, issued: (access: String, refresh: String), now: Date,
        _ state: inout KoppeltaalServerState
    ) throws(OAuthFailure) -> HTTPResponseMessage {
        guard state.clients[client]?.refreshes == true else {
            throw OAuthFailure("unauthorized_client", "The client is not authorized to use 'grant_type=refresh_token'")
        }
        guard let presented = request.form["refresh_token"] else {
            throw OAuthFailure("invalid_request", "Missing 'refresh_token' in request.")
        }
        guard let index = state.tokenIndex(refresh: presented), !state.tokens[index].refreshRevoked,
            state.tokens[index].clientID == client
        else { throw OAuthFailure("invalid_grant") }
        if state.refuseNextRefresh {
            state.refuseNextRefresh = false
            state.tokens[index].refreshRevoked = true
            state.tokens[index].accessRevoked = true
            throw OAuthFailure("invalid_grant")
        }
        let previous = state.tokens[index]
        let token = KoppeltaalServerState.Token(
            accessToken: issued.access, refreshToken: issued.refresh,
            expiresAt: now.addingTimeInterval(TimeInterval(state.settings.tokenLifetime)), clientID: client,
            scope: previous.scope, context: previous.context)
        state.tokens.append(token)
        state.tokens[index].refreshRevoked = true
        state.tokens[index].accessRevoked = true
        let context = state.settings.refreshOmitsContext ? [] : previous.context
        return .oauth(200, body(token, lifetime: state.settings.tokenLifetime, context: context))
    }

    /// The token response: Authlib's members, then the launch context.
    private static func body(_ token: KoppeltaalServerState.Token, lifetime: Int, context: [(String, String)])
        -> JSONValue
    {
        var members: [JSONObject.Member] = [
            ("token_type", "Bearer"), ("access_token", .string(token.accessToken)), ("expires_in", .integer(lifetime)),
        ]
        if let refresh = token.refreshToken { members.append(("refresh_token", .string(refresh))) }
        if !token.scope.isEmpty { members.append(("scope", .string(token.scope))) }
        members += context.map { ($0.0, .string($0.1)) }
        return .object(JSONObject(members))
    }

    func revoke(_ request: ReceivedRequest) -> HTTPResponseMessage {
        state.withValue { state in
            do throws(OAuthFailure) {
                let client = try authentication(state).authenticate(request).id
                guard let value = request.form["token"] else { throw OAuthFailure("invalid_request") }
                let hint = request.form["token_type_hint"]
                if let hint, !hint.isEmpty, !["access_token", "refresh_token"].contains(hint) {
                    throw OAuthFailure("unsupported_token_type")
                }
                let index =
                    hint == "refresh_token"
                    ? state.tokenIndex(refresh: value)
                    : state.tokens.firstIndex { $0.accessToken == value }
                        ?? (hint == "access_token" ? nil : state.tokenIndex(refresh: value))
                if let index {
                    guard state.tokens[index].clientID == client else { throw OAuthFailure("invalid_grant") }
                    state.tokens[index].accessRevoked = true
                    state.tokens[index].refreshRevoked = true
                }
                return .oauth(200, .object(JSONObject()))
            } catch {
                return .oauthError(error)
            }
        }
    }
}
