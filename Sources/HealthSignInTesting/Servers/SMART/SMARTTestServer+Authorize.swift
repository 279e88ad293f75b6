import Foundation
@_spi(Generated) import HealthSignInCore

/// The authorization endpoint: the emulator's checks in its order, then a sign-in page for the user, whose answer
/// sends the browser back with a code or `access_denied`.
extension SMARTTestServer {
    static let userScopes: Set<String> = [
        "launch", "launch/patient", "launch/encounter", "openid", "fhirUser", "profile", "offline_access",
        "online_access", "patient/*.rs", "patient/Patient.rs", "patient/Observation.rs", "user/*.rs", "user/Patient.rs",
        "patient/*.read", "user/*.read",
    ]

    /// A refusal of an authorization request: to the client's redirect URI when it can be trusted, else as JSON.
    private struct Refusal: Error {
        let failure: OAuthFailure
        let redirectURI: String?
    }

    func authorize(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let parameters = request.method == .post ? request.form : request.query
        let prompt = core.token(bytes: 12)
        let reached = reached(request)
        let now = core.now
        return state.withValue { state in
            do throws(Refusal) {
                let authorization = try validate(parameters, request: request, now: now, state: state)
                state.prompts[prompt] = authorization
                let action = URL(string: reached.root + "/auth/authorize/decision?request=" + prompt)
                return SignInPrompt.page(
                    action: action ?? authorizationURL,
                    asking: "Sign in to \(reached.fhirBase) and allow \(authorization.clientID) \(authorization.scope)?"
                )
            } catch {
                var failure = error.failure
                failure.state = parameters["state"]
                guard let redirectURI = error.redirectURI else { return .oauthError(failure) }
                return redirect(to: redirectURI, error: failure, settings: state.settings, request: request)
            }
        }
    }

    /// The user's answer to the sign-in page.
    func decide(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let code = core.token(bytes: 36)
        let now = core.now
        return state.withValue { state in
            guard let id = request.query["request"], let authorization = state.prompts.removeValue(forKey: id),
                let decision = SignInPrompt.decision(in: request)
            else { return .text(400, "<html>This sign-in page has expired.</html>", type: "text/html; charset=utf-8") }
            guard decision == .approve else {
                let denied = OAuthFailure(
                    "access_denied", "The resource owner or authorization server denied the request.",
                    state: authorization.state)
                return redirect(
                    to: authorization.redirectURI, error: denied, settings: state.settings, request: request)
            }
            state.codes[code] = .init(
                authorization: authorization, authTime: EpochSeconds.of(now),
                expiresAt: now.addingTimeInterval(60))
            var answer = FormFields()
            answer.append("code", code)
            if let value = authorization.state { answer.append("state", value) }
            return redirect(to: authorization.redirectURI, with: answer, settings: state.settings, request: request)
        }
    }

    private func redirect(
        to redirectURI: String, error: OAuthFailure, settings: Settings, request: ReceivedRequest
    ) -> HTTPResponseMessage {
        var answer = FormFields()
        answer.append("error", error.error)
        if let description = error.description { answer.append("error_description", description) }
        if let value = error.state { answer.append("state", value) }
        return redirect(to: redirectURI, with: answer, settings: settings, request: request)
    }

    /// A redirect to the client with `answer` added to its query, and (RFC 9207, in strict mode) the issuer.
    private func redirect(to redirectURI: String, with answer: FormFields, settings: Settings, request: ReceivedRequest)
        -> HTTPResponseMessage
    {
        var parameters = answer
        if settings.strictOpenID { parameters.append("iss", issuer(request, settings)) }
        let separator = redirectURI.contains("?") ? "&" : "?"
        return .redirect(redirectURI + separator + parameters.formEncoded)
    }

    /// The request's client, redirect URI, scope and launch context, or why not.
    private func validate(
        _ parameters: FormFields, request: ReceivedRequest, now: Date, state: SMARTServerState
    ) throws(Refusal) -> SMARTServerState.Authorization {
        let settings = state.settings
        guard parameters["response_type"] == "code" else {
            let type = parameters["response_type"] ?? "None"
            throw Refusal(
                failure: OAuthFailure("unsupported_response_type", "response_type=\(type) is not supported"),
                redirectURI: nil)
        }
        guard let clientID = parameters["client_id"] else {
            throw Refusal(failure: OAuthFailure("invalid_client", "Missing 'client_id' parameter."), redirectURI: nil)
        }
        guard let client = state.clients[clientID] else {
            throw Refusal(failure: OAuthClientAuthentication.unknownClient(status: 400), redirectURI: nil)
        }
        let redirectURI = try Self.redirectURI(parameters["redirect_uri"], of: client, settings: settings)
        func refuse(_ description: String, _ error: String = "invalid_request") -> Refusal {
            Refusal(failure: OAuthFailure(error, description), redirectURI: redirectURI)
        }
        let requested = (parameters["scope"] ?? "").split(separator: " ").map(String.init)
        let scope = requested.filter { client.allows($0) }
        guard !scope.isEmpty else {
            throw refuse("The requested scope is invalid, unknown, or malformed.", "invalid_scope")
        }
        if scope.contains("openid"), let nonce = parameters["nonce"], !nonce.isEmpty,
            state.codes.values.contains(where: { $0.authorization.nonce == nonce })
        {
            throw refuse("Replay attack")
        }
        let challenge = parameters["code_challenge"]
        let method = parameters["code_challenge_method"]
        if challenge != nil || method != nil || settings.requiresPKCE {
            guard let challenge, !challenge.isEmpty, method == "S256" else {
                throw refuse("PKCE with code_challenge_method S256 is required")
            }
            guard PKCE.isWellFormed(challenge) else { throw refuse("Invalid 'code_challenge'") }
        }
        guard let stateValue = parameters["state"], !stateValue.isEmpty else { throw refuse("state is required") }
        let audience = reached(request).fhirBase
        guard parameters["aud"] == audience else {
            throw refuse("Bad audience value \(Self.pythonRepr(parameters["aud"])), expected '\(audience)'")
        }
        var context: [JSONObject.Member] = []
        if let launch = parameters["launch"], !launch.isEmpty {
            guard let minted = state.launches[launch], minted.launch.clientID == clientID, minted.expiresAt >= now,
                requested.contains("launch")
            else { throw refuse("invalid launch, or the launch scope is missing") }
            context = minted.launch.context
        } else if requested.contains("launch/patient") {
            context = [("patient", .string(settings.standalonePatient))]
        }
        if let prompt = parameters["prompt"], prompt.split(separator: " ").contains("none"),
            prompt.split(separator: " ").count > 1
        {
            throw refuse("Invalid 'prompt' parameter.")
        }
        return .init(
            clientID: clientID, redirectURI: redirectURI, scope: scope.joined(separator: " "), state: stateValue,
            context: context, challenge: challenge, challengeMethod: method, nonce: parameters["nonce"],
            prompt: parameters["prompt"])
    }

    /// The redirect URI to answer to: the request's when registered (exactly, or with a query added on a lenient
    /// server), else the client's first when the request names none.
    private static func redirectURI(_ requested: String?, of client: Client, settings: Settings) throws(Refusal)
        -> String
    {
        guard let requested else {
            guard let first = client.redirectURIs.first else {
                throw Refusal(
                    failure: OAuthFailure("invalid_request", "Missing 'redirect_uri' in request."), redirectURI: nil)
            }
            return first
        }
        let compared =
            settings.acceptsRedirectURIWithAddedQuery
            ? String(requested.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]) : requested
        guard client.redirectURIs.contains(compared) else {
            throw Refusal(
                failure: OAuthFailure("invalid_request", "Redirect URI \(requested) is not supported by client."),
                redirectURI: nil)
        }
        return requested
    }

    /// A value as Python's `repr` shows it in the emulator's messages.
    static func pythonRepr(_ value: String?) -> String {
        guard let value else { return "None" }
        return "'" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
