import Foundation
@_spi(Generated) import HealthSignInCore

/// The typed FHIR client of a signed-in session or a backend (`FHIRClient(session)` for a `SMARTSession`,
/// `FHIRClient(backend)` for a `SMARTBackendClient` or a `Koppeltaal2BackendClient`): every call goes to the grant's
/// FHIR server with its access token, refreshed once and replayed when the server says it expired.
///
/// It holds no base URL and no token of its own: the base URL is the one the grant was issued for, so neither a
/// configuration mistake nor a server's `next` link can send the token elsewhere. Requests go through the holder's
/// options (transport, URL policy, limits, logger, middlewares), and none is sent once the grant is revoked.
public struct FHIRClient: Sendable {
    private let access: any ResourceServerAccessProvider

    /// Creates a client that calls the FHIR server of `access`'s grant.
    public init(_ access: any ResourceServerAccessProvider) { self.access = access }

    /// Runs `call` with a ``FHIRAPIClient`` at the grant's FHIR server and the access token; when the server answers
    /// 401 the token is refreshed once and `call` replayed once. The methods of this client are built on it; use it
    /// for anything else ``FHIRAPIClient`` offers.
    ///
    /// - Throws: what `call` throws, and the holder's errors when there is no usable grant (for a SMART session,
    ///   `SignInError` with `needsSignIn`).
    public func withAPIClient<Result: Sendable>(
        _ call: @Sendable (FHIRAPIClient, BearerToken) async throws -> Result
    ) async throws -> Result {
        try await access.withResourceServerAccess { access in
            let client = FHIRAPIClient(
                configuration: .init(servers: .init(base: access.baseURL), options: access.options))
            do {
                return try await call(client, access.token)
            } catch let error as FHIROperationOutcomeError where error.httpStatus == 401 {
                // A FHIR server may explain a refused token with an OperationOutcome rather than a bare challenge;
                // at a resource server a 401 means the token (RFC 6750 §3.1), whatever code the outcome gives.
                throw FHIROperationOutcomeError(
                    body: error.body, httpStatus: error.httpStatus, operation: error.operation,
                    recovery: { _ in .refreshCredential })
            }
        }
    }

    /// The server's CapabilityStatement (`GET [base]/metadata`).
    ///
    /// - Throws: what ``FHIRAPIClient/capabilities()`` throws.
    public func capabilities() async throws -> CapabilityStatement {
        try await withAPIClient { client, _ in try await client.capabilities() }
    }

    /// Reads the resource `resourceType/id`; `.model(as: Patient.self)` gives the typed model.
    ///
    /// - Throws: `SchemaValidationError` when the type or id is not a FHIR name, before anything is sent;
    ///   ``FHIROperationOutcomeError`` for an error response (`.notFound`, `.deleted`, …); otherwise
    ///   `UnexpectedResponseError`, `ResponseDecodingError` or `TransportError`.
    public func read(_ resourceType: String, id: String) async throws -> Resource {
        try await withAPIClient { client, token in
            try await client.read(.init(resourceType: resourceType, id: id), token: token)
        }
    }

    /// Reads version `versionID` of the resource `resourceType/id`.
    ///
    /// - Throws: what ``read(_:id:)`` throws.
    public func vread(_ resourceType: String, id: String, versionID: String) async throws -> Resource {
        try await withAPIClient { client, token in
            try await client.vRead(.init(resourceType: resourceType, id: id, vid: versionID), token: token)
        }
    }

    /// Searches resources of one type and returns the first page (see ``FHIRAPIClient/search(_:_:token:)``).
    ///
    /// - Throws: what ``FHIRAPIClient/search(_:_:token:)`` throws.
    public func search(_ resourceType: String, _ parameters: KeyValuePairs<String, String> = [:]) async throws
        -> FHIRSearchPage
    {
        try await withAPIClient { client, token in try await client.search(resourceType, parameters, token: token) }
    }

    /// The page after `page`, following its `next` link only on the grant's FHIR server and under its base path;
    /// nil when it is the last page.
    ///
    /// - Throws: `PagingError.linkLeavesServer(link:server:)` before anything is sent when the link leaves the
    ///   server; otherwise what ``search(_:_:)`` throws.
    public func page(after page: FHIRSearchPage) async throws -> FHIRSearchPage? {
        guard page.next != nil else { return nil }
        return try await withAPIClient { client, token in try await client.page(after: page, token: token) }
    }

    /// Every page of a search, each fetched when the sequence is iterated to it: the first page, then each page's
    /// `next` link as ``page(after:)`` follows it.
    ///
    /// A server whose `next` link names a page already fetched would be followed forever; the sequence ends with
    /// `PagingError.repeatedCursor` instead.
    ///
    /// - Throws: while iterating, what ``page(after:)`` throws.
    public func pages(_ resourceType: String, _ parameters: KeyValuePairs<String, String> = [:])
        -> PageSequence<FHIRSearchPage.Position, FHIRSearchPage>
    {
        PageSequence(first: .first) { position in
            switch position {
            case .first: return try await search(resourceType, parameters)
            case .next(let link):
                return try await withAPIClient { client, token in try await client.page(at: link, token: token) }
            }
        } next: { _, page in
            page.next.map { .next($0) }
        }
    }

    /// Creates `resource`, conditionally when `ifNoneExist` names a search (see
    /// ``FHIRAPIClient/create(_:ifNoneExist:token:)``).
    ///
    /// - Throws: what ``FHIRAPIClient/create(_:ifNoneExist:token:)`` throws.
    public func create(_ resource: Resource, ifNoneExist: KeyValuePairs<String, String> = [:]) async throws
        -> FHIRWriteOutcome
    {
        try await withAPIClient { client, token in
            try await client.create(resource, ifNoneExist: ifNoneExist, token: token)
        }
    }

    /// Creates or replaces `resource` at its id, only over version `versionID` when it is given (`If-Match`).
    ///
    /// - Throws: what ``FHIRAPIClient/update(_:ifMatch:token:)`` throws; a stale version is
    ///   ``FHIROperationOutcomeError`` with HTTP 412.
    public func update(_ resource: Resource, ifMatch versionID: String? = nil) async throws -> FHIRWriteOutcome {
        try await withAPIClient { client, token in try await client.update(resource, ifMatch: versionID, token: token) }
    }

    /// Deletes the resource `resourceType/id`.
    ///
    /// - Throws: what ``FHIRAPIClient/delete(_:id:token:)`` throws.
    @discardableResult
    public func delete(_ resourceType: String, id: String) async throws -> FHIRWriteOutcome {
        try await withAPIClient { client, token in try await client.delete(resourceType, id: id, token: token) }
    }

    /// Sends a batch or transaction Bundle and returns the server's answer Bundle.
    ///
    /// - Throws: what ``FHIRAPIClient/batchOrTransaction(_:token:)`` throws.
    public func batchOrTransaction(_ bundle: FHIRBundle) async throws -> FHIRBundle {
        try await withAPIClient { client, token in try await client.batchOrTransaction(bundle, token: token) }
    }
}
