import Foundation
import HealthSignInCore

/// The team API, the auth host's token endpoint and the data API, answering as the emulator does.
extension VitalTestServer {
    private static let subjectType = "urn:junction:sign-in-token"

    /// `{"detail": {"error_type", "message"|"error_message", …}, "error"?}`: Junction's error body.
    static func failure(
        _ status: Int, _ type: String, _ message: String, oauthError: String? = nil,
        extra: [JSONObject.Member] = []
    ) -> HTTPResponseMessage {
        let detail: [JSONObject.Member] =
            [("error_type", .string(type)), (oauthError == nil ? "error_message" : "message", .string(message))] + extra
        var members: [JSONObject.Member] = [("detail", .object(JSONObject(detail)))]
        if let oauthError { members.append(("error", .string(oauthError))) }
        return .json(status, .object(JSONObject(members)))
    }

    /// FastAPI's answer to a key it does not know: `detail` is a string.
    private static var invalidKey: HTTPResponseMessage { .json(401, ["detail": "Invalid API key"]) }

    private func teamEnvironment(_ request: ReceivedRequest) -> TeamEnvironment? {
        request.header("x-vital-api-key").flatMap { Self.keys[$0] }
    }

    // MARK: - Team API

    func createUser(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard teamEnvironment(request) != nil else { return Self.invalidKey }
        guard let clientUserID = request.jsonObject?["client_user_id"]?.stringValue, !clientUserID.isEmpty else {
            return .json(
                422,
                [
                    "detail": [
                        ["loc": ["body", "client_user_id"], "msg": "field required", "type": "value_error.missing"]
                    ]
                ])
        }
        let existing = state.current.users.first { $0.user.clientUserID == clientUserID && !$0.user.deleted }
        if let existing {
            return Self.failure(
                400, "INVALID_REQUEST", "Client user id already exists.",
                extra: [("user_id", .string(existing.id)), ("created_on", .string(existing.user.createdOn))])
        }
        let key = request.header("x-vital-api-key") ?? Self.sandboxUSKey
        let id = createUser(clientUserID: clientUserID, teamKey: key)
        return .json(200, ["user_id": .string(id), "client_user_id": .string(clientUserID)])
    }

    func resolveUser(_ request: ReceivedRequest, clientUserID: String) -> HTTPResponseMessage {
        guard teamEnvironment(request) != nil else { return Self.invalidKey }
        guard let found = state.current.users.first(where: { $0.user.clientUserID == clientUserID && !$0.user.deleted })
        else { return Self.failure(404, "USER_NOT_FOUND", "No user has this client_user_id.") }
        return .json(
            200,
            [
                "user_id": .string(found.id), "client_user_id": .string(clientUserID),
                "created_on": .string(found.user.createdOn),
            ])
    }

    func deleteUser(_ request: ReceivedRequest, id: String) -> HTTPResponseMessage {
        guard teamEnvironment(request) != nil else { return Self.invalidKey }
        let deleted = state.withValue { state -> Bool in
            guard let user = state.user(id), !user.deleted else { return false }
            state.update(id) { $0.deleted = true }
            return true
        }
        return deleted ? .json(200, ["success": true]) : Self.failure(404, "USER_NOT_FOUND", "No such user.")
    }

    func createSignInToken(_ request: ReceivedRequest, userID: String) -> HTTPResponseMessage {
        guard let environment = teamEnvironment(request) else { return Self.invalidKey }
        let snapshot = state.current
        guard let user = snapshot.user(userID), !user.deleted, user.environment == environment else {
            return Self.failure(404, "USER_NOT_FOUND", "No such user.")
        }
        let token = mintSignInToken(
            userID: userID, environment: environment, lifetime: TimeInterval(snapshot.settings.signInTokenLifetime))
        return .json(200, ["user_id": .string(userID), "sign_in_token": .string(token)])
    }

    /// Standard Base64 of `{"public_key", "user_token"}`, the user token an RS256 JWT whose issuer names the
    /// environment.
    func mintSignInToken(userID: String, environment: TeamEnvironment, lifetime: TimeInterval) -> String {
        let tier = "\(environment.tier)-\(environment.region)"
        let issuer = "id-signer-\(tier)@vital-id-\(tier).iam.gserviceaccount.com"
        let issued = EpochSeconds.of(core.now)
        let hex = { (count: Int) in self.core.random.bytes(count: count).map { String(format: "%02x", $0) }.joined() }
        let claims: JSONValue = [
            "iss": .string(issuer), "sub": .string(issuer),
            "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
            "iat": .integer(issued), "exp": .integer(EpochSeconds.adding(issued, EpochSeconds.from(lifetime))),
            "jti": .string(hex(16)),
            "uid": .string(userID), "tenant_id": .string("t-" + hex(4) + "-test"),
            "claims": ["vital_team_id": .string(Self.teamID)],
        ]
        let header: JSONValue = ["alg": "RS256", "typ": "JWT"]
        // The kit's own key and claims: signing cannot fail on them.
        let userToken =
            (try? JWS.sign(
                header: header.serialized(), payload: claims.serialized(), key: TestSigningKeys.junction,
                algorithm: .rs256)) ?? ""
        let envelope: JSONValue = [
            "public_key": .string("AIza" + core.token(bytes: 26)), "user_token": .string(userToken),
        ]
        return envelope.serialized().base64EncodedString()
    }

    // MARK: - Auth host

    func token(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        let issued = (access: "vat_" + core.token(bytes: 24), refresh: "vrt_" + core.token(bytes: 32))
        let now = core.now
        switch operation {
        case .exchangeSignInToken:
            return Handled(exchange(request, issued: issued, now: now))
        case .refreshToken:
            return state.withValue { state in
                let lose = state.loseNextRefreshResponse
                state.loseNextRefreshResponse = false
                let response = Self.refresh(request, issued: issued, now: now, &state)
                return Handled(response, losesResponse: lose && response.isSuccess)
            }
        default:
            return Handled(
                Self.failure(400, "invalid_request", "unsupported grant_type", oauthError: "unsupported_grant_type"))
        }
    }

    private static func invalidToken(_ message: String) -> HTTPResponseMessage {
        failure(401, "invalid_token", message, oauthError: "invalid_grant")
    }

    private func exchange(_ request: ReceivedRequest, issued: (access: String, refresh: String), now: Date)
        -> HTTPResponseMessage
    {
        guard request.form["subject_token_type"] == Self.subjectType else {
            return Self.failure(
                400, "invalid_request", "subject_token_type must be " + Self.subjectType, oauthError: "invalid_request")
        }
        guard
            let parts = try? JWS.verify(
                request.form["subject_token"] ?? "", key: TestSigningKeys.junction, algorithms: [.rs256]),
            let claims = (try? JSONValue.parse(parts.payload))?.objectValue
        else { return Self.invalidToken("The sign-in token is not valid.") }
        guard let expiry = claims["exp"]?.numberValue.flatMap({ Double($0.text) }), expiry > now.timeIntervalSince1970
        else { return Self.invalidToken("The sign-in token expired.") }
        let tokenID = claims["jti"]?.stringValue ?? ""
        let userID = claims["uid"]?.stringValue ?? ""
        return state.withValue { state in
            guard state.usedTokenIDs.insert(tokenID).inserted else {
                return Self.invalidToken("The sign-in token was already used.")
            }
            guard let user = state.user(userID), !user.deleted else {
                return Self.invalidToken("The user does not exist.")
            }
            return state.issue(userID, now: now, tokens: issued)
        }
    }

    private static func refresh(
        _ request: ReceivedRequest, issued: (access: String, refresh: String), now: Date,
        _ state: inout VitalServerState
    ) -> HTTPResponseMessage {
        let presented = request.form["refresh_token"] ?? ""
        // A refresh token is spent when presented, whatever the answer: rotation leaves nothing to replay.
        let session = state.sessions.removeValue(forKey: presented)
        guard let session, !session.revoked, !state.refuseNextRefresh else {
            if session != nil { state.refuseNextRefresh = false }
            return failure(
                400, "reauthentication_required", "The refresh token is not valid.", oauthError: "invalid_grant")
        }
        guard let user = state.user(session.userID), !user.deleted else {
            return invalidToken("The user no longer exists.")
        }
        return state.issue(session.userID, now: now, tokens: issued)
    }

    // MARK: - Data API

    func providers(_ request: ReceivedRequest, userID: String) -> HTTPResponseMessage {
        if let denied = authorize(request, userID: userID) { return denied }
        let created = Self.timestamp(core.now)
        return .json(
            200,
            [
                "providers": [
                    [
                        "name": "Oura", "slug": "oura", "logo": "https://storage.example/oura.png",
                        "status": "connected", "created_on": .string(created),
                    ]
                ]
            ])
    }

    /// Nil when the request may read `userID`'s data, else the error response.
    private func authorize(_ request: ReceivedRequest, userID: String) -> HTTPResponseMessage? {
        let snapshot = state.current
        if request.header("x-vital-api-key") != nil {
            guard teamEnvironment(request) != nil else { return Self.invalidKey }
            guard let user = snapshot.user(userID), !user.deleted else {
                return Self.failure(404, "USER_NOT_FOUND", "No such user.")
            }
            return nil
        }
        let presented = request.bearerToken ?? ""
        guard let grant = snapshot.access[presented], grant.expiresAt > core.now,
            snapshot.user(grant.userID)?.deleted == false
        else { return Self.failure(401, "invalid_token", "The access token is not valid.") }
        guard grant.userID == userID else {
            return Self.failure(403, "invalid_request", "The token does not grant access to this user.")
        }
        return nil
    }
}
