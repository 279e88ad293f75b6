import Foundation
import HealthSignInCore

/// The session every OAuth family's app session runs on: its grant in a `CredentialSession`, refreshed once for all
/// callers, bearer calls replayed once after the server says the token expired, and revocation.
///
/// New tokens are written to the store before they are used, and a rotated refresh token replaces the old one. Only
/// a refusal that proves the grant dead (``RefreshPolicy``) erases it; network errors, 5xx and 429 never do.
public final class OAuthSession<Profile: OAuthProfile>: Sendable {
    /// The family's rules.
    public let profile: Profile
    /// The lifecycle of the stored state.
    package let credentials: CredentialSession<OAuthCredentialPolicy<Profile>>

    /// Creates a session; stored state is read on first use.
    public init(profile: Profile) {
        self.profile = profile
        let settings = profile.settings
        credentials = CredentialSession(
            store: settings.store, key: settings.storeKey, policy: OAuthCredentialPolicy(profile: profile),
            clock: settings.clock, logger: settings.options.logger, category: profile.family)
    }

    /// The endpoints of the authorization server at `base`, as the family's discovery finds them (configured ones,
    /// then what its metadata advertises, each on a trusted origin), with problems in the family's terms.
    ///
    /// - Parameters:
    ///   - base: the base URL, such as a FHIR server's.
    ///   - needed: the endpoints the caller cannot do without; the token endpoint always is.
    public func endpoints(for base: URL, needing needed: Set<EndpointName> = []) async throws -> OAuthEndpoints {
        try await profile.endpoints(for: base, needing: needed)
    }

    // MARK: - Status

    /// Where the session stands, from the store.
    ///
    /// - Throws: the store's error when it cannot be read.
    public func status() async throws -> Profile.Status {
        profile.status(of: try await credentials.current())
    }

    /// The status now, then every change: an authorization started or completed, a refresh (a new expiry), a grant
    /// ended by a refused refresh, revocation.
    public func statuses() -> AsyncStream<Profile.Status> {
        let profile = profile
        return credentials.statuses { profile.status(of: $0) }
    }

    /// What happens to the stored grant from now on.
    public func events() -> AsyncStream<CredentialEvent> { credentials.events() }

    // MARK: - Tokens and calls

    /// A usable access token, refreshed first when it expires within the refresh skew.
    ///
    /// - Throws: the family's needs-a-grant error when there is no grant or it is dead.
    public func accessToken() async throws -> BearerToken {
        try await credentials.access().credential.tokens.bearer
    }

    /// Runs `call` with an access token; when the server says the token expired (`invalid_token`, an expiry the
    /// family's errors name, or a bare 401) the token is refreshed once for all callers and `call` is replayed once.
    public func withAccessToken<Result: Sendable>(
        _ call: @Sendable (BearerToken) async throws -> Result
    ) async throws -> Result {
        try await credentials.withCredential { access in try await call(access.credential.tokens.bearer) }
    }

    /// A request to `path` under the grant's resource server, with the access token, refreshed and replayed as
    /// ``withAccessToken(_:)`` does. Nothing is sent once the grant has been revoked.
    ///
    /// - Throws: the resource server's typed errors, `UnexpectedResponseError`, and the family's errors for a
    ///   missing grant or a stored server the configuration does not allow.
    public func resource(
        _ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init(), body: Data? = nil,
        contentType: String? = nil, accept: String? = nil
    ) async throws -> HTTPResponseMessage {
        let profile = profile
        return try await credentials.withCredential { access in
            try await profile.resourceServer(of: access.credential).send(
                method, path, query: query, body: body, contentType: contentType, accept: accept,
                token: access.credential.tokens.bearer,
                transport: access.lease.guarding(profile.settings.options.transport))
        }
    }

    // MARK: - Revocation

    /// Forgets the grant and asks the server to revoke it (RFC 7009): the refresh token when there is one, then the
    /// access token. A refresh in flight finishes first, so the tokens revoked are the newest; after this returns no
    /// request carries the grant again. An authorization waiting for its redirect is forgotten too.
    @discardableResult
    public func revoke() async throws -> RevocationOutcome {
        let profile = profile
        return try await credentials.transition { transition in
            guard let grant = try await transition.erase(settlingRefresh: true)?.grant else { return .nothingToRevoke }
            let outcome: RevocationOutcome
            do {
                let registration = try profile.registration(of: grant)
                outcome = await AuthorizationServer(
                    endpoints: try await profile.endpoints(for: registration.baseURL), client: registration.client,
                    options: profile.settings.options
                ).revoke(grant.tokens)
            } catch {
                outcome = .failed(error)
            }
            switch outcome {
            case .revoked: profile.log(.info, "revoked the grant")
            case .failed: profile.log(.warning, "revocation did not reach the server; the grant is forgotten locally")
            case .nothingToRevoke, .unsupportedByServer: break
            }
            return outcome
        }
    }
}

extension OAuthProfile {
    /// The endpoints for `base` from the family's discovery, with problems in the family's terms.
    func endpoints(for base: URL, needing needed: Set<EndpointName> = []) async throws -> OAuthEndpoints {
        do {
            return try await discovery.endpoints(for: base, needing: needed)
        } catch {
            throw familyError(error)
        }
    }

    /// Logs `message` under the family's name.
    package func log(_ level: LogEntry.Level, _ message: LogMessage) {
        settings.options.logger.log(level, family, message)
    }
}
