import Foundation
import HealthSignInCore

/// Revocation (RFC 7009), introspection (RFC 7662) and the FHIR reads, as the emulator answers them.
extension SMARTTestServer {
    private static let tokenTypeHints: Set<String> = ["access_token", "refresh_token"]

    func revoke(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let now = core.now
        let audience = reached(request).root + "/auth/revoke"
        return state.withValue { state in
            do throws(OAuthFailure) {
                let client = try authenticate(
                    request, methods: [.secretBasic, .none, .privateKeyJWT], audience: audience, now: now, &state)
                let hint = try Self.checkParameters(request)
                let value = request.form["token"] ?? ""
                let isAccess = hint != "refresh_token" && state.access[value] != nil
                let isRefresh = !isAccess && hint != "access_token" && state.refresh[value] != nil
                if isAccess {
                    guard state.access[value]?.clientID == client.id else { throw OAuthFailure("invalid_grant") }
                    state.access[value]?.revoked = true
                } else if isRefresh {
                    guard state.refresh[value]?.clientID == client.id else { throw OAuthFailure("invalid_grant") }
                    state.revoke(refreshToken: value)
                }
                return .oauth(200, .object(JSONObject()))
            } catch {
                return .oauthError(error)
            }
        }
    }

    /// The `token_type_hint`, after checking that a token is given and the hint is one the server knows.
    private static func checkParameters(_ request: ReceivedRequest) throws(OAuthFailure) -> String? {
        let hint = request.form["token_type_hint"]
        if let hint, !tokenTypeHints.contains(hint) { throw OAuthFailure("unsupported_token_type") }
        guard request.form["token"] != nil else { throw OAuthFailure("invalid_request") }
        return hint
    }

    func introspect(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let now = core.now
        let reached = reached(request)
        let issuer = issuer(request, settings)
        return state.withValue { state in
            do throws(OAuthFailure) {
                if let header = request.header("Authorization"), header.hasPrefix("Bearer ") {
                    let caller = state.access[String(header.dropFirst(7))]
                    guard let caller, !caller.revoked, caller.expiresAt > now else {
                        throw OAuthFailure("invalid_token", "the bearer token is not active", status: 401)
                    }
                } else {
                    _ = try authenticate(
                        request, methods: [.secretBasic, .privateKeyJWT], audience: reached.root + "/auth/introspect",
                        now: now, &state)
                }
                _ = try Self.checkParameters(request)
                guard let entry = state.access[request.form["token"] ?? ""], !entry.revoked, entry.expiresAt > now
                else {
                    return .oauth(200, ["active": false])
                }
                var members: [JSONObject.Member] = [
                    ("active", true), ("scope", .string(entry.scope)), ("client_id", .string(entry.clientID)),
                    ("exp", .integer(EpochSeconds.of(entry.expiresAt))), ("token_type", "Bearer"),
                ]
                members += entry.context
                if entry.scope.split(separator: " ").contains("openid") {
                    members += [
                        ("iss", .string(issuer)), ("sub", .string(state.settings.subject)),
                        ("fhirUser", .string(state.settings.fhirUser)),
                    ]
                }
                return .oauth(200, .object(JSONObject(members)))
            } catch {
                return .oauthError(error)
            }
        }
    }

    /// `Patient/<id>`, `Observation` (a search) and the resources apps wrote, each of their versions at
    /// `<Type>/<id>/_history/<version>`, for a current token with a scope that reads them.
    func read(_ request: ReceivedRequest, path: String) -> HTTPResponseMessage {
        let segments = path.split(separator: "/").map(String.init)
        let type: String
        switch (segments.first, segments.count) {
        case ("Patient", 2): type = "Patient"
        case ("Observation", 1): type = "Observation"
        case (let stored?, 2): type = stored
        case (let stored?, 4) where segments[2] == "_history": type = stored
        default: return .notFound
        }
        if let failure = authorize("r", of: type, request) { return failure }
        if segments.count >= 2, type != "Patient" {
            let version = segments.count == 4 ? Int(segments[3]) ?? 0 : nil
            return stored(type, segments[1], version: version, request)
                ?? Self.outcome(404, "not-found", "\(path) is not known")
        }
        if type == "Patient" { return .json(200, Self.patient(segments[1])) }
        return searchObservations(request)
    }

    /// What every patient has measured: LOINC code, display, value and UCUM unit of each Observation, as the
    /// emulator has them.
    private static let observationKinds: [(code: String, display: String, value: JSONNumber, unit: String)] = [
        ("8867-4", "Heart rate", 72, "/min"), ("29463-7", "Body weight", JSONNumber(70.5), "kg"),
        ("8302-2", "Body height", 180, "cm"),
    ]

    /// The emulator's page size when a search gives no `_count`.
    private static let defaultPageSize = 50

    private static func patient(_ id: String) -> JSONValue {
        ["resourceType": "Patient", "id": .string(id), "name": [["family": "Test"]]]
    }

    private static func observation(of patient: String, _ index: Int) -> JSONValue {
        let kind = observationKinds[index]
        return [
            "resourceType": "Observation", "id": .string("\(patient)-obs-\(index + 1)"), "status": "final",
            "code": [
                "coding": [
                    ["system": "http://loinc.org", "code": .string(kind.code), "display": .string(kind.display)]
                ]
            ],
            "subject": ["reference": .string("Patient/\(patient)")],
            "valueQuantity": [
                "value": .number(kind.value), "unit": .string(kind.unit), "system": "http://unitsofmeasure.org",
                "code": .string(kind.unit),
            ],
        ]
    }

    /// A searchset of the patient's Observations, `_count` at a time from the emulator's opaque `_offset`, with
    /// `_include=Observation:subject`, as the emulator answers it.
    private func searchObservations(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let settings = self.settings
        let fhirBase = reached(request).fhirBase
        let patient = request.query["patient"] ?? request.query["subject"].map { String($0.trimmingPrefix("Patient/")) }
        let total = patient == nil ? 0 : Self.observationKinds.count
        guard let count = Int(request.query["_count"] ?? String(Self.defaultPageSize)),
            let offset = Int(request.query["_offset"] ?? "0")
        else { return Self.outcome(400, "invalid", "_count and _offset are integers") }
        let (size, start) = (max(1, count), max(0, offset))
        var entries: [JSONValue] = []
        if let patient {
            for index in start..<max(start, min(start + size, total)) {
                entries.append([
                    "fullUrl": .string("\(fhirBase)/Observation/\(patient)-obs-\(index + 1)"),
                    "resource": Self.observation(of: patient, index), "search": ["mode": "match"],
                ])
            }
            let includes = request.query.pairs.contains { $0.name == "_include" && $0.value == "Observation:subject" }
            if !entries.isEmpty, includes {
                entries.append([
                    "fullUrl": .string("\(fhirBase)/Patient/\(patient)"), "search": ["mode": "include"],
                    "resource": Self.patient(patient),
                ])
            }
        }
        if settings.addsUnreadableSearchEntry {
            entries.append(["resource": ["resourceType": "Observation", "status": 7], "search": ["mode": "match"]])
        }
        var query = FormFields()
        for pair in request.query.pairs where pair.name != "_offset" { query.append(pair.name, pair.value) }
        func link(_ relation: String, _ base: String, offset: Int) -> JSONValue {
            var fields = query
            fields.append("_offset", String(offset))
            return ["relation": .string(relation), "url": .string(base + "/Observation?" + fields.queryEncoded)]
        }
        var links = [link("self", fhirBase, offset: start)]
        if start + size < total {
            let base = settings.nextSearchLinkOnAttacker ? reached(request).origin + "/evil/fhir" : fhirBase
            links.append(link("next", base, offset: settings.nextSearchLinkRepeats ? start : start + size))
        }
        return .json(
            200,
            [
                "resourceType": "Bundle", "type": "searchset", "total": .number(JSONNumber(total)),
                "link": .array(links),
                "entry": .array(entries),
            ])
    }

    /// Nil when the request's bearer token may do `permission` (a SMART 2 letter: `c`, `r`, `u`, `d` or `s`) on
    /// `type`, else its RFC 6750 error.
    func authorize(_ permission: Character, of type: String, _ request: ReceivedRequest) -> HTTPResponseMessage? {
        let header = request.header("Authorization") ?? ""
        let entry = header.hasPrefix("Bearer ") ? state.current.access[String(header.dropFirst(7))] : nil
        guard let entry, !entry.revoked, entry.expiresAt > core.now, entry.audience == reached(request).fhirBase else {
            let challenge = "Bearer error=\"invalid_token\""
            guard settings.explainsRefusedTokens else { return .empty(401, headers: ["WWW-Authenticate": challenge]) }
            var refusal = Self.outcome(401, "security", "The access token is not valid")
            refusal.headers["WWW-Authenticate"] = challenge
            return refusal
        }
        for scope in entry.scope.split(separator: " ") {
            let parts = scope.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, ["patient", "user", "system"].contains(parts[0]) else { continue }
            let resource = parts[1].split(separator: ".", maxSplits: 1).map(String.init)
            let kind = resource[0]
            let permissions = resource.count > 1 ? resource[1] : ""
            if kind == "*" || kind == type, Self.grants(permissions, permission) {
                return nil
            }
        }
        return .empty(403, headers: ["WWW-Authenticate": "Bearer error=\"insufficient_scope\""])
    }

    /// Whether a scope's permissions (SMART 2's `cruds` letters, or SMART 1's `read`, `write` and `*`) grant
    /// `permission`.
    private static func grants(_ permissions: String, _ permission: Character) -> Bool {
        switch permissions {
        case "*": return true
        case "read": return "rs".contains(permission)
        case "write": return "cud".contains(permission)
        default: return permissions.contains(permission)
        }
    }
}
