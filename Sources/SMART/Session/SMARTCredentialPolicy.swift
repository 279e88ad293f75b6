import Foundation
import SDKRuntime

/// SMART's rules for the credential lifecycle: the access token is refreshed at the token endpoint `refreshSkew`
/// seconds before it expires and after an `invalid_token` answer; a rotated refresh token replaces the old one
/// before anyone uses it; only `invalid_grant` and `unauthorized_client` with a 4xx status (or an expired grant
/// without a refresh token) end the grant, and an authorization waiting for its redirect stays.
struct SMARTCredentialPolicy: CredentialPolicy {
    let configuration: SMARTSession.Configuration

    func credential(in state: SMARTState) -> SMARTGrant? { state.grant }

    func state(_ state: SMARTState, replacing grant: SMARTGrant) -> SMARTState {
        SMARTState(grant: grant, pending: state.pending)
    }

    func missingCredentialError(in state: SMARTState?) -> any Error { SMARTError.needsLaunch(underlying: nil) }

    /// A refusal that ends the grant keeps an authorization waiting for its redirect.
    func stateWithoutCredential(_ state: SMARTState) -> SMARTState? {
        state.pending.map { SMARTState(grant: nil, pending: $0) }
    }

    func needsRefresh(_ grant: SMARTGrant, at now: Date) -> Bool {
        guard let expiresAt = grant.expiresAt else { return false }
        // Without a refresh token nothing can renew it early: it serves until it expires, and then the grant ends.
        let margin = grant.refreshToken == nil ? 0 : configuration.refreshSkew
        return expiresAt.addingTimeInterval(-margin) <= now
    }

    func refresh(_ grant: SMARTGrant, lease: CredentialLease) async throws -> SMARTGrant {
        guard let refreshToken = grant.refreshToken else { throw SMARTError.needsLaunch(underlying: nil) }
        let client = configuration.options.smartClient(
            .init(token: grant.tokenEndpoint), transport: lease.guarding(configuration.options.transport))
        let response = try await client.token(
            .refreshToken(.init(refreshToken: refreshToken)), client: configuration.client)
        let endpoints = SMARTEndpoints(
            fhirBaseURL: grant.context.fhirBaseURL, token: grant.tokenEndpoint, revocation: grant.revocationEndpoint)
        return try SMARTGrant(response, previous: grant, endpoints: endpoints, receivedAt: configuration.clock.now())
    }

    func refusal(of grant: SMARTGrant, error: any Error) -> CredentialRefusal<SMARTGrant> {
        if case SMARTError.needsLaunch = error { return .discard(error) }
        guard let error = error as? OAuth2Error else { return .keep(error) }
        switch error.recovery {
        case .discardGrant where error.isClientErrorStatus: return .discard(SMARTError.needsLaunch(underlying: error))
        case .reconfigure where error.code == .invalidClient: return .keep(SMARTError.clientRejected(error))
        default: return .keep(error)
        }
    }
}
