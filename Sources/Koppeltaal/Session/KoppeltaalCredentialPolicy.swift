import Foundation
import SDKRuntime

/// Koppeltaal's rules for the credential lifecycle: the grant is refreshed at the token endpoint `refreshSkew`
/// seconds before it expires and after an `expired` OperationOutcome or an `invalid_token` challenge; only
/// `invalid_grant` and `unauthorized_client` with a 4xx status (or a grant without a refresh token) discard it.
struct KoppeltaalCredentialPolicy: CredentialPolicy {
    let configuration: KoppeltaalSession.Configuration
    let discovery: KoppeltaalDiscovery

    func credential(in state: KoppeltaalState) -> KoppeltaalGrant? { state.grant }

    func state(_ state: KoppeltaalState, replacing grant: KoppeltaalGrant) -> KoppeltaalState {
        KoppeltaalState(grant: grant)
    }

    func missingCredentialError(in state: KoppeltaalState?) -> any Error {
        KoppeltaalError.needsActivation(underlying: nil)
    }

    func needsRefresh(_ grant: KoppeltaalGrant, at now: Date) -> Bool {
        guard let expiresAt = grant.expiresAt else { return false }
        return expiresAt.addingTimeInterval(-configuration.refreshSkew) <= now
    }

    func refresh(_ grant: KoppeltaalGrant, lease: CredentialLease) async throws -> KoppeltaalGrant {
        guard let refreshToken = grant.refreshToken else { throw KoppeltaalError.needsActivation(underlying: nil) }
        let endpoints = try await discovery.endpoints()
        let client = configuration.client(
            .init(token: endpoints.token), transport: lease.guarding(configuration.options.transport))
        do {
            let response = try await client.token(
                .refreshToken(.init(refreshToken: refreshToken)), client: configuration.client)
            return try KoppeltaalGrant(response, previous: grant, receivedAt: configuration.clock.now())
        } catch let error as UnexpectedResponseError where error.status == 404 {
            // The endpoint moved: discover again next time.
            try discovery.invalidate()
            throw error
        }
    }

    func refusal(of grant: KoppeltaalGrant, error: any Error) -> CredentialRefusal<KoppeltaalGrant> {
        if case KoppeltaalError.needsActivation = error { return .discard(error) }
        guard let error = error as? OAuth2Error else { return .keep(error) }
        switch error.recovery {
        case .discardGrant where error.isClientErrorStatus:
            return .discard(KoppeltaalError.needsActivation(underlying: error))
        case .reconfigure where error.code == .invalidClient: return .keep(KoppeltaalError.clientRejected(error))
        default: return .keep(error)
        }
    }
}

extension KoppeltaalGrant {
    /// The grant a token response gives, keeping what a refresh response leaves out from `previous`.
    ///
    /// - Throws: ``KoppeltaalError/malformedTokenResponse(_:)`` for an empty access token, a token type other than
    ///   Bearer, or a negative lifetime.
    init(_ response: TokenResponse, previous: KoppeltaalGrant?, receivedAt: Date) throws {
        guard !response.accessToken.isEmpty else {
            throw KoppeltaalError.malformedTokenResponse("access_token is empty")
        }
        guard response.tokenType.caseInsensitiveCompare("bearer") == .orderedSame else {
            throw KoppeltaalError.malformedTokenResponse("token_type is \"\(response.tokenType)\", expected Bearer")
        }
        if let lifetime = response.expiresIn, lifetime < 0 {
            throw KoppeltaalError.malformedTokenResponse("expires_in is negative")
        }
        self.init(
            accessToken: response.accessToken,
            refreshToken: response.refreshToken ?? previous?.refreshToken,
            expiresAt: response.expiresIn.map { receivedAt.addingTimeInterval(TimeInterval($0)) },
            context: (previous?.context ?? LaunchContext()).updated(with: response)
        )
    }
}
