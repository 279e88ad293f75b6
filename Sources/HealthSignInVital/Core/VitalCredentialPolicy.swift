import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// Vital's rules for the credential lifecycle: the sign-in-token session inside the stored state, refreshed at the
/// auth host of its environment `refreshSkew` seconds before it expires and after a data-API 401;
/// `reauthentication_required` marks it pending, `invalid_token` (the user is gone) signs out.
struct VitalCredentialPolicy: CredentialPolicy {
    let configuration: VitalSession.Configuration

    func credential(in state: VitalStoredState) -> VitalTokenSession? {
        guard case .signInToken(let session) = state.mode else { return nil }
        return session
    }

    func state(_ state: VitalStoredState, replacing session: VitalTokenSession) -> VitalStoredState {
        var state = state
        state.mode = .signInToken(session)
        return state
    }

    func missingCredentialError(in state: VitalStoredState?) -> any Error {
        VitalSessionError.notSignedIn
    }

    func checkUsable(_ session: VitalTokenSession) throws {
        if session.pendingReauthentication { throw VitalSessionError.needsReauthentication(userID: session.userID) }
    }

    func needsRefresh(_ session: VitalTokenSession, at now: Date) -> Bool {
        // Held to 0 to a day, as `signIn(token:)` checks it, for a session restored from a store.
        session.expiresAt.addingTimeInterval(-min(max(0, configuration.refreshSkew), 86_400)) <= now
    }

    func refresh(_ session: VitalTokenSession, lease: CredentialLease) async throws -> VitalTokenSession {
        let client = try configuration.client(
            for: session.environment, transport: lease.guarding(configuration.options.transport))
        let response = try await client.refreshToken(.init(refreshToken: session.refreshToken))
        return try VitalTokenSession(
            response, userID: session.userID, teamID: session.teamID, environment: session.environment,
            receivedAt: configuration.clock.now())
    }

    func refusal(of session: VitalTokenSession, error: any Error) -> CredentialRefusal<VitalTokenSession> {
        guard let error = error as? VitalError, error.isClientErrorStatus else { return .keep(error) }
        switch error.recovery {
        case .discardGrant:
            return .discard(VitalSessionError.userNoLongerValid(userID: session.userID))
        case .reauthorize:
            var pending = session
            pending.pendingReauthentication = true
            return .replace(with: pending, VitalSessionError.needsReauthentication(userID: session.userID))
        default:
            return .keep(error)
        }
    }

    /// The environment's auth host as this configuration's host map names it, and the team of a sign-in-token session.
    func registration(of state: VitalStoredState) -> CredentialRegistration? {
        switch state.mode {
        case .signInToken(let session)?:
            return configuration.registration(environment: session.environment, teamID: session.teamID)
        case .apiKey(let session)?: return configuration.registration(environment: session.environment, teamID: nil)
        case nil: return nil
        }
    }

    /// The auth host of an environment the configuration allows, for the expected team (or none, in API-key mode).
    func accepts(_ registration: CredentialRegistration) -> Bool {
        configuration.registrations.contains { $0.server == registration.server && $0.family == registration.family }
            && (registration.client.isEmpty || configuration.expectedTeamID.map { $0 == registration.client } ?? true)
    }

    /// A session in an environment and for a team the configuration allows.
    func claimsUnrecorded(_ state: VitalStoredState) -> Bool {
        switch state.mode {
        case .signInToken(let session)?:
            return configuration.allows(session.environment)
                && configuration.expectedTeamID.map { $0 == session.teamID } ?? true
        case .apiKey(let session)?: return configuration.allows(session.environment)
        case nil: return true
        }
    }

    /// The data API answers an expired access token with 401 (`invalid_token`, whose table recovery describes the
    /// refresh endpoint's meaning of the code: the user is gone).
    func isExpirySignal(_ error: any Error) -> Bool {
        guard let error = error as? any ProtocolError else { return false }
        return error.recovery == .refreshCredential || (error is VitalError && error.httpStatus == 401)
    }
}

extension VitalSession.Configuration {
    /// What a session in `environment` for `teamID` is stored with: the environment's auth host, and the team.
    func registration(environment: VitalEnvironment, teamID: String?) -> CredentialRegistration {
        CredentialRegistration(
            family: "Vital", server: hosts.hosts(for: environment).auth.absoluteString, client: teamID ?? "")
    }

    /// The registrations the session's credentials may be for: each environment it allows, for the expected team.
    var registrations: [CredentialRegistration] {
        let environments =
            expectedEnvironment.map { [$0] }
            ?? VitalEnvironment.Tier.allCases.flatMap { tier in
                VitalEnvironment.Region.allCases.map { VitalEnvironment(tier, $0) }
            }
        return environments.map { registration(environment: $0, teamID: expectedTeamID) }
    }

    /// Whether sessions in `environment` may be used.
    func allows(_ environment: VitalEnvironment) -> Bool { expectedEnvironment.map { $0 == environment } ?? true }

    /// A client for `environment`'s hosts, sending through `transport`.
    func client(for environment: VitalEnvironment, transport: any HTTPTransport) throws -> VitalAPIClient {
        let hosts = hosts.hosts(for: environment)
        try options.urlPolicy.check(hosts.api)
        try options.urlPolicy.check(hosts.auth)
        var options = options
        options.transport = transport
        return VitalAPIClient(configuration: .init(servers: .init(api: hosts.api, auth: hosts.auth), options: options))
    }
}

extension VitalTokenSession {
    /// The session a token response opens, its expiry counted from `receivedAt`.
    ///
    /// Junction's token endpoint always sends a refresh token and a lifetime, which OAuth 2.0 makes optional: a
    /// response without them does not match the protocol, as a missing member of its schema would not.
    ///
    /// - Throws: `ResponseDecodingError` for a missing `refresh_token` or `expires_in`,
    ///   ``VitalSessionError/malformedTokenResponse(_:)`` for empty tokens, a token type other than Bearer or a
    ///   negative lifetime.
    init(
        _ response: TokenResponse, userID: UUID, teamID: String?, environment: VitalEnvironment, receivedAt: Date
    ) throws {
        guard let refreshToken = response.refreshToken else {
            throw ResponseDecodingError(path: "refresh_token", reason: "missing required field")
        }
        guard response.expiresIn != nil else {
            throw ResponseDecodingError(path: "expires_in", reason: "missing required field")
        }
        let grant: OAuthGrant
        do {
            // Junction does not name the token type.
            grant = try OAuthGrant(response, receivedAt: receivedAt, requiresTokenType: false)
        } catch let error as TokenResponseError {
            throw VitalSessionError.malformedTokenResponse(error.reason)
        }
        guard !refreshToken.isEmpty else { throw VitalSessionError.malformedTokenResponse("refresh_token is empty") }
        self.init(
            userID: userID, teamID: teamID, environment: environment, accessToken: grant.accessToken,
            refreshToken: refreshToken, expiresAt: grant.expiresAt ?? receivedAt, pendingReauthentication: false
        )
    }
}
