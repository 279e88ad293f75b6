import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// The trace headers of a chain of requests (Koppeltaal 2.0 topic 11): every request gets a new `X-Request-Id`;
/// `X-Correlation-Id` names the request that triggered it, and `X-Trace-Id` stays the same along the chain.
public struct KT2Trace: Sendable, Hashable {
    /// The chain's id, sent as `X-Trace-Id`.
    public var traceID: String
    /// The `X-Request-Id` of the request that triggered this work (a notification's, a launch's), or nil to
    /// start a chain: the first request of a call then correlates to itself, and the rest of the call (a search's
    /// next pages, the read after a conflict) to that first request.
    public var correlationID: String?

    /// A chain; a new trace id unless one is given.
    public init(traceID: String = UUID().uuidString.lowercased(), correlationID: String? = nil) {
        self.traceID = traceID
        self.correlationID = correlationID
    }
}

/// FHIR R4 REST on a Koppeltaal 2.0 domain, with the application's backend token.
///
/// ```swift
/// let fhir = Koppeltaal2FHIRClient(backend: backend)
/// for try await page in fhir.search(KT2Task.self, ["status": "ready"]) {
///     for task in page.resources where task.resource.owner.reference == "Patient/123" {
///         _ = try await fhir.update(task.resource.with(status: .inProgress), replacing: task)
///     }
///     for failure in page.failures { print("not read: \(failure)") }
/// }
/// ```
///
/// - Every request is `application/fhir+json`, carries the token (renewed and replayed once after a 401) and the
///   trace headers ``KT2Trace`` describes.
/// - A create never carries `resource-origin` (the server sets it). An update always sends `If-Match` with the
///   entity tag of the version it replaces; a 409 or 412 is a ``KT2UpdateConflict`` with the current version when
///   the resource changed, and a ``KT2PreconditionError`` when it did not.
/// - A search follows `Bundle.link[next]` only under the FHIR base, judged as a server would read the link's path
///   (percent-decoded once, dot segments resolved, `;` parameters and backslashes as lenient servers take them).
/// - An error answer is `KT2OperationOutcomeError` when it carries an OperationOutcome, else
///   `UnexpectedResponseError`.
public struct Koppeltaal2FHIRClient: Sendable {
    /// The backend whose token every request carries.
    public let backend: Koppeltaal2BackendClient
    /// The FHIR base URL.
    public var baseURL: URL { backend.configuration.registration.baseURL }
    private var options: ClientOptions { backend.configuration.session.options }

    /// A client on `backend`'s domain.
    public init(backend: Koppeltaal2BackendClient) { self.backend = backend }

    /// Reads a resource's current version.
    ///
    /// - Throws: `KT2OperationOutcomeError` (e.g. `not-found` with 404, or 410 once deleted),
    ///   `UnexpectedResponseError`, and what getting a token throws.
    public func read<Resource: KT2FHIRResource>(
        _ type: Resource.Type, id: String, trace: KT2Trace = KT2Trace()
    ) async throws -> KT2Versioned<Resource> {
        var chain = Chain(trace: trace)
        let response = try await send(.get, type.resourceType, [id], trace: &chain)
        return try versioned(type, response)
    }

    /// Creates `resource`; the answer is the stored version, with its id and the `resource-origin` the server set.
    ///
    /// - Throws: ``KT2RequestError`` (``KT2RequestError/Code/resourceOriginOnCreate``) before anything is sent
    ///   when `resource` carries `resource-origin`; `KT2OperationOutcomeError` for a refusal (400, 422).
    public func create<Resource: KT2FHIRResource>(_ resource: Resource, trace: KT2Trace = KT2Trace()) async throws
        -> KT2Versioned<Resource>
    {
        guard resource.resourceOrigin == nil,
            !resource.extension.contains(where: { $0.url == KT2Extensions.resourceOrigin })
        else {
            throw KT2RequestError(
                code: .resourceOriginOnCreate, resourceType: Resource.resourceType,
                detail: "a create must not carry the resource-origin extension; the server sets it")
        }
        var chain = Chain(trace: trace)
        let response = try await send(
            .post, Resource.resourceType, [], body: try JSONCoding.encode(resource), trace: &chain)
        return try versioned(Resource.self, response)
    }

    /// Replaces `current` with `resource`, sending `If-Match` with `current`'s entity tag.
    ///
    /// - Parameters:
    ///   - resource: the new content; its id must be `current`'s.
    ///   - current: the version it replaces, as read, created, found or returned by the last update.
    ///   - trace: the chain the request belongs to.
    /// - Throws: ``KT2UpdateConflict`` when the server has another version (409 or 412), with that version;
    ///   ``KT2PreconditionError`` for a 409 or 412 while the resource is still at `current`'s version (the
    ///   `If-Match` did not arrive as sent); ``KT2RequestError`` when the ids differ or `current` has no entity tag;
    ///   `KT2OperationOutcomeError` (e.g. 403 for a changed `resource-origin`, 410 when the resource was deleted
    ///   meanwhile).
    public func update<Resource: KT2FHIRResource>(
        _ resource: Resource, replacing current: KT2Versioned<Resource>, trace: KT2Trace = KT2Trace()
    ) async throws -> KT2Versioned<Resource> {
        guard let id = resource.id, id == current.resource.id else {
            throw KT2RequestError(
                code: .idMismatch, resourceType: Resource.resourceType,
                detail: "the update's id (\(resource.id ?? "none")) is not the replaced version's")
        }
        guard !current.versionID.isEmpty else {
            throw KT2RequestError(
                code: .missingVersion, resourceType: Resource.resourceType,
                detail: "the replaced version has no entity tag for If-Match")
        }
        var chain = Chain(trace: trace)
        do {
            let response = try await send(
                .put, Resource.resourceType, [id], body: try JSONCoding.encode(resource),
                headers: ["If-Match": current.eTag], trace: &chain)
            return try versioned(Resource.self, response)
        } catch let refusal as RefusedUpdate {
            // The cause decides: a resource still at the version sent was not changed by anyone, so the If-Match
            // itself was not taken, and a retry would spin.
            let outcome = Self.outcome(in: refusal.response)
            let now = try await currentVersion(Resource.resourceType, id: id, trace: &chain)
            guard KT2Versioned<Resource>.versionID(inETag: now.eTag) != current.versionID else {
                throw KT2PreconditionError(
                    httpStatus: refusal.response.status, outcome: outcome, sentETag: current.eTag)
            }
            throw KT2UpdateConflict(
                httpStatus: refusal.response.status, outcome: outcome, sentETag: current.eTag, current: now)
        }
    }

    /// The pages of a search (`GET [base]/<Type>?parameters`), each read when the sequence gets to it, following
    /// `Bundle.link[next]`.
    ///
    /// - Parameters:
    ///   - type: the resource type searched.
    ///   - parameters: the search parameters, e.g. `["status": "ready", "_count": "50"]`.
    ///   - trace: the chain the pages' requests belong to; they correlate to the first page's.
    public func search<Resource: KT2FHIRResource>(
        _ type: Resource.Type, _ parameters: FormFields = FormFields(), trace: KT2Trace = KT2Trace()
    ) -> KT2SearchResults<Resource> {
        KT2SearchResults(client: self, parameters: parameters, trace: trace)
    }

    /// Reads one page: the first (`next` nil) or the one a previous page linked to.
    func page<Resource: KT2FHIRResource>(
        _ type: Resource.Type, parameters: FormFields, next: URL?, trace: inout Chain
    ) async throws -> KT2SearchPage<Resource> {
        let response: HTTPResponseMessage
        if let next {
            response = try await send(.get, link: next, resourceType: type.resourceType, trace: &trace)
        } else {
            response = try await send(.get, type.resourceType, [], query: parameters, trace: &trace)
        }
        do {
            return try KT2SearchPage(bundle: response.body)
        } catch {
            throw UnexpectedResponseError(
                operation: "Koppeltaal2 FHIR", response: response, reason: "the body is not a Bundle: \(error)")
        }
    }

    // MARK: Requests

    /// The trace headers of one call: the chain's, with the call's first request id once it is sent.
    struct Chain {
        var trace: KT2Trace

        mutating func headers() -> HTTPHeaderFields {
            let requestID = UUID().uuidString.lowercased()
            let correlation = trace.correlationID ?? requestID
            if trace.correlationID == nil { trace.correlationID = requestID }
            return ["X-Request-Id": requestID, "X-Correlation-Id": correlation, "X-Trace-Id": trace.traceID]
        }
    }

    /// A 409 or 412 answer to an update, turned into a conflict by ``update(_:replacing:trace:)``.
    private struct RefusedUpdate: Error {
        let response: HTTPResponseMessage
    }

    private func send(
        _ method: HTTPRequestMethod, _ resourceType: String, _ path: [String], query: FormFields = FormFields(),
        body: Data? = nil, headers: HTTPHeaderFields = [:], trace: inout Chain
    ) async throws -> HTTPResponseMessage {
        let encodedPath = ([resourceType] + path).map(PercentEncoding.pathSegment).joined(separator: "/")
        var builder = try HTTPRequestBuilder(
            method: method, server: baseURL, serverName: "fhir", path: "/" + encodedPath)
        builder.query = query
        return try await send(builder, resourceType: resourceType, body: body, headers: headers, trace: &trace)
    }

    /// A GET of a page link, which must be under the FHIR base: the token goes nowhere else.
    private func send(_ method: HTTPRequestMethod, link: URL, resourceType: String, trace: inout Chain)
        async throws -> HTTPResponseMessage
    {
        guard ResourceLinkScope.link(link, isUnder: baseURL),
            let components = URLComponents(url: link, resolvingAgainstBaseURL: false),
            let base = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)
        else {
            throw KT2RequestError(
                code: .foreignPageLink, resourceType: resourceType,
                detail: "the next page is not under the FHIR base URL")
        }
        var server = base
        server.percentEncodedPath = ""
        server.percentEncodedQuery = nil
        var builder = try HTTPRequestBuilder(
            method: method, server: server.url, serverName: "fhir", path: components.percentEncodedPath)
        builder.query = FormFields(formEncoded: components.percentEncodedQuery ?? "")
        return try await send(builder, resourceType: resourceType, body: nil, headers: [:], trace: &trace)
    }

    private func send(
        _ builder: HTTPRequestBuilder, resourceType: String, body: Data?, headers: HTTPHeaderFields,
        trace: inout Chain
    ) async throws -> HTTPResponseMessage {
        var builder = builder
        builder.headers["Accept"] = "application/fhir+json"
        for field in trace.headers() { builder.headers[field.name] = field.value }
        for field in headers { builder.headers[field.name] = field.value }
        if let body { builder.setBody(body, contentType: "application/fhir+json; charset=utf-8") }
        let prepared = builder
        let operation = OperationID(family: "Koppeltaal2", method: "FHIR \(builder.method.rawValue) \(resourceType)")
        let options = self.options
        let attempts = LockedValue(0)
        return try await backend.withAccessToken { token in
            var request = prepared
            // A replay after a 401 is a request of its own, with an X-Request-Id of its own.
            let attempt = attempts.withValue { count -> Int in
                count += 1
                return count
            }
            if attempt > 1 { request.headers["X-Request-Id"] = UUID().uuidString.lowercased() }
            request.authorize(bearer: token)
            let message = try request.build(timeout: options.timeout)
            let response = try await options.send(message, operation: operation)
            guard !response.isSuccess else { return response }
            if prepared.method == .put, [409, 412].contains(response.status) {
                throw RefusedUpdate(response: response)
            }
            throw Self.error(response, operation: operation.description)
        }
    }

    private func currentVersion(_ resourceType: String, id: String, trace: inout Chain) async throws
        -> (eTag: String, json: Data)
    {
        let response = try await send(.get, resourceType, [id], trace: &trace)
        let versionID = (try? JSONValue.parse(response.body))?["meta"]?["versionId"]?.stringValue
        let eTag = response.headers["ETag"] ?? versionID.map(weakETag(version:)) ?? ""
        return (eTag, response.body)
    }

    private func versioned<Resource: KT2FHIRResource>(_ type: Resource.Type, _ response: HTTPResponseMessage)
        throws -> KT2Versioned<Resource>
    {
        let resource = try decode(type, response)
        let eTag =
            response.headers["ETag"] ?? resource.meta?.versionID.map(weakETag(version:)) ?? ""
        return KT2Versioned(resource: resource, eTag: eTag)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, _ response: HTTPResponseMessage) throws -> Value {
        do {
            return try JSONCoding.decode(type, from: response.body)
        } catch {
            throw UnexpectedResponseError(
                operation: "Koppeltaal2 FHIR", response: response, reason: "the body is not a valid \(type): \(error)")
        }
    }

    /// The typed error of an answer that is not 2xx: a 401 is always an expired or refused token (whatever its
    /// body), so the backend renews it once; otherwise the OperationOutcome when there is one.
    private static func error(_ response: HTTPResponseMessage, operation: String) -> any Error {
        if response.status != 401, let outcome = outcome(in: response) {
            return KT2OperationOutcomeError(
                body: outcome, origin: ServerErrorOrigin(httpStatus: response.status, operation: operation))
        }
        return UnexpectedResponseError(operation: operation, response: response)
    }

    private static func outcome(in response: HTTPResponseMessage) -> KT2OperationOutcome? {
        try? JSONCoding.decode(KT2OperationOutcome.self, from: response.body)
    }
}

/// The pages of a search, read one at a time as they are iterated.
public struct KT2SearchResults<Resource: KT2FHIRResource>: AsyncSequence, Sendable {
    /// A page.
    public typealias Element = KT2SearchPage<Resource>

    let client: Koppeltaal2FHIRClient
    let parameters: FormFields
    let trace: KT2Trace

    /// Reads the pages in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let client: Koppeltaal2FHIRClient
        let parameters: FormFields
        var chain: Koppeltaal2FHIRClient.Chain
        var next: URL?
        var started = false

        /// The next page, or nil after the last.
        public mutating func next() async throws -> KT2SearchPage<Resource>? {
            guard !started || next != nil else { return nil }
            let page = try await client.page(Resource.self, parameters: parameters, next: next, trace: &chain)
            started = true
            next = page.next
            return page
        }
    }

    /// An iterator from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(client: client, parameters: parameters, chain: .init(trace: trace))
    }
}

/// Gives every request of a Koppeltaal 2.0 client that has none (discovery, the token requests) a new
/// `X-Request-Id`, correlated to itself: the FHIR client's requests carry their chain's already.
struct KT2TraceHeaders: HTTPClientMiddleware {
    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        guard request.headers["X-Request-Id"] == nil else { return try await next(request) }
        var request = request
        let requestID = UUID().uuidString.lowercased()
        request.headers["X-Request-Id"] = requestID
        request.headers["X-Correlation-Id"] = requestID
        return try await next(request)
    }
}
