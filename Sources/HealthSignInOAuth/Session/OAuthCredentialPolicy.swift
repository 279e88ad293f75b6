import Foundation
import HealthSignInCore

/// The credential lifecycle's rules for an OAuth grant, the same for every family: refreshed at the token endpoint
/// as ``RefreshPolicy`` says, with a rotated refresh token replacing the old one before anyone uses it and the
/// refresh's id token checked (OpenID Connect Core §12.2); ended only by a refusal that proves it dead or an id token
/// that proves it compromised, keeping an authorization that waits for its redirect.
///
/// Tokens that arrived are never dropped for a local step that fails after them: when the key set cannot be read to
/// check the id token, the grant is stored with the check still to do (`PartialRefresh`), and is not used until a
/// later refresh, which then only finishes the check, succeeds.
package struct OAuthCredentialPolicy<Profile: OAuthProfile>: CredentialPolicy {
    package typealias State = OAuthSessionState<Profile.Context>
    package typealias Credential = OAuthSessionGrant<Profile.Context>

    package let profile: Profile
    let discovery: OAuthDiscovery

    package func credential(in state: State) -> Credential? { state.grant }

    package func state(_ state: State, replacing grant: Credential) -> State {
        State(grant: grant, pending: state.pending)
    }

    package func stateWithoutCredential(_ state: State) -> State? {
        state.pending.map { State(grant: nil, pending: $0) }
    }

    package func missingCredentialError(in state: State?) -> any Error { profile.needsSignIn() }

    /// The registration of the grant, else of the authorization waiting for its redirect.
    package func registration(of state: State) -> CredentialRegistration? {
        guard let base = state.grant.map(profile.baseURL(of:)) ?? state.pending?.endpoints.baseURL else { return nil }
        return profile.registrations.registration(for: base)?.credentialRegistration(family: profile.family)
    }

    /// One of the profile's registrations.
    package func accepts(_ registration: CredentialRegistration) -> Bool {
        profile.registrations.contains { $0.credentialRegistration(family: profile.family) == registration }
    }

    /// A grant the profile claims, and an authorization at one of its registrations.
    package func claimsUnrecorded(_ state: State) -> Bool {
        (state.grant.map(profile.claimsUnrecorded) ?? true)
            && (state.pending.map { profile.registrations.registration(for: $0.endpoints.baseURL) != nil } ?? true)
    }

    package func needsRefresh(_ grant: Credential, at now: Date) -> Bool {
        grant.tokens.idTokenCheck != nil || profile.settings.refresh.needsRefresh(grant.tokens, at: now)
    }

    package func refresh(_ grant: Credential, lease: CredentialLease) async throws -> Credential {
        let settings = profile.settings
        let registration = try profile.registration(of: grant)
        let server = AuthorizationServer(
            endpoints: try await discovery.endpoints(for: registration), client: registration.client,
            options: settings.options)
        // A check left over from an earlier response is finished; nothing is asked of the token endpoint.
        if grant.tokens.idTokenCheck != nil { return try await check(grant, registration: registration, at: server) }
        // Without a refresh token the grant has ended: it serves until it expires, and nothing renews it.
        guard let refreshToken = grant.tokens.refreshToken else { throw GrantEnded() }
        let response: TokenResponse
        do {
            response = try await server.token(
                .refreshToken(.init(refreshToken: refreshToken)), transport: lease.guarding(settings.options.transport))
        } catch let error as UnexpectedResponseError where error.status == 404 {
            // The endpoint moved: read the server's metadata again next time.
            try await discovery.invalidate(registration.baseURL)
            throw error
        }
        var fresh = Credential(
            tokens: try profile.grant(response, previous: grant.tokens),
            context: try profile.checkedContext(response, previous: grant.context, registration: registration))
        // A refresh response may carry no id token; one of a grant signed in without one is not kept.
        guard let idToken = response.idToken, profile.openID != nil, grant.tokens.idToken != nil else { return fresh }
        fresh.tokens.idTokenCheck = IDTokenCheck(
            token: idToken, nonce: nil, atSignIn: false, receivedAt: settings.clock.now())
        do {
            return try await check(fresh, registration: registration, at: server)
        } catch let error as OpenIDCheck<Profile>.Unreachable {
            throw PartialRefresh(fresh, error: error.underlying)
        }
    }

    /// `grant` with its id token checked. A refused id token ends the grant as compromised, and the tokens the
    /// server issued with it are revoked; a key set that cannot be read keeps it (`OpenIDCheck.Unreachable`).
    private func check(_ grant: Credential, registration: OAuthRegistration, at server: AuthorizationServer)
        async throws -> Credential
    {
        do {
            return try await OpenIDCheck(profile: profile, server: server).complete(grant, registration: registration)
        } catch let error as SignInError where error.code == .idTokenRejected {
            _ = await server.revoke(grant.tokens)
            throw RefreshResponseRefused(error)
        }
    }

    package func refusal(of grant: Credential, error: any Error) -> CredentialRefusal<Credential> {
        if error is GrantEnded { return .discard(profile.needsSignIn()) }
        if let unreachable = error as? OpenIDCheck<Profile>.Unreachable { return .keep(unreachable.underlying) }
        switch profile.settings.refresh.refusal(error) {
        case .grantEnded(let refusal): return .discard(profile.needsSignIn(refusal))
        case .clientRejected(let refusal): return .keep(profile.clientRejected(refusal))
        case .compromised(let reason): return .discard(reason)
        case .transient(let error): return .keep(error)
        }
    }
}

/// A refresh found no refresh token: the grant has ended.
private struct GrantEnded: Error {}
