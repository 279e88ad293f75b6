import Foundation
import HealthSignInCore

extension SMARTTestServer {
    /// `POST <fhir>/<Type>`, `PUT <fhir>/<Type>/<id>` and `DELETE <fhir>/<Type>/<id>`, for a current token with a
    /// scope that may create, update or delete the type (SMART 2's `c`, `u`, `d`, or SMART 1's `write`), as the
    /// emulator answers them.
    func write(_ request: ReceivedRequest, path: String) -> HTTPResponseMessage {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch (request.method, segments.count) {
        case (.post, 1): return create(request, type: segments[0])
        case (.put, 2): return update(request, type: segments[0], id: segments[1])
        case (.delete, 2):
            if let failure = authorize("d", of: segments[0], request) { return failure }
            state.withValue { $0.resources["\(segments[0])/\(segments[1])"] = nil }
            return .empty(204)
        default: return .notFound
        }
    }

    /// A stored resource (its current version, or `version`) with its `Location` and `ETag`, or nil when none is
    /// stored at `type/id` or it has no such version.
    func stored(
        _ type: String, _ id: String, version: Int? = nil, status: Int = 200, _ request: ReceivedRequest
    ) -> HTTPResponseMessage? {
        guard let stored = state.current.resources["\(type)/\(id)"] else { return nil }
        let version = version ?? stored.version
        guard stored.versions.indices.contains(version - 1) else { return nil }
        let headers: HTTPHeaderFields = [
            "Location": "\(reached(request).fhirBase)/\(type)/\(id)/_history/\(version)",
            "ETag": "W/\"\(version)\"", "Content-Type": "application/fhir+json",
        ]
        if request.header("Prefer") == "return=minimal" { return .empty(status, headers: headers) }
        return .json(status, .object(stored.versions[version - 1]), headers: headers)
    }

    private func create(_ request: ReceivedRequest, type: String) -> HTTPResponseMessage {
        if let failure = authorize("c", of: type, request) { return failure }
        guard let resource = request.jsonObject, resource["resourceType"] == .string(type) else {
            return Self.outcome(400, "invalid", "the body is not a \(type)")
        }
        let condition = FormFields(formEncoded: request.header("If-None-Exist") ?? "")
        if !condition.isEmpty {
            guard condition.pairs.allSatisfy({ $0.name == "identifier" }), let identifier = condition["identifier"]
            else { return Self.outcome(400, "not-supported", "If-None-Exist searches by identifier only") }
            let matches = state.current.resources.filter { key, stored in
                key.hasPrefix(type + "/") && Self.has(stored.resource, identifier: identifier)
            }.keys.sorted()
            if matches.count > 1 {
                return Self.outcome(412, "multiple-matches", "\(matches.count) resources match If-None-Exist")
            }
            if let match = matches.first, let answer = stored(type, String(match.dropFirst(type.count + 1)), request) {
                return answer
            }
        }
        let id = state.withValue { state in
            let id = "\(type.lowercased())-\(state.resources.count + 1)"
            state.resources["\(type)/\(id)"] = .init(versions: [
                Self.stamped(resource, id: id, version: 1, at: core.now)
            ])
            return id
        }
        return stored(type, id, status: 201, request) ?? .notFound
    }

    private func update(_ request: ReceivedRequest, type: String, id: String) -> HTTPResponseMessage {
        if let failure = authorize("u", of: type, request) { return failure }
        guard let resource = request.jsonObject, resource["resourceType"] == .string(type),
            resource["id"] == .string(id)
        else { return Self.outcome(400, "invalid", "the body is not the \(type) \(id)") }
        let expected = request.header("If-Match")
        let created: Bool? = state.withValue { state in
            let current = state.resources["\(type)/\(id)"]
            if let expected, expected != current.map({ "W/\"\($0.version)\"" }) { return nil }
            var stored = current ?? .init()
            stored.versions.append(Self.stamped(resource, id: id, version: stored.version + 1, at: core.now))
            state.resources["\(type)/\(id)"] = stored
            return current == nil
        }
        guard let created else {
            return Self.outcome(412, "conflict", "\(type)/\(id) is not at version \(expected ?? "")")
        }
        return stored(type, id, status: created ? 201 : 200, request) ?? .notFound
    }

    /// `resource` as it is stored: at `id`, with its version and the time in `meta`.
    private static func stamped(_ resource: JSONObject, id: String, version: Int, at now: Date) -> JSONObject {
        var resource = resource
        resource["id"] = .string(id)
        var meta = resource["meta"]?.objectValue ?? JSONObject()
        meta["versionId"] = .string(String(version))
        meta["lastUpdated"] = .string(ISO8601DateFormatter().string(from: now))
        resource["meta"] = .object(meta)
        return resource
    }

    /// Whether `resource` has the identifier `system|value` (or `value`) of an If-None-Exist search.
    private static func has(_ resource: JSONObject, identifier search: String) -> Bool {
        let parts = search.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let (system, value) = parts.count == 2 ? (parts[0], parts[1]) : (nil, parts[0])
        guard case .array(let identifiers) = resource["identifier"] ?? .null else { return false }
        return identifiers.contains { item in
            item.objectValue?["value"] == .string(value)
                && (system.map { item.objectValue?["system"] == .string($0) } ?? true)
        }
    }

    static func outcome(_ status: Int, _ code: String, _ diagnostics: String) -> HTTPResponseMessage {
        .json(
            status,
            [
                "resourceType": "OperationOutcome",
                "issue": [["severity": "error", "code": .string(code), "diagnostics": .string(diagnostics)]],
            ])
    }
}
