import Foundation
@_spi(Generated) import HealthSignInCore

extension FHIRAPIClient {
    /// Creates `resource` (`POST [base]/[type]`); the server assigns its id.
    ///
    /// - Parameters:
    ///   - resource: the resource to create.
    ///   - ifNoneExist: a search that makes the create conditional (`If-None-Exist`), such as
    ///     `["identifier": "http://example.org/mrn|12345"]`: when one resource matches, the server creates nothing and
    ///     answers 200 with it; more than one match is an error.
    ///   - token: the access token.
    /// - Returns: the server's answer; its `resource` is what the server stored, with its id and version.
    /// - Throws: ``FHIROperationOutcomeError`` for an error response; otherwise `UnexpectedResponseError`,
    ///   `ResponseDecodingError`, `EncodingError`, `ConfigurationError` or `TransportError`.
    public func create(
        _ resource: Resource, ifNoneExist: KeyValuePairs<String, String> = [:], token: BearerToken
    ) async throws -> FHIRWriteOutcome {
        let written = try WrittenResource(resource)
        var http = try writeRequest(.post, path: try Self.typePath(written.resourceType))
        if !ifNoneExist.isEmpty {
            var search = FormFields()
            for (name, value) in ifNoneExist { search.append(name, value) }
            http.headers["If-None-Exist"] = search.queryEncoded
        }
        http.setBody(written.body, contentType: "application/fhir+json")
        return try await write(http, operation: "Create", token: token)
    }

    /// Creates or replaces `resource` at its id (`PUT [base]/[type]/[id]`).
    ///
    /// - Parameters:
    ///   - resource: the resource, with its id.
    ///   - versionID: the version the update is based on, sent as `If-Match: W/"<versionID>"`: when the server's
    ///     current version is another, it refuses with 412 and nothing changes. Nil updates whatever is current.
    ///   - token: the access token.
    /// - Throws: `SchemaValidationError` when the resource has no id or `versionID` is not a FHIR id, before anything
    ///   is sent; otherwise what ``create(_:ifNoneExist:token:)`` throws.
    public func update(_ resource: Resource, ifMatch versionID: String? = nil, token: BearerToken) async throws
        -> FHIRWriteOutcome
    {
        let written = try WrittenResource(resource)
        guard let id = written.id else { throw SchemaValidationError(path: "/id", requirement: "present to update") }
        var http = try writeRequest(.put, path: try Self.instancePath(written.resourceType, id))
        if let versionID {
            try RequestValidation.pattern(versionID, Self.idPattern, at: "/meta/versionId")
            http.headers["If-Match"] = "W/\"\(versionID)\""
        }
        http.setBody(written.body, contentType: "application/fhir+json")
        return try await write(http, operation: "Update", token: token)
    }

    /// Deletes the resource `resourceType/id` (`DELETE [base]/[type]/[id]`).
    ///
    /// - Throws: `SchemaValidationError` when the type or id is not a FHIR name, before anything is sent; otherwise
    ///   what ``create(_:ifNoneExist:token:)`` throws.
    @discardableResult
    public func delete(_ resourceType: String, id: String, token: BearerToken) async throws -> FHIRWriteOutcome {
        try await write(
            try writeRequest(.delete, path: try Self.instancePath(resourceType, id)), operation: "Delete", token: token)
    }

    /// The pattern of a FHIR id: a resource's logical id or a version id.
    private static let idPattern = "^[A-Za-z0-9.-]{1,64}$"

    /// `/<type>`, once the type is a FHIR name.
    static func typePath(_ resourceType: String) throws -> String {
        try RequestValidation.pattern(resourceType, "^[A-Z][A-Za-z]{0,63}$", at: "/resourceType")
        return "/" + PercentEncoding.pathSegment(resourceType)
    }

    /// `/<type>/<id>`, once both are FHIR names.
    private static func instancePath(_ resourceType: String, _ id: String) throws -> String {
        let typePath = try typePath(resourceType)
        try RequestValidation.pattern(id, idPattern, at: "/id")
        return typePath + "/" + PercentEncoding.pathSegment(id)
    }

    private func writeRequest(_ method: HTTPRequestMethod, path: String) throws -> HTTPRequestBuilder {
        // The stored resource comes back in the answer, so the app sees the id and version the server gave it.
        try core.request(
            method, server: configuration.servers.base, serverName: "base", path: path,
            headers: ["Prefer": "return=representation"])
    }

    private func write(_ request: HTTPRequestBuilder, operation: String, token: BearerToken) async throws
        -> FHIRWriteOutcome
    {
        var http = request
        http.authorize(bearer: token)
        let response = try await core.send(http, operation: operation, errors: [ErrorFormats.fhirOperationOutcomeError])
        let isEmpty = response.body.allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return FHIRWriteOutcome(
            status: response.status,
            resource: isEmpty ? nil : try HTTPResponseBody.json(Resource.self, from: response, operation: operation),
            location: response.headers["Location"],
            versionID: response.headers["ETag"].flatMap(Self.versionID(ofEntityTag:)))
    }

    /// The version an entity tag names: `W/"3"` and `"3"` name `3`.
    private static func versionID(ofEntityTag tag: String) -> String? {
        var text = Substring(tag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return nil }
        return String(text.dropFirst().dropLast())
    }
}

/// A resource as a write sends it: its JSON, and the type and id the request's path names.
private struct WrittenResource {
    let body: Data
    let resourceType: String
    let id: String?

    init(_ resource: Resource) throws {
        try resource.validate()
        body = try JSONCoding.encode(resource)
        // The union writes `resourceType` and the model's `id`; reading them back keeps one source for both.
        let object = (try? JSONValue.parse(body))?.objectValue
        resourceType = object?["resourceType"]?.stringValue ?? ""
        id = object?["id"]?.stringValue
    }
}
