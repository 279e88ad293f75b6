import Foundation

/// What a call to a resource server (a FHIR server, say) needs from whoever holds the grant: the server's base URL,
/// an access token valid there, and the options to send with.
///
/// The base URL comes from the grant, not from the caller, so a token goes only to the server it was issued for.
public struct ResourceServerAccess: Sendable {
    /// The base URL of the server the token is for.
    public let baseURL: URL
    /// The access token.
    public let token: BearerToken
    /// The holder's transport, URL policy, limits, logger and middlewares; the transport refuses to send once the
    /// grant has been revoked or replaced.
    public let options: ClientOptions

    /// Creates an access.
    public init(baseURL: URL, token: BearerToken, options: ClientOptions) {
        self.baseURL = baseURL
        self.token = token
        self.options = options
    }
}

/// A holder of a grant for one resource server that lends it to calls: a signed-in session (`SMARTSession`) or a
/// backend client (`SMARTBackendClient`, `Koppeltaal2BackendClient`).
///
/// A typed client of the resource server (`FHIRClient`) takes one of these and never sees a base URL or a token of
/// its own, so tokens are refreshed for it and stay with their server.
public protocol ResourceServerAccessProvider: Sendable {
    /// Runs `call` with access to the resource server; when the server says the token expired (an error whose
    /// ``ProtocolError/recovery`` is `refreshCredential`) the token is renewed once for all callers
    /// and `call` is replayed once.
    ///
    /// - Throws: what `call` throws, and the holder's errors when there is no usable grant.
    func withResourceServerAccess<Result: Sendable>(
        _ call: @Sendable (ResourceServerAccess) async throws -> Result
    ) async throws -> Result
}
