import Foundation
import HealthSignInCore

/// An authorization server as a client uses it: its endpoints, the client's credentials, and the requests every
/// OAuth family sends to it (tokens, revocation, its key set).
public struct AuthorizationServer: Sendable {
    /// The server's endpoints.
    public let endpoints: OAuthEndpoints
    /// The client and how it authenticates at the token and revocation endpoints.
    public let client: OAuthClientCredentials
    /// The transport, URL policy, timeout, logger and middlewares of every request.
    public let options: ClientOptions

    /// Creates a server.
    public init(endpoints: OAuthEndpoints, client: OAuthClientCredentials, options: ClientOptions) {
        self.endpoints = endpoints
        self.client = client
        self.options = options
    }

    /// The generated client for the server's endpoints, sending through `transport` when one is given.
    public func generatedClient(transport: (any HTTPTransport)? = nil) -> OAuth2APIClient {
        var options = options
        if let transport { options.transport = transport }
        let servers = OAuth2APIClient.Servers(
            token: endpoints.token, revocation: endpoints.revocation, introspection: endpoints.introspection,
            jwks: endpoints.jwks)
        return OAuth2APIClient(configuration: .init(servers: servers, options: options))
    }

    /// Asks the token endpoint for tokens.
    ///
    /// - Parameters:
    ///   - request: the grant.
    ///   - transport: the transport of this request, e.g. one guarded by a credential lease.
    /// - Throws: ``OAuthError`` for a refusal: the server's error body, or `invalid_client` with the server's words
    ///   for a 401 in another format (a plain-text refusal of the client assertion); and the request's errors.
    public func token(_ request: RequestToken.Request, transport: (any HTTPTransport)? = nil) async throws
        -> TokenResponse
    {
        do {
            return try await generatedClient(transport: transport).requestToken(request, client: client)
        } catch let error as UnexpectedResponseError {
            throw OAuthError.clientRefusal(error.response, operation: error.operation) ?? error
        }
    }

    /// The server's signing keys; a key the layer cannot read is left out.
    ///
    /// - Throws: `ConfigurationError.missingServer` without a key set, and the request's errors.
    public func keys() async throws -> JSONWebKeySet {
        let document = try await generatedClient().getKeys()
        return JSONWebKeySet(
            keys: document.keys.compactMap { key in
                try? JSONWebKey(
                    object: JSONObject(key.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }))
            })
    }

    /// Asks the server to revoke `grant` (RFC 7009): its refresh token first, which ends the whole grant on
    /// servers that link them, then its access token.
    ///
    /// - Returns: ``RevocationOutcome/revoked`` when the server accepted; ``RevocationOutcome/unsupportedByServer``
    ///   without a revocation endpoint, or when the server does not revoke the first token's type;
    ///   ``RevocationOutcome/failed(_:)`` with the first request that failed otherwise.
    public func revoke(_ grant: OAuthGrant) async -> RevocationOutcome {
        guard endpoints.revocation != nil else { return .unsupportedByServer }
        let client = generatedClient()
        let tokens =
            (grant.refreshToken.map { [Revoke.Request(token: $0, tokenTypeHint: .refreshToken)] } ?? [])
            + [Revoke.Request(token: grant.accessToken, tokenTypeHint: .accessToken)]
        var outcomes: [RevocationOutcome] = []
        for request in tokens {
            do {
                try await client.revoke(request, client: self.client)
                outcomes.append(.revoked)
            } catch let error as OAuthError where error.code == .unsupportedTokenType {
                outcomes.append(.unsupportedByServer)
            } catch {
                outcomes.append(.failed(error))
            }
        }
        for case .failed(let error) in outcomes { return .failed(error) }
        return outcomes.first ?? .revoked
    }
}

/// How a revocation went; the grant is forgotten locally in every case.
public enum RevocationOutcome: Sendable {
    /// The server revoked the tokens.
    case revoked
    /// There was no grant to revoke.
    case nothingToRevoke
    /// The server has no revocation endpoint, or does not revoke this token type.
    case unsupportedByServer
    /// The server could not be reached or refused; the grant is forgotten locally anyway.
    case failed(any Error)
}
