import Foundation
@_spi(Generated) import HealthSignInCore

extension FHIRAPIClient {
    /// Searches resources of one type (`GET [base]/[type]?parameters`) and returns the first page.
    ///
    /// - Parameters:
    ///   - resourceType: the resource type, such as `Observation`.
    ///   - parameters: the search parameters in order, repeated names allowed (`date=ge2024`, `date=lt2025`);
    ///     `_count`, `_include` and `_revinclude` are parameters like any other.
    ///   - token: the access token.
    /// - Throws: ``FHIROperationOutcomeError`` for an error response; otherwise `SchemaValidationError` for a
    ///   resource type that is not a FHIR name, `UnexpectedResponseError`, `ResponseDecodingError` when the body is
    ///   not a Bundle, `ConfigurationError` or `TransportError`.
    public func search(
        _ resourceType: String, _ parameters: KeyValuePairs<String, String> = [:], token: BearerToken
    ) async throws -> FHIRSearchPage {
        var http = try core.request(
            .get, server: configuration.servers.base, serverName: "base", path: try Self.typePath(resourceType))
        for (name, value) in parameters { http.query.append(name, value) }
        return try await searchPage(sending: http, token: token)
    }

    /// Reads the page after `page`, following its `next` link; nil when it is the last page.
    ///
    /// The link must stay on the configured base URL's origin and under its path, since the access token goes with
    /// it.
    ///
    /// - Throws: `PagingError.linkLeavesServer(link:server:)` when the link leaves the server, before anything is
    ///   sent; otherwise what ``search(_:_:token:)`` throws.
    public func page(after page: FHIRSearchPage, token: BearerToken) async throws -> FHIRSearchPage? {
        guard let next = page.next else { return nil }
        return try await self.page(at: next, token: token)
    }

    /// The page at `next`, a page's `next` link, once it is on the base URL's origin and under its path.
    func page(at next: URL, token: BearerToken) async throws -> FHIRSearchPage {
        guard let base = configuration.servers.base else { throw ConfigurationError.missingServer("base") }
        guard FHIRServerScope(base: base).contains(next) else {
            throw PagingError.linkLeavesServer(link: Redaction.url(next), server: Redaction.url(base))
        }
        let http = try core.request(.get, server: next, serverName: "base", path: "")
        return try await searchPage(sending: http, token: token)
    }

    private func searchPage(sending request: HTTPRequestBuilder, token: BearerToken) async throws -> FHIRSearchPage {
        var http = request
        http.authorize(bearer: token)
        let response = try await core.send(http, operation: "Search", errors: [ErrorFormats.fhirOperationOutcomeError])
        return try HTTPResponseBody.json(FHIRSearchPage.self, from: response, operation: "Search")
    }
}
