import Foundation
import HealthSignInCore

/// The Conformance, the SMART configuration and the FHIR resource endpoint, as the emulator serves them.
extension KoppeltaalTestServer {
    private static let forms: [ConformanceForm: String] = [
        .f1: "http://fhir-registry.smartplatforms.org/Profile/oauth-uris",
        .f2: "http://fhir-registry.smarthealthit.org/Profile/oauth-uris",
        .f3: "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
    ]
    private static let nested = "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris"

    /// The extensions of the Conformance's `security`: (url, valueUri, nested extensions).
    private struct Extension {
        let url: String
        var valueURI: String?
        var children: [Extension] = []

        var json: JSONValue {
            var members: [JSONObject.Member] = [("url", .string(url))]
            if let valueURI { members.append(("valueUri", .string(valueURI))) }
            if !children.isEmpty { members.append(("extension", .array(children.map(\.json)))) }
            return .object(JSONObject(members))
        }

        var xml: String {
            let value = valueURI.map { "<valueUri value=\(XMLText.attribute($0))/>" } ?? ""
            return "<extension url=\(XMLText.attribute(url))>\(value)\(children.map(\.xml).joined())</extension>"
        }
    }

    func metadata(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let settings = settings
        // Relative URIs are relative to the FHIR base (…/FHIR/Koppeltaal), as SMART allows.
        let prefix = settings.relativeURIs ? ".." : root(of: request)
        let authorize = prefix + "/OAuth2/Koppeltaal/Authorize"
        let token = prefix + "/OAuth2/Koppeltaal/Token"
        let extensions: [Extension]
        switch settings.conformanceForm {
        case .none:
            extensions = []
        case .f4:
            let members = [
                ("authorize", authorize), ("token", token), ("revoke", prefix + "/OAuth2/Koppeltaal/Revoke"),
            ]
            extensions = [Extension(url: Self.nested, children: members.map { Extension(url: $0.0, valueURI: $0.1) })]
        case .f1, .f2, .f3:
            let form = Self.forms[settings.conformanceForm] ?? ""
            extensions = [
                Extension(url: form + "#authorize", valueURI: authorize),
                Extension(url: form + "#token", valueURI: token),
            ]
        }
        let accepts = request.header("Accept")?.split(separator: ",").first.map(String.init) ?? ""
        if settings.conformanceFormat == .xml || (settings.conformanceFormat == .auto && accepts.contains("xml")) {
            let xml =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Conformance xmlns=\"http://hl7.org/fhir\">"
                + "<name value=\"Koppeltaal test server\"/><fhirVersion value=\"0.0.82\"/><format value=\"xml\"/>"
                + "<format value=\"json\"/><rest><mode value=\"server\"/><security>"
                + extensions.map(\.xml).joined() + "</security></rest></Conformance>"
            return .text(200, xml, type: "application/xml+fhir")
        }
        let rest: JSONValue = [
            "mode": "server",
            "security": ["service": [["text": "OAuth2"]], "extension": .array(extensions.map(\.json))],
        ]
        return .json(
            200,
            [
                "resourceType": "Conformance", "name": "Koppeltaal test server", "fhirVersion": "0.0.82",
                "format": ["json", "xml"], "rest": settings.restAsObject ? rest : [rest],
            ])
    }

    func smartConfiguration(_ request: ReceivedRequest) -> HTTPResponseMessage {
        guard settings.smartConfiguration else { return .json(404, ["error": "not found"]) }
        let root = root(of: request)
        return .json(
            200,
            [
                "authorization_endpoint": .string(root + "/OAuth2/Koppeltaal/Authorize"),
                "token_endpoint": .string(root + "/OAuth2/Koppeltaal/Token"),
                "revocation_endpoint": .string(root + "/OAuth2/Koppeltaal/Revoke"),
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
            ])
    }

    func resource(_ request: ReceivedRequest, path: String) -> HTTPResponseMessage {
        let presented = request.bearerToken ?? ""
        let now = core.now
        let token = state.current.token(access: presented)
        guard let token, !token.accessRevoked, now < token.expiresAt,
            request.header("Authorization")?.hasPrefix("Bearer ") == true
        else { return expired(request, presented: presented) }
        let patient = token.context.first { $0.0 == "patient" }?.1 ?? "None"
        let id = "urn:uuid:" + core.random.bytes(count: 8).map { String(format: "%02x", $0) }.joined()
        return .json(
            200,
            [
                "resourceType": "Bundle", "id": .string(id),
                "entry": [
                    [
                        "id": .string("\(patient)/_history/1"),
                        "content": ["resourceType": "MessageHeader", "identifier": .string(path)],
                    ]
                ],
            ])
    }

    /// The 401 of a stale bearer token, in the shape the settings choose.
    private func expired(_ request: ReceivedRequest, presented: String) -> HTTPResponseMessage {
        let settings = settings
        var headers: HTTPHeaderFields = [:]
        if settings.wwwAuthenticate || settings.emptyUnauthorized {
            headers.add(
                "WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"The access token expired\"")
        }
        if settings.emptyUnauthorized { return .empty(401, headers: headers) }
        let details = "Authentication failed: Bearer token \(presented) has expired"
        let wantsXML = request.header("Accept")?.split(separator: ",").first?.contains("xml") ?? false
        switch (settings.outcomeShape, wantsXML) {
        case (.dstu2, true):
            let xml =
                "<OperationOutcome xmlns=\"http://hl7.org/fhir\"><issue><severity value=\"error\"/>"
                + "<code value=\"expired\"/><details><text value=\(XMLText.attribute(details))/></details></issue>"
                + "</OperationOutcome>"
            return .text(401, xml, type: "application/xml+fhir", headers: headers)
        case (.dstu1, true):
            let xml =
                "<OperationOutcome xmlns=\"http://hl7.org/fhir\"><issue><type>"
                + "<system value=\"http://hl7.org/fhir/issue-type\"/><code value=\"expired\"/></type>"
                + "<details value=\(XMLText.attribute(details))/></issue></OperationOutcome>"
            return .text(401, xml, type: "application/xml+fhir", headers: headers)
        case (.dstu2, false):
            return outcome(
                ["severity": "error", "code": "expired", "details": ["text": .string(details)]], headers: headers)
        case (.dstu1, false):
            return outcome(
                [
                    "type": ["system": "http://hl7.org/fhir/issue-type", "code": "expired"],
                    "details": .string(details),
                ],
                headers: headers)
        }
    }

    private func outcome(_ issue: JSONValue, headers: HTTPHeaderFields) -> HTTPResponseMessage {
        var fields = headers
        fields.add("Content-Type", "application/json+fhir")
        return .json(401, ["resourceType": "OperationOutcome", "issue": [issue]], headers: fields)
    }
}
