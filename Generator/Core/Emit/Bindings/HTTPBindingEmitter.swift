/// The `http` binding: each method is one HTTP request to a path under a named server, with query, header, form or
/// JSON fields, a credential, and a JSON or XML response; a non-2xx response is read as the first of the method's
/// error formats whose shape it has.
struct HTTPBindingEmitter: BindingEmitter {
    let family: IRFamily
    let settings: IRHTTPSettings

    var xmlPrimitives: XMLPrimitiveStyle { settings.xmlPrimitives }

    var configurationMembers: [ConfigurationMember] { [] }

    /// `HealthSignInCore.HTTPAPIClient`: a configuration of servers, options and header fields, and the core.
    var clientProtocol: String? { "HealthSignInCore.HTTPAPIClient" }

    /// `HealthSignInCore.HTTPServerSet`, with the servers at their defaults, the header fields of protocol.json and
    /// the family's name.
    func serversConformance(into p: inout SwiftPrinter) -> String? {
        p.doc("The servers at their protocol.json defaults.")
        let defaults = family.servers.map { server in
            "\(Emit.name(server.name)): "
                + (server.defaultURL.map { "Foundation.URL(string: \(SwiftLiteral.string($0)))" } ?? "nil")
        }
        p.call("public init() { self.init(", defaults, ") }")
        p.blank()
        p.doc("The header fields every request sends, from protocol.json.")
        p.call(
            "public static var defaultHeaders: HealthSignInCore.HTTPHeaderFields { ",
            [Emit.headersLiteral(settings.headers)],
            " }")
        p.doc("The family's name, as log records show it.")
        p.line("public static var family: Swift.String { \(SwiftLiteral.string(family.name)) }")
        return "HealthSignInCore.HTTPServerSet"
    }

    /// One `HTTPErrorFormat` per error format of protocol.json; the core comes with `HTTPAPIClient`.
    func clientSupport(into p: inout SwiftPrinter) {
        guard !family.errors.isEmpty else { return }
        p.doc("The error formats of protocol.json a method may answer with.")
        p.block("enum ErrorFormats") { p in
            for error in family.errors {
                let body = error.body.swiftType
                let recovery = Emit.name(Naming.lowerCamel(error.name) + "Recovery")
                let make =
                    error.recoveryOverrides.isEmpty
                    ? "\(error.swiftName).init(body:httpStatus:operation:)"
                    : "{ \(error.swiftName)(body: $0, httpStatus: $1, operation: $2, recovery: \(recovery)) }"
                let roots = error.root.map { "rootElements: [\(SwiftLiteral.string($0))], " } ?? ""
                let factory: String
                switch (error.json, error.xml && error.root != nil) {
                case (true, true): factory = "jsonOrXML(\(body).self, \(roots)\(make))"
                case (false, true): factory = "xml(\(body).self, \(roots)\(make))"
                default: factory = "json(\(body).self, \(make))"
                }
                p.line(
                    "static let \(Emit.name(Naming.lowerCamel(error.name))) = HealthSignInCore.HTTPErrorFormat.\(factory)"
                )
            }
            for error in family.errors where !error.recoveryOverrides.isEmpty { recoveryFunction(of: error, into: &p) }
        }
    }

    /// The recovery of each code of another family's error format where this family's protocol differs from it:
    /// the codes the family lists, and the other family's table for the rest.
    private func recoveryFunction(of error: IRErrorFormat, into p: inout SwiftPrinter) {
        guard let codeType = error.codeType else { return }
        p.blank()
        p.doc(
            "What a caller should do about each code of `\(error.swiftName)` in \(family.name), where it differs from the table of \(error.module ?? "its family"): \(error.documentation)"
        )
        let name = Emit.name(Naming.lowerCamel(error.name) + "Recovery")
        p.block("static func \(name)(_ code: \(codeType.name)) -> HealthSignInCore.ErrorRecovery") { p in
            p.switchBlock("code") { p in
                for code in error.recoveryOverrides {
                    let pattern: String
                    switch code.value {
                    case .integer(let number) where code.swiftName.isEmpty: pattern = ".unknown(\(number))"
                    case .string(let text) where code.swiftName.isEmpty:
                        pattern = ".unknown(\(SwiftLiteral.string(text)))"
                    default: pattern = "." + Emit.name(code.swiftName)
                    }
                    p.line("case \(pattern): return .\(code.recovery)")
                }
                p.line("default: return code.recovery")
            }
        }
    }

    func summary(of method: IRMethod) -> String {
        guard case .http(let binding) = method.binding else { return "" }
        let path = binding.pathSegments.map { segment -> String in
            switch segment {
            case .literal(let text): return text
            case .parameter(_, let wire): return "{\(wire)}"
            }
        }.joined()
        let body = binding.body == .none ? "" : ", \(binding.body.rawValue) body"
        return
            "`\(binding.verb.rawValue)` to the `\(binding.server)` server\(path.isEmpty ? "" : " at `\(path)`")\(body), auth \(binding.auth.rawValue)."
    }

    func credentialParameters(of method: IRMethod) -> [MethodParameter] {
        guard case .http(let binding) = method.binding else { return [] }
        switch binding.auth {
        case .none: return []
        case .basic:
            return [
                .init(label: "credentials", type: "HealthSignInCore.BasicCredentials", doc: "HTTP Basic credentials.")
            ]
        case .bearer: return [.init(label: "token", type: "HealthSignInCore.BearerToken", doc: "The access token.")]
        case .apiKey:
            return [.init(label: "apiKey", type: "HealthSignInCore.APIKey", doc: "The API key (keep it on servers).")]
        case .bearerOrApiKey:
            return [
                .init(
                    label: "credential", type: "HealthSignInCore.AccessCredential",
                    doc: "An access token, or an API key.")
            ]
        case .oauthClient:
            return [
                .init(
                    label: "client", type: "HealthSignInCore.OAuthClientCredentials",
                    doc: "The OAuth client and how it authenticates.")
            ]
        }
    }

    func errorSummary(of method: IRMethod) -> String {
        guard case .http(let binding) = method.binding else { return "" }
        if binding.response == .redirect {
            return "`ConfigurationError` for a missing server or a URL the URL policy refuses, `RequestEncodingError`."
        }
        // Another family's format is named in code voice: documentation links stay within a module.
        let formats = binding.errors.map { name in
            family.errors.first { $0.name == name }?.module.map { "`\($0).\(name)`" } ?? "``\(name)``"
        }
        let others = "`UnexpectedResponseError`, `ResponseDecodingError`, `ConfigurationError` or `TransportError`"
        return formats.isEmpty
            ? others + "." : formats.joined(separator: " or ") + " for an error response; otherwise \(others)."
    }

    func signatureTail(of method: IRMethod) -> String {
        guard case .http(let binding) = method.binding, binding.response == .redirect else {
            return ") async throws" + (method.response == nil ? "" : " -> \(method.name).Response")
        }
        return ") throws -> Foundation.URL"
    }

    func body(of method: IRMethod, into p: inout SwiftPrinter) {
        guard case .http(let binding) = method.binding else { return }
        let requestType = family.requestType(of: method)
        let mutates = method.request != nil || binding.auth != .none || binding.body == .form
        var arguments = [
            ".\(binding.verb.rawValue.lowercased())", "server: configuration.servers.\(Emit.name(binding.server))",
            "serverName: \(SwiftLiteral.string(binding.server))",
            "path: \(pathExpression(binding, requestType: requestType))",
        ]
        if !binding.headers.isEmpty { arguments.append("headers: " + Emit.headersLiteral(binding.headers)) }
        p.call("\(mutates ? "var" : "let") http = try core.request(", arguments, ")")
        if method.request != nil {
            // A request with nothing to choose (only constants, or no properties) is no parameter: its one value.
            let takesRequest = requestType.map { !$0.isFixed } ?? false
            let request = takesRequest ? "request" : "\(method.name).Request()"
            if binding.body == .json {
                p.line("try http.setJSONBody(\(request))")
            } else {
                p.line("\(method.name).apply(\(request), to: &http)")
            }
        } else if binding.body == .form {
            p.line("http.form = HealthSignInCore.FormFields()")
        }
        switch binding.auth {
        case .none: break
        case .basic: p.line("http.authorize(basic: credentials)")
        case .bearer: p.line("http.authorize(bearer: token)")
        case .apiKey:
            if let header = settings.apiKeyHeader {
                p.line("http.authorize(apiKey: apiKey, header: \(SwiftLiteral.string(header)))")
            }
        case .bearerOrApiKey:
            if let header = settings.apiKeyHeader {
                p.line("http.authorize(credential, apiKeyHeader: \(SwiftLiteral.string(header)))")
            }
        case .oauthClient: p.line("try http.authenticate(client: client)")
        }
        let errors =
            "[" + binding.errors.map { "ErrorFormats." + Emit.name(Naming.lowerCamel($0)) }.joined(separator: ", ")
            + "]"
        let operation = SwiftLiteral.string(method.name)
        if binding.response == .redirect {
            p.line("return try core.browserURL(http)")
            return
        }
        guard method.response != nil else {
            p.line("_ = try await core.send(http, operation: \(operation), errors: \(errors))")
            return
        }
        // The response type is the method's return type, which the call takes from its context.
        let roots = "rootElements: [" + binding.responseRoots.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        let sending = ["sending: http", "operation: \(operation)", "errors: \(errors)"]
        switch binding.response {
        case .json, .none, .redirect: p.call("return try await core.json(", sending, ")")
        case .xml: p.call("return try await core.xml(", [roots] + sending, ")")
        case .jsonOrXml: p.call("return try await core.jsonOrXML(", [roots] + sending, ")")
        }
    }

    private func pathExpression(_ binding: IRHTTPMethod, requestType: IRType?) -> String {
        let parts = binding.pathSegments.map { segment -> String in
            switch segment {
            case .literal(let text): return SwiftLiteral.string(text)
            case .parameter(_, let wire):
                let property = requestType?.properties.first { $0.wireName == wire }
                let value =
                    property.map {
                        Emit.wireText("request." + Emit.name($0.swiftName), $0.type, types: family.typeTable)
                    } ?? "\"\""
                return "HealthSignInCore.PercentEncoding.pathSegment(\(value))"
            }
        }
        return parts.isEmpty ? "\"\"" : parts.joined(separator: " + ")
    }

    // MARK: - Fields

    /// `static func apply(_:to:)`, which puts the request's query, header and form fields on the HTTP request.
    func methodSupport(of method: IRMethod, into p: inout SwiftPrinter) {
        guard case .http(let binding) = method.binding, binding.body != .json,
            let requestType = family.requestType(of: method)
        else { return }
        p.blank()
        p.block("extension \(method.name)") { p in
            p.doc("Adds the request's query, header and form fields to `http`.")
            p.block("static func apply(_ request: Request, to http: inout HealthSignInCore.HTTPRequestBuilder)") { p in
                if binding.body == .form { p.line("var form = HealthSignInCore.FormFields()") }
                switch requestType.kind {
                case .object(let properties):
                    fields(properties, of: "request", body: binding.body, into: &p)
                    extraFields(of: requestType, owner: "request", body: binding.body, into: &p)
                case .union(let union):
                    p.switchBlock("request") { p in
                        for variant in union.variants {
                            guard let object = family.typeTable.namedType(variant.type) else { continue }
                            p.line("case .\(Emit.name(variant.caseName))(let value):")
                            p.indented { p in
                                fields(object.properties, of: "value", body: binding.body, into: &p)
                                extraFields(of: object, owner: "value", body: binding.body, into: &p)
                            }
                        }
                    }
                default: break
                }
                if binding.body == .form { p.line("http.form = form") }
            }
        }
    }

    /// The members an object keeps beyond its properties, after them in the order of their names, where its body
    /// fields go (the form, or the query without one); a member named like a property is not sent twice.
    private func extraFields(of object: IRType, owner: String, body: HTTPBodyKind, into p: inout SwiftPrinter) {
        guard object.extraMembers != nil else { return }
        p.block("for (key, value) in \(owner).additionalProperties.sorted(by: { $0.key < $1.key })") { p in
            let target = body == .form ? "form" : "http.query"
            p.line("if !type(of: \(owner)).propertyNames.contains(key) { \(target).append(key, value) }")
        }
    }

    private func fields(_ properties: [IRProperty], of owner: String, body: HTTPBodyKind, into p: inout SwiftPrinter) {
        for property in properties {
            let location = property.effectiveLocation(body: body)
            let name = SwiftLiteral.string(property.wireName)
            let value: String
            switch property.storage {
            case .constant(let text): value = SwiftLiteral.string(text)
            default: value = "\(owner).\(Emit.name(property.swiftName))"
            }
            // A field the schema marks sensitive is marked so on the wire too, so no description of the request,
            // its headers or its fields prints it, whatever the field is called.
            let sensitive = RedactionEmitter(types: family.typeTable).isRedacted(property.type)
            switch location {
            case .path: continue
            case .query, .body:
                let target = location == .query ? "http.query" : "form"
                let marker = sensitive ? ", sensitive: true" : ""
                if property.isArray {
                    p.line("\(target).append(\(name), each: \(value)\(marker))")
                } else {
                    p.line("\(target).append(\(name), \(value)\(marker))")
                }
            case .header:
                let set = { (text: String) in
                    sensitive ? "http.headers.setSensitive(\(name), \(text))" : "http.headers[\(name)] = \(text)"
                }
                if property.isOptional {
                    p.line(
                        "if let header = \(value) { \(set(Emit.wireText("header", property.type, types: family.typeTable))) }"
                    )
                } else {
                    p.line(
                        set(property.isStored ? Emit.wireText(value, property.type, types: family.typeTable) : value))
                }
            }
        }
    }
}
