import Foundation
import HealthSignInCore

/// The token endpoint: code redemption with PKCE, refresh with rotation, and backend services' client credentials,
/// each after the client authenticated by the one method it registered.
extension SMARTTestServer {
    /// What one token request is issued, drawn before the state is locked.
    struct Issue {
        let access: String
        let refresh: String
        let now: Date
        let reached: Reached
        let issuer: String
        let tokenURL: String
    }

    func token(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        guard operation != .unsupportedGrant else {
            return Handled(.oauthError(OAuthFailure("unsupported_grant_type")))
        }
        let reached = reached(request)
        let issue = Issue(
            access: core.token(), refresh: core.token(), now: core.now, reached: reached,
            issuer: issuer(request, settings), tokenURL: reached.root + "/auth/token")
        return state.withValue { state in
            do throws(OAuthFailure) {
                let methods: [ClientAuthenticationMethod] =
                    operation == .clientCredentials ? [.privateKeyJWT] : [.secretBasic, .none, .privateKeyJWT]
                let client = try authenticate(
                    request, methods: methods, audience: issue.tokenURL, now: issue.now, &state)
                switch operation {
                case .redeemCode:
                    return Handled(try redeem(request, client: client, issue: issue, &state))
                case .refreshToken:
                    let lose = state.loseNextRefreshResponse
                    let response = try refresh(request, client: client, issue: issue, &state)
                    state.loseNextRefreshResponse = false
                    return Handled(response, losesResponse: lose)
                default:
                    return Handled(try clientCredentials(request, client: client, issue: issue, &state))
                }
            } catch {
                return Handled(.oauthError(error))
            }
        }
    }

    /// The authenticated client: Basic (id and secret percent-decoded), `none`, or a `private_key_jwt` assertion.
    func authenticate(
        _ request: ReceivedRequest, methods: [ClientAuthenticationMethod], audience: String, now: Date,
        _ state: inout SMARTServerState
    ) throws(OAuthFailure) -> Client {
        let snapshot = state
        let assertions = AssertionLedger(seen: state.assertionIDs)
        defer {
            state.assertionIDs = assertions.seen
            state.assertionsRejected += assertions.rejected
        }
        var authentication = OAuthClientAuthentication(
            methods: methods, basic: OAuthClientAuthentication.percentDecodedBasic, unknownBasicClientIsRefused: true,
            client: { snapshot.authenticatable($0) })
        authentication.assertion = { (request: ReceivedRequest) throws(OAuthFailure) -> String? in
            try Self.verifyAssertion(
                request, audience: audience, now: now, clients: snapshot.clients, ledger: assertions)
        }
        let id = try authentication.authenticate(request).id
        guard let client = snapshot.clients[id] else { throw OAuthClientAuthentication.unknownClient(status: 400) }
        return client
    }

    private func redeem(_ request: ReceivedRequest, client: Client, issue: Issue, _ state: inout SMARTServerState)
        throws(OAuthFailure) -> HTTPResponseMessage
    {
        try Self.requireGrant("authorization_code", allowed: !client.isBackendService)
        guard let value = request.form["code"] else {
            throw OAuthFailure("invalid_request", "Missing 'code' in request.")
        }
        guard let code = state.codes[value], code.authorization.clientID == client.id, code.expiresAt > issue.now else {
            throw OAuthFailure("invalid_grant", "Invalid 'code' in request.")
        }
        let authorization = code.authorization
        guard request.form["redirect_uri"] == authorization.redirectURI else {
            throw OAuthFailure("invalid_grant", "Invalid 'redirect_uri' in request.")
        }
        let verifier = request.form["code_verifier"]
        if client.authentication == .none, verifier == nil {
            throw OAuthFailure("invalid_request", "Missing 'code_verifier'")
        }
        try PKCE.checkCodeVerifier(verifier, challenge: authorization.challenge, method: authorization.challengeMethod)
        var scope = authorization.scope.split(separator: " ").map(String.init)
        if state.settings.strictOpenID, !(authorization.prompt ?? "").split(separator: " ").contains("consent") {
            // OpenID Connect Core 11: offline access only with prompt=consent.
            scope.removeAll { $0 == "offline_access" }
        }
        var idToken: String?
        if scope.contains("openid") {
            idToken = self.idToken(
                client: client.id, authTime: code.authTime, nonce: authorization.nonce, accessToken: issue.access,
                issue: issue, settings: state.settings, key: state.signingKey)
        }
        state.codes[value] = nil
        return respond(
            scope: scope, client: client.id, context: authorization.context, idToken: idToken, authTime: code.authTime,
            lifetime: state.settings.tokenLifetime, issue: issue, &state)
    }

    private func refresh(_ request: ReceivedRequest, client: Client, issue: Issue, _ state: inout SMARTServerState)
        throws(OAuthFailure) -> HTTPResponseMessage
    {
        try Self.requireGrant("refresh_token", allowed: !client.isBackendService)
        guard let value = request.form["refresh_token"] else {
            throw OAuthFailure("invalid_request", "Missing 'refresh_token' in request.")
        }
        guard let entry = state.refresh[value], !entry.revoked, entry.clientID == client.id else {
            throw OAuthFailure("invalid_grant")
        }
        if state.refuseNextRefresh {
            state.refuseNextRefresh = false
            state.revoke(refreshToken: value)
            throw OAuthFailure("invalid_grant")
        }
        let granted = entry.scope.split(separator: " ").map(String.init)
        var scope = granted
        if let requested = request.form["scope"], !requested.isEmpty {
            scope = requested.split(separator: " ").map(String.init)
            guard Set(scope).isSubset(of: Set(granted)) else { throw OAuthFailure("invalid_scope") }
        }
        var idToken: String?
        if state.settings.strictOpenID, scope.contains("openid") {
            // OpenID Connect Core 12.2: the sign-in's iss, sub, aud and auth_time, a new iat, and no nonce.
            idToken = self.idToken(
                client: client.id, authTime: entry.authTime, nonce: nil, accessToken: nil, issue: issue,
                settings: state.settings, key: state.signingKey)
        }
        let response = respond(
            scope: scope, client: client.id, context: entry.context, idToken: idToken, authTime: entry.authTime,
            lifetime: state.settings.tokenLifetime, issue: issue, &state)
        if !state.settings.keepsRotatedRefreshTokens { state.refresh[value]?.revoked = true }
        return response
    }

    private func clientCredentials(
        _ request: ReceivedRequest, client: Client, issue: Issue, _ state: inout SMARTServerState
    ) throws(OAuthFailure) -> HTTPResponseMessage {
        try Self.requireGrant("client_credentials", allowed: client.isBackendService)
        let wanted = (request.form["scope"] ?? "").split(separator: " ").map(String.init)
        guard !wanted.isEmpty, wanted.allSatisfy(client.allows) else {
            throw OAuthFailure("invalid_scope", "The requested scope is invalid, unknown, or malformed.")
        }
        return respond(
            scope: wanted, client: client.id, context: [], idToken: nil, authTime: nil, lifetime: 300, issue: issue,
            &state, refreshes: false)
    }

    private static func requireGrant(_ grant: String, allowed: Bool) throws(OAuthFailure) {
        guard allowed else {
            throw OAuthFailure("unauthorized_client", "The client is not authorized to use 'grant_type=\(grant)'")
        }
    }

    /// Records the tokens and shapes the response: a refresh token only with `offline_access` or
    /// `online_access`, the launch context, and the settings' variants.
    private func respond(
        scope: [String], client: String, context: [JSONObject.Member], idToken: String?, authTime: Int?,
        lifetime: Int, issue: Issue, _ state: inout SMARTServerState, refreshes: Bool = true
    ) -> HTTPResponseMessage {
        let settings = state.settings
        let scopeText = scope.joined(separator: " ")
        let refreshToken =
            refreshes && (scope.contains("offline_access") || scope.contains("online_access")) ? issue.refresh : nil
        if let refreshToken {
            state.refresh[refreshToken] = .init(
                clientID: client, scope: scopeText, context: context, authTime: authTime)
        }
        state.access[issue.access] = .init(
            clientID: client, scope: scopeText, expiresAt: issue.now.addingTimeInterval(TimeInterval(lifetime)),
            context: context, refreshToken: refreshToken, audience: issue.reached.fhirBase)
        let shownScope = settings.dropsOfflineAccessFromScope ? scope.filter { $0 != "offline_access" } : scope
        var members: [JSONObject.Member] = [
            ("token_type", .string(settings.lowercaseTokenType ? "bearer" : "Bearer")),
            ("access_token", .string(issue.access)),
            ("expires_in", settings.expiresInAsString ? .string(String(lifetime)) : .integer(lifetime)),
        ]
        if let refreshToken { members.append(("refresh_token", .string(refreshToken))) }
        if !scopeText.isEmpty { members.append(("scope", .string(shownScope.joined(separator: " ")))) }
        if let idToken { members.append(("id_token", .string(idToken))) }
        for (name, value) in settings.additionalTokenMembers.sorted(by: { $0.key < $1.key }) {
            members.append((name, .string(value)))
        }
        if settings.tokenMemberDepth > 0 {
            var nested: JSONValue = "deep"
            for _ in 1..<settings.tokenMemberDepth { nested = [nested] }
            members.append(("__nested", nested))
        }
        members += context
        return .oauth(200, .object(JSONObject(members)))
    }
}
