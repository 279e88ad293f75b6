import Foundation
import HealthSignInCore

/// The FHIR server: discovery, and REST on versioned resources with `resource-origin`, `If-Match` and paged
/// searches; every request's trace headers are recorded and echoed.
extension Koppeltaal2TestServer {
    static let resourceOrigin = "http://koppeltaal.nl/fhir/StructureDefinition/resource-origin"
    static let instantiates = "http://vzvz.nl/fhir/StructureDefinition/instantiates"
    static let fhirJSON = "application/fhir+json; charset=utf-8"

    func smartConfiguration() -> HTTPResponseMessage {
        guard settings.servesSMARTConfiguration else { return .notFound }
        return .json(
            200,
            .object([
                "issuer": .string(issuer), "jwks_uri": .string(keysURL.absoluteString),
                "authorization_endpoint": .string(authorizeURL.absoluteString),
                "token_endpoint": .string(tokenURL.absoluteString),
                "introspection_endpoint": .string(introspectionURL.absoluteString),
                "grant_types_supported": ["authorization_code", "client_credentials"],
                "token_endpoint_auth_methods_supported": ["private_key_jwt"],
                "scopes_supported": ["openid", "launch", "fhirUser", "system/*.cruds"],
                "response_types_supported": ["code"], "code_challenge_methods_supported": ["S256"],
                "capabilities": [
                    "launch-ehr", "authorize-post", "client-confidential-asymmetric", "sso-openid-connect",
                    "context-ehr-hti", "permission-v2",
                ],
            ]))
    }

    func capabilityStatement() -> HTTPResponseMessage {
        let uris: [(String, URL)] = [
            ("token", tokenURL), ("authorize", authorizeURL), ("introspect", introspectionURL), ("jwks", keysURL),
        ]
        var entries: [JSONValue] = uris.map {
            .object(["url": .string($0.0), "valueUri": .string($0.1.absoluteString)])
        }
        entries.append(.object(["url": "issuer", "valueUri": .string(issuer)]))
        let security: JSONObject = [
            "extension": [
                .object([
                    "url": "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
                    "extension": .array(entries),
                ])
            ]
        ]
        return .json(
            200,
            .object([
                "resourceType": "CapabilityStatement", "fhirVersion": "4.0.1",
                "rest": [.object(["mode": "server", "security": .object(security)])],
            ]), headers: ["Content-Type": Self.fhirJSON])
    }

    func fhir(_ request: ReceivedRequest, as operation: Operation) -> HTTPResponseMessage {
        let requestID = request.header("X-Request-Id") ?? core.uuid()
        let trace = Trace(
            request: "\(request.method.rawValue) \(request.path)", requestID: request.header("X-Request-Id"),
            correlationID: request.header("X-Correlation-Id"), traceID: request.header("X-Trace-Id"))
        state.withValue { $0.traces.append(trace) }
        var response = serve(request, as: operation)
        response.headers["X-Request-Id"] = requestID
        if let correlation = request.header("X-Correlation-Id") { response.headers["X-Correlation-Id"] = correlation }
        response.headers["X-Trace-Id"] = request.header("X-Trace-Id") ?? core.uuid()
        return response
    }

    private func serve(_ request: ReceivedRequest, as operation: Operation) -> HTTPResponseMessage {
        guard let token = request.bearerToken, let access = state.current.accessTokens[token],
            access.expiresAt > core.now
        else { return Self.outcome(401, "login", "the access token is missing, unknown or expired") }
        let device = state.current.applications[access.clientID]?.device ?? ""
        let segments = (Self.path(request.message.url, under: fhirBaseURL) ?? "").split(separator: "/").map(String.init)
        switch operation {
        case .read: return read(segments[0] + "/" + segments[1])
        case .search: return search(request, type: segments.first)
        case .create: return create(request, type: segments[0], device: device)
        default: return update(request, reference: segments[0] + "/" + segments[1])
        }
    }

    private func read(_ reference: String) -> HTTPResponseMessage {
        guard let current = resource(reference) else {
            return Self.outcome(404, "not-found", "\(reference) is unknown")
        }
        return Self.resourceResponse(200, current)
    }

    private func create(_ request: ReceivedRequest, type: String, device: String) -> HTTPResponseMessage {
        guard var resource = request.jsonObject, resource["resourceType"]?.stringValue == type else {
            return Self.outcome(400, "structure", "the body is not a \(type)")
        }
        guard Self.origins(of: resource).isEmpty else {
            return Self.outcome(400, "business-rule", "Not allowed to set extension resource-origin")
        }
        resource["id"] = nil
        resource["extension"] = .array(
            (resource["extension"]?.arrayValue ?? []) + [
                .object([
                    "url": .string(Self.resourceOrigin),
                    "valueReference": .object(["reference": .string(device), "type": "Device"]),
                ])
            ])
        let stored = put(resource)
        return Self.resourceResponse(201, stored)
    }

    private func update(_ request: ReceivedRequest, reference: String) -> HTTPResponseMessage {
        guard var resource = request.jsonObject,
            resource["resourceType"]?.stringValue == reference.split(separator: "/").first.map(String.init)
        else { return Self.outcome(400, "structure", "the body is not the resource of the URL") }
        guard let ifMatch = request.header("If-Match") else {
            return Self.outcome(412, "processing", "If-Match header is required on updates")
        }
        // The version check and the new version are one step, as two updates from one version race.
        return state.withValue { state -> HTTPResponseMessage in
            guard let current = state.resources[reference]?.last else {
                return Self.outcome(404, "not-found", "\(reference) is unknown")
            }
            let currentVersion = current["meta"]?["versionId"]?.stringValue ?? ""
            guard Self.versionID(ifMatch) == currentVersion else {
                return Self.outcome(state.settings.conflictStatus, "conflict", "version \(currentVersion) is current")
            }
            let kept = Self.origins(of: current)
            let sent = Self.origins(of: resource)
            guard sent.count <= 1 else { return Self.outcome(400, "business-rule", "more than one resource-origin") }
            if sent.isEmpty {
                resource["extension"] = .array((resource["extension"]?.arrayValue ?? []) + kept.map(JSONValue.object))
            } else if sent != kept {
                return Self.outcome(403, "forbidden", "resource-origin may not change")
            }
            resource["id"] = current["id"]
            return Self.resourceResponse(200, store(resource, in: &state))
        }
    }

    private func search(_ request: ReceivedRequest, type: String?) -> HTTPResponseMessage {
        let query = request.query
        let count = Int(query["_count"] ?? "") ?? settings.pageSize
        let matches: [JSONObject]
        let searchID: String
        let offset: Int
        if let pages = query["_getpages"] {
            guard let stored = state.current.searches[pages] else {
                return Self.outcome(410, "not-found", "the search expired")
            }
            (matches, searchID, offset) = (stored, pages, max(0, Int(query["_getpagesoffset"] ?? "") ?? 0))
        } else {
            guard let type else { return Self.outcome(400, "not-supported", "no whole-system search") }
            let filters = query.pairs.filter { !$0.name.hasPrefix("_") || $0.name == "_id" }
            matches = state.current.resources.keys.sorted().filter { $0.hasPrefix(type + "/") }
                .compactMap { resource($0) }
                .filter { resource in filters.allSatisfy { Self.matches(resource, $0.name, $0.value) } }
            searchID = core.uuid()
            offset = 0
            state.withValue { $0.searches[searchID] = matches }
        }
        let page = matches.dropFirst(offset).prefix(max(count, 1))
        var links: [JSONValue] = [.object(["relation": "self", "url": .string(request.message.url.absoluteString)])]
        if offset + page.count < matches.count {
            var next = FormFields()
            next.append("_getpages", searchID)
            next.append("_getpagesoffset", String(offset + page.count))
            next.append("_count", String(count))
            links.append(
                .object(["relation": "next", "url": .string(fhirBaseURL.absoluteString + "?" + next.queryEncoded)]))
        }
        let entries: [JSONValue] = page.map { resource in
            let reference = (resource["resourceType"]?.stringValue ?? "") + "/" + (resource["id"]?.stringValue ?? "")
            return .object([
                "fullUrl": .string(fhirBaseURL.absoluteString + "/" + reference), "resource": .object(resource),
                "search": ["mode": "match"],
            ])
        }
        return .json(
            200,
            .object([
                "resourceType": "Bundle", "type": "searchset", "total": .integer(matches.count),
                "link": .array(links), "entry": .array(entries),
            ]), headers: ["Content-Type": Self.fhirJSON])
    }

    /// Whether `resource` matches one search parameter: reference, code or identifier equality, each of a comma's
    /// alternatives.
    private static func matches(_ resource: JSONObject, _ name: String, _ value: String) -> Bool {
        let wanted = Set(value.split(separator: ",").map(String.init))
        let found: [String]
        switch name {
        case "_id": found = [resource["id"]?.stringValue].compactMap { $0 }
        case "patient", "for": found = [resource["for"]?["reference"]?.stringValue].compactMap { $0 }
        case "owner": found = [resource["owner"]?["reference"]?.stringValue].compactMap { $0 }
        case "identifier":
            found = (resource["identifier"]?.arrayValue ?? []).flatMap { identifier -> [String] in
                let value = identifier["value"]?.stringValue ?? ""
                return [value, (identifier["system"]?.stringValue ?? "") + "|" + value]
            }
        case "instantiates", "resource-origin":
            let url = name == "instantiates" ? instantiates : resourceOrigin
            found = (resource["extension"]?.arrayValue ?? []).filter { $0["url"]?.stringValue == url }
                .compactMap { $0["valueReference"]?["reference"]?.stringValue }
        default: found = [resource[name]?.stringValue].compactMap { $0 }
        }
        return !wanted.isDisjoint(with: found)
    }

    private static func origins(of resource: JSONObject) -> [JSONObject] {
        (resource["extension"]?.arrayValue ?? []).compactMap(\.objectValue).filter {
            $0["url"]?.stringValue == resourceOrigin
        }
    }

    private static func versionID(_ eTag: String) -> String {
        var text = Substring(eTag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        return String(text.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    private static func resourceResponse(_ status: Int, _ resource: JSONObject) -> HTTPResponseMessage {
        let version = resource["meta"]?["versionId"]?.stringValue ?? "1"
        return .json(status, .object(resource), headers: ["Content-Type": fhirJSON, "ETag": "W/\"\(version)\""])
    }

    private static func outcome(_ status: Int, _ code: String, _ diagnostics: String) -> HTTPResponseMessage {
        .json(
            status,
            .object([
                "resourceType": "OperationOutcome",
                "issue": [.object(["severity": "error", "code": .string(code), "diagnostics": .string(diagnostics)])],
            ]), headers: ["Content-Type": fhirJSON])
    }
}
