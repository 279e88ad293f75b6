/// The `http` binding: plain HTTP requests whose fields travel in the path, query, headers or a body.
struct HTTPBindingResolver: BindingResolver {
    let family: IRFamilyBinding
    private let document: ProtocolDocument
    private let settings: HTTPFamilySettings

    init(document: ProtocolDocument, settings: HTTPFamilySettings) {
        self.document = document
        self.settings = settings
        family = .http(
            IRHTTPSettings(
                apiKeyHeader: settings.apiKeyHeader, headers: settings.headers,
                xmlPrimitives: settings.xmlPrimitives))
    }

    var anyValueIsXML: Bool { false }

    var statusError: String? { nil }

    func methodBinding(of document: MethodDocument, diagnostics: inout Diagnostics) -> IRMethodBinding? {
        switch document.binding {
        case .http(let binding):
            return .http(httpBinding(binding, diagnostics: &diagnostics))
        case .healthvault(let binding):
            diagnostics.error(
                "the method uses the healthvault binding, expected http like the rest of the family (protocol.json)",
                at: binding.location, pointer: binding.pointer)
            return nil
        }
    }

    func requestRules(for binding: IRMethodBinding) -> RequestRules {
        RequestRules(propertiesAreFields: true, bindRestriction: "no bound values in http methods")
    }

    func codecUsage(of binding: IRMethodBinding) -> IRCodecUsage {
        guard case .http(let binding) = binding else {
            return IRCodecUsage(request: nil, response: [], requestHasFields: true)
        }
        let response: [IRCodec]
        switch binding.response {
        case .json: response = [.json]
        case .xml: response = [.xml]
        case .jsonOrXml: response = [.json, .xml]
        case .none, .redirect: response = []
        }
        return IRCodecUsage(request: binding.body == .json ? .json : nil, response: response, requestHasFields: true)
    }

    func check(_ method: IRMethod, document: MethodDocument, types: IRTypeTable, diagnostics: inout Diagnostics) {
        if case .http(let binding) = method.binding, [.none, .redirect].contains(binding.response),
            let schema = document.response
        {
            diagnostics.error(
                "the method has a \"response\" schema but its binding's \"response\" is \(binding.response.rawValue), expected one of json, xml or jsonOrXml",
                at: schema.location, pointer: schema.pointer)
        }
        checkFields(method, table: types, diagnostics: &diagnostics)
    }

    private func httpBinding(_ binding: HTTPMethodBinding, diagnostics: inout Diagnostics) -> IRHTTPMethod {
        if !document.servers.contains(where: { $0.name == binding.server.value }) {
            diagnostics.error(
                "\"server\" is \"\(binding.server.value)\", which protocol.json does not define, expected one of \(Diagnostics.choices(document.servers.map(\.name), empty: "it defines no servers"))",
                at: binding.server.location, pointer: binding.server.pointer)
        }
        if !settings.authPolicies.contains(binding.auth.value) {
            diagnostics.error(
                "\"auth\" is \"\(binding.auth.value.rawValue)\", which protocol.json does not list, expected one of \(settings.authPolicies.map(\.rawValue).joined(separator: ", "))",
                at: binding.auth.location, pointer: binding.auth.pointer)
        }
        if [.apiKey, .bearerOrApiKey].contains(binding.auth.value), settings.apiKeyHeader == nil {
            diagnostics.error(
                "\"auth\" is \"\(binding.auth.value.rawValue)\" but protocol.json has no \"apiKeyHeader\", expected the header that carries the key",
                at: binding.auth.location, pointer: binding.auth.pointer)
        }
        if binding.auth.value == .oauthClient, binding.body.value != .form {
            diagnostics.error(
                "\"auth\" is \"oauthClient\" but \"body\" is \"\(binding.body.value.rawValue)\", expected \"form\": a client secret sent as a form field (client_secret_post) travels only in a form body, never in the query",
                at: binding.body.location, pointer: binding.body.pointer)
        }
        if [.GET, .DELETE].contains(binding.method.value), binding.body.value != .none {
            diagnostics.error(
                "a \(binding.method.value.rawValue) request with a \(binding.body.value.rawValue) body, expected \"body\": \"none\" (a \(binding.method.value.rawValue) request cannot carry a body)",
                at: binding.body.location, pointer: binding.body.pointer)
        }
        if binding.response.value == .redirect, binding.method.value != .GET || binding.auth.value != .none {
            diagnostics.error(
                "\"response\" is \"redirect\" with \(binding.method.value.rawValue) and auth \"\(binding.auth.value.rawValue)\", expected GET and \"none\": the browser opens the URL, which must carry no credential",
                at: binding.response.location, pointer: binding.response.pointer)
        }
        if [.xml, .jsonOrXml].contains(binding.response.value), binding.responseRoots.isEmpty {
            diagnostics.error(
                "\"response\" is \"\(binding.response.value.rawValue)\" but \"responseRoot\" is missing, expected the XML document element's name",
                at: binding.response.location, pointer: binding.response.pointer)
        }
        for error in binding.errors where !document.errors.contains(where: { $0.name == error.value }) {
            diagnostics.error(
                "\"errors\" names \"\(error.value)\", which protocol.json does not define, expected one of \(Diagnostics.choices(document.errors.map(\.name), empty: "it defines no error formats"))",
                at: error.location, pointer: error.pointer)
        }
        return IRHTTPMethod(
            verb: binding.method.value, server: binding.server.value,
            pathSegments: pathSegments(binding.path, diagnostics: &diagnostics),
            pathLocation: binding.path,
            body: binding.body.value, auth: binding.auth.value, response: binding.response.value,
            responseRoots: binding.responseRoots, errors: binding.errors.map(\.value), headers: binding.headers
        )
    }

    private func pathSegments(_ path: Located<String>, diagnostics: inout Diagnostics) -> [IRPathSegment] {
        var segments: [IRPathSegment] = []
        var rest = Substring(path.value)
        func literal(_ text: Substring) {
            guard HTTPGrammar.isPathText(String(text)) else {
                return diagnostics.error(
                    "\"path\" has \(SwiftLiteral.string(String(text))), which a URL path cannot carry as it is, expected letters, digits, -._~!$&'()*+,;=:@/ and %XX escapes (RFC 3986)",
                    at: path.location, pointer: path.pointer)
            }
            segments.append(.literal(String(text)))
        }
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { literal(rest[..<open]) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                diagnostics.error(
                    "\"path\" has an unclosed \"{\", expected {name} placeholders", at: path.location,
                    pointer: path.pointer)
                return segments
            }
            let name = String(rest[rest.index(after: open)..<close])
            segments.append(.parameter(swiftName: Naming.lowerCamel(name), wireName: name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { literal(rest) }
        return segments
    }

    // MARK: - HTTP fields

    private func checkFields(_ method: IRMethod, table: IRTypeTable, diagnostics: inout Diagnostics) {
        guard case .http(let binding) = method.binding else { return }
        let placeholders = method.binding.pathParameterNames
        var fieldObjects: [IRType] = []
        if let request = method.request {
            let resolved = table.namedType(.named(request))
            switch resolved?.kind {
            case .object?: fieldObjects = resolved.map { [$0] } ?? []
            case .union(let union)?: fieldObjects = union.variants.compactMap { table.namedType($0.type) }
            default:
                diagnostics.error(
                    "the request of an http method is \(table.describe(.named(request))), expected an object or a oneOf of objects",
                    at: table[request]?.sourceLocation)
            }
        }
        var pathProperties: Set<String> = []
        for object in fieldObjects {
            if binding.body != .json, let extra = object.extraMembers,
                table.resolved(extra) != .scalar(.string, sensitive: false)
            {
                diagnostics.error(
                    "the request keeps members beyond its properties (\"additionalProperties\") of \(table.describe(extra)), expected strings: they travel as query or form fields",
                    at: object.sourceLocation, pointer: object.provenance.pointer + "/additionalProperties")
            }
            for property in object.properties {
                let location = property.effectiveLocation(body: binding.body)
                switch (location, binding.body) {
                case (.body, .none):
                    diagnostics.error(
                        "the property \"\(property.wireName)\" travels in the body but the binding has no body, expected \"body\": \"form\" or \"json\", or another \"in\"",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                case (.path, _), (.query, _), (.header, _):
                    if binding.body == .json {
                        diagnostics.error(
                            "the property \"\(property.wireName)\" is \"in\": \"\(location.rawValue)\" in a JSON-body request, expected every field of a JSON request in the body",
                            at: property.sourceLocation, pointer: property.provenance.pointer)
                    }
                default: break
                }
                if location == .path {
                    pathProperties.insert(property.wireName)
                    if !property.isRequired || !table.isScalarLike(property.type) {
                        diagnostics.error(
                            "the path parameter \"\(property.wireName)\" is \(property.isRequired ? "not a scalar" : "optional"), expected a required scalar",
                            at: property.sourceLocation, pointer: property.provenance.pointer)
                    }
                    if !placeholders.contains(property.wireName) {
                        diagnostics.error(
                            "the property \"\(property.wireName)\" is \"in\": \"path\" but the path has no {\(property.wireName)}, expected the path to name it",
                            at: property.sourceLocation, pointer: property.provenance.pointer)
                    }
                }
                if location == .header, !HTTPGrammar.isToken(property.wireName) {
                    diagnostics.error(
                        "the property \(SwiftLiteral.string(property.wireName)) is \"in\": \"header\" but its name is not an RFC 9110 token, expected letters, digits and !#$%&'*+-.^_`|~",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
                if binding.body != .json, !property.isFieldValue(in: table) {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" is \(table.describe(property.type)), expected query, header and form fields to be scalars or arrays of scalars",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
            }
        }
        for name in placeholders where !pathProperties.contains(name) {
            diagnostics.error(
                "the path names {\(name)} but the request has no property \"\(name)\" with \"in\": \"path\", expected one",
                at: binding.pathLocation.location, pointer: binding.pathLocation.pointer)
        }
    }
}

extension IRMethodBinding {
    /// The `{name}` placeholders of an http path.
    var pathParameterNames: [String] {
        guard case .http(let binding) = self else { return [] }
        return binding.pathSegments.compactMap { segment in
            if case .parameter(_, let wire) = segment { return wire }
            return nil
        }
    }
}
