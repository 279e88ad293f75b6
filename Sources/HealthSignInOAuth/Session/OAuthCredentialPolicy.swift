import Foundation
import HealthSignInCore

/// The credential lifecycle's rules for an OAuth grant, the same for every family: refreshed at the token endpoint
/// as ``RefreshPolicy`` says, with a rotated refresh token replacing the old one before anyone uses it; ended only by
/// a refusal that proves it dead, keeping an authorization that waits for its redirect.
package struct OAuthCredentialPolicy<Profile: OAuthProfile>: CredentialPolicy {
    package typealias State = OAuthSessionState<Profile.Context>
    package typealias Credential = OAuthSessionGrant<Profile.Context>

    package let profile: Profile

    package func credential(in state: State) -> Credential? { state.grant }

    package func state(_ state: State, replacing grant: Credential) -> State {
        State(grant: grant, pending: state.pending)
    }

    package func stateWithoutCredential(_ state: State) -> State? {
        state.pending.map { State(grant: nil, pending: $0) }
    }

    package func missingCredentialError(in state: State?) -> any Error { profile.needsGrant(nil) }

    package func needsRefresh(_ grant: Credential, at now: Date) -> Bool {
        profile.settings.refresh.needsRefresh(grant.tokens, at: now)
    }

    package func refresh(_ grant: Credential, lease: CredentialLease) async throws -> Credential {
        // Without a refresh token the grant has ended: it serves until it expires, and nothing renews it.
        guard let refreshToken = grant.tokens.refreshToken else { throw GrantEnded() }
        let settings = profile.settings
        let registration = try profile.registration(of: grant)
        let base = registration.baseURL
        let server = AuthorizationServer(
            endpoints: try await profile.endpoints(for: base), client: registration.client, options: settings.options)
        let response: TokenResponse
        do {
            response = try await server.token(
                .refreshToken(.init(refreshToken: refreshToken)), transport: lease.guarding(settings.options.transport))
        } catch let error as UnexpectedResponseError where error.status == 404 {
            // The endpoint moved: read the server's metadata again next time.
            try profile.discovery.invalidate(base)
            throw error
        }
        let tokens: OAuthGrant
        let context: Profile.Context
        do {
            tokens = try OAuthGrant(response, previous: grant.tokens, receivedAt: settings.clock.now())
            context = try profile.context(refreshedBy: response, previous: grant.context)
        } catch {
            throw profile.familyError(error)
        }
        do {
            return Credential(
                tokens: try await profile.verify(refreshed: tokens, from: response, previous: grant, server: server),
                context: context)
        } catch let refused as RefreshResponseRefused {
            // A compromised grant: the tokens just issued end with it.
            _ = await server.revoke(tokens)
            throw refused
        }
    }

    package func refusal(of grant: Credential, error: any Error) -> CredentialRefusal<Credential> {
        if error is GrantEnded { return .discard(profile.needsGrant(nil)) }
        switch profile.settings.refresh.refusal(error) {
        case .grantEnded(let refusal): return .discard(profile.needsGrant(refusal))
        case .clientRejected(let refusal): return .keep(profile.clientRejected(refusal))
        case .compromised(let reason): return .discard(reason)
        case .transient(let error): return .keep(error)
        }
    }
}

/// A refresh found no refresh token: the grant has ended.
private struct GrantEnded: Error {}
