/// Emits a method's namespace, its client method, its field encoding and its paging.
struct MethodEmitter {
    let family: IRFamily
    let method: IRMethod

    /// The namespace enum, `public enum GetAuthorizedPeople { … }` with the method's documentation, holding its
    /// request, response and other types.
    func namespace(declarations: DeclarationEmitter, into p: inout SwiftPrinter) {
        p.doc(method.documentation, remarks: [bindingSummary, Emit.remark(method.provenance)])
        p.block("public enum \(method.name)") { p in
            for type in method.namespaceTypes { declarations.emit(type, into: &p) }
        }
    }

    private var bindingSummary: String {
        switch method.binding {
        case .healthvault(let binding):
            let auth: String
            switch binding.auth {
            case .appId: auth = "anonymous, identified by an application id"
            case .castSignature: auth = "anonymous, signed with the application shared secret"
            case .session: auth = "signed with a session"
            }
            return "HealthVault method `\(binding.method)` version \(binding.version), \(auth)\(binding.recordScoped ? ", for one record" : "")."
        case .http(let binding):
            let path = binding.pathSegments.map { segment -> String in
                switch segment {
                case .literal(let text): return text
                case .parameter(_, let wire): return "{\(wire)}"
                }
            }.joined()
            let body = binding.body == .none ? "" : ", \(binding.body.rawValue) body"
            return "`\(binding.verb.rawValue)` to the `\(binding.server)` server\(path.isEmpty ? "" : " at `\(path)`")\(body), auth \(binding.auth.rawValue)."
        }
    }

    // MARK: - Client method

    private var requestType: IRType? { method.request.flatMap { IRTypeRef.named($0).namedType } }

    /// Whether the client method takes the request as a parameter (not when every field is fixed).
    private var takesRequest: Bool {
        guard let requestType else { return false }
        return !requestType.isFixed
    }

    private var credentialParameters: [(label: String, type: String, doc: String)] {
        switch method.binding {
        case .healthvault(let binding):
            var parameters: [(String, String, String)] = []
            if binding.recordScoped { parameters.append(("recordID", "Foundation.UUID", "The record the method acts on.")) }
            switch binding.auth {
            case .appId: parameters.append(("applicationID", "Foundation.UUID", "The application id for the header (the master application for provisioning calls)."))
            case .castSignature: parameters.append(("application", "SDKRuntime.HealthVaultApplicationCredential", "The application instance's id and shared secret, which sign the request."))
            case .session: parameters.append(("session", "SDKRuntime.HealthVaultSessionCredential", "The session that signs the request."))
            }
            return parameters
        case .http(let binding):
            switch binding.auth {
            case .none: return []
            case .basic: return [("credentials", "SDKRuntime.BasicCredentials", "HTTP Basic credentials.")]
            case .bearer: return [("token", "SDKRuntime.BearerToken", "The access token.")]
            case .apiKey: return [("apiKey", "SDKRuntime.APIKey", "The API key (keep it on servers).")]
            case .bearerOrApiKey: return [("credential", "SDKRuntime.AccessCredential", "An access token, or an API key.")]
            case .oauthClient: return [("client", "SDKRuntime.OAuthClientCredentials", "The OAuth client and how it authenticates.")]
            }
        }
    }

    private var returnType: String? { method.response == nil ? nil : "\(method.name).Response" }

    /// The `async throws` method on the family's client.
    ///
    /// ```swift
    /// extension HealthVaultClient {
    ///     public func getAuthorizedPeople(
    ///         _ request: GetAuthorizedPeople.Request = .init(),
    ///         session: SDKRuntime.HealthVaultSessionCredential
    ///     ) async throws -> GetAuthorizedPeople.Response { … }
    /// }
    /// ```
    func clientMethod(into p: inout SwiftPrinter) {
        var parameters: [String] = []
        var docs: [String] = []
        if takesRequest, let requestType {
            parameters.append("_ request: \(method.name).Request" + (requestType.hasEmptyInitializer ? " = .init()" : ""))
            docs.append("  - request: The request.")
        }
        for parameter in credentialParameters {
            parameters.append("\(parameter.label): \(parameter.type)")
            docs.append("  - \(parameter.label): \(parameter.doc)")
        }
        var remarks: [String] = [bindingSummary]
        if !docs.isEmpty { remarks.append("- Parameters:\n" + docs.joined(separator: "\n")) }
        remarks.append("- Throws: \(errorSummary)")
        remarks.append(Emit.remark(method.provenance))
        p.block("extension \(family.clientName)") { p in
            p.doc(method.documentation, remarks: remarks)
            let tail = ") async throws" + (returnType.map { " -> \($0)" } ?? "")
            p.listBlock("public func \(Emit.name(method.clientMethodName))(", parameters, tail) { p in body(into: &p) }
        }
    }

    private var errorSummary: String {
        switch method.binding {
        case .healthvault:
            if case .healthvault(let settings) = family.binding {
                return "``\(settings.statusError)`` for a non-zero status; otherwise `UnexpectedResponseError`, `ResponseDecodingError` or `TransportError`."
            }
            return "The family's status error."
        case .http(let binding):
            let formats = binding.errors.map { "``\($0)``" }
            let others = "`UnexpectedResponseError`, `ResponseDecodingError`, `ConfigurationError` or `TransportError`"
            return formats.isEmpty ? others + "." : formats.joined(separator: " or ") + " for an error response; otherwise \(others)."
        }
    }

    private func body(into p: inout SwiftPrinter) {
        if takesRequest, let requestType, ValidationEmitter.needsValidation(requestType) {
            p.line("try request.validate()")
        }
        switch method.binding {
        case .healthvault(let binding): healthVaultBody(binding, into: &p)
        case .http(let binding): httpBody(binding, into: &p)
        }
    }

    private func healthVaultBody(_ binding: IRHealthVaultMethod, into p: inout SwiftPrinter) {
        p.line("let now = configuration.clock.now()")
        let context: String
        let auth: String
        switch binding.auth {
        case .appId:
            context = ".empty"
            auth = ".applicationID(applicationID)"
        case .castSignature:
            p.line("let context = try application.castSignatureContext(signingTime: now)")
            context = "context"
            auth = ".applicationID(application.applicationID)"
        case .session:
            context = ".empty"
            auth = ".session(session)"
        }
        if let requestType {
            let value = requestType.isFixed ? "\(method.name).Request()" : "request"
            p.line("let info = try Self.info(\(value), context: \(context))")
        } else {
            p.line("let info = Self.emptyInfo()")
        }
        let call = "try await send(method: \(SwiftLiteral.string(binding.method)), version: \(binding.version), \(binding.recordScoped ? "recordID: recordID, " : "")auth: \(auth), messageTime: now, info: info\(binding.idempotent ? ", idempotent: true" : ""))"
        if returnType != nil {
            p.line("let response = \(call)")
            p.line("return try \(method.name).Response(xml: response.info(namespace: \(SwiftLiteral.string(binding.responseNamespace))))")
        } else {
            p.line("_ = \(call)")
        }
    }

    private func httpBody(_ binding: IRHTTPMethod, into p: inout SwiftPrinter) {
        let path = pathExpression(binding)
        let headers: String = binding.headers.isEmpty ? "" : ", headers: " + Emit.headersLiteral(binding.headers)
        let verb: String = binding.verb.rawValue.lowercased()
        let mutates: Bool = method.request != nil || binding.auth != .none || binding.body == .form
        let introducer: String = mutates ? "var" : "let"
        p.line("\(introducer) http = try makeRequest(.\(verb), server: configuration.servers.\(Emit.name(binding.server)), serverName: \(SwiftLiteral.string(binding.server)), path: \(path)\(headers))")
        if method.request != nil {
            if binding.body == .json {
                p.line("try http.setJSONBody(request)")
            } else if takesRequest {
                p.line("\(method.name).apply(request, to: &http)")
            } else {
                p.line("\(method.name).apply(\(method.name).Request(), to: &http)")
            }
        } else if binding.body == .form {
            p.line("http.form = SDKRuntime.FormFields()")
        }
        switch binding.auth {
        case .none: break
        case .basic: p.line("http.authorize(basic: credentials)")
        case .bearer: p.line("http.authorize(bearer: token)")
        case .apiKey:
            if case .http(let settings) = family.binding, let header = settings.apiKeyHeader {
                p.line("http.authorize(apiKey: apiKey, header: \(SwiftLiteral.string(header)))")
            }
        case .bearerOrApiKey:
            if case .http(let settings) = family.binding, let header = settings.apiKeyHeader {
                p.line("http.authorize(credential, apiKeyHeader: \(SwiftLiteral.string(header)))")
            }
        case .oauthClient: p.line("http.authenticate(client: client)")
        }
        let errors = "[" + binding.errors.map { "." + Emit.name(Naming.lowerCamel($0)) }.joined(separator: ", ") + "]"
        let operation = SwiftLiteral.string(method.name)
        let send = "try await send(http, operation: \(operation), errors: \(errors))"
        guard let returnType else {
            p.line("_ = \(send)")
            return
        }
        p.line("let response = \(send)")
        switch binding.response {
        case .json, .none:
            p.line("return try SDKRuntime.HTTPResponseBody.json(\(returnType).self, from: response, operation: \(operation))")
        case .xml:
            p.line("return try SDKRuntime.HTTPResponseBody.xml(\(returnType).self, from: response, \(Self.rootElements(binding)))")
        case .jsonOrXml:
            p.line("return try SDKRuntime.HTTPResponseBody.jsonOrXML(\(returnType).self, from: response, \(Self.rootElements(binding)), operation: \(operation))")
        }
    }

    private func pathExpression(_ binding: IRHTTPMethod) -> String {
        let parts = binding.pathSegments.map { segment -> String in
            switch segment {
            case .literal(let text): return SwiftLiteral.string(text)
            case .parameter(_, let wire):
                let property = requestType?.properties.first { $0.wireName == wire }
                let value = property.map { Emit.wireText("request." + Emit.name($0.swiftName), $0.type) } ?? "\"\""
                return "SDKRuntime.PercentEncoding.pathSegment(\(value))"
            }
        }
        return parts.isEmpty ? "\"\"" : parts.joined(separator: " + ")
    }

    // MARK: - Fields

    /// `static func apply(_:to:)`, which puts the request's query, header and form fields on the HTTP request.
    func fieldEncoding(into p: inout SwiftPrinter) {
        guard case .http(let binding) = method.binding, binding.body != .json, let requestType else { return }
        p.blank()
        p.block("extension \(method.name)") { p in
            p.doc("Adds the request's query, header and form fields to `http`.")
            p.block("static func apply(_ request: Request, to http: inout SDKRuntime.HTTPRequestBuilder)") { p in
                if binding.body == .form { p.line("var form = SDKRuntime.FormFields()") }
                switch requestType.kind {
                case .object(let properties):
                    fields(properties, of: "request", body: binding.body, into: &p)
                case .union(let union):
                    p.switchBlock("request") { p in
                        for variant in union.variants {
                            guard let object = variant.type.namedType else { continue }
                            p.line("case .\(Emit.name(variant.caseName))(let value):")
                            var inner = SwiftPrinter()
                            fields(object.properties, of: "value", body: binding.body, into: &inner)
                            for line in inner.lines { p.line("    " + line) }
                        }
                    }
                default: break
                }
                if binding.body == .form { p.line("http.form = form") }
            }
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
            let sensitive = RedactionEmitter.isRedacted(property.type)
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
                let set = { (text: String) in sensitive ? "http.headers.setSensitive(\(name), \(text))" : "http.headers[\(name)] = \(text)" }
                if property.isOptional {
                    p.line("if let header = \(value) { \(set(Emit.wireText("header", property.type))) }")
                } else {
                    p.line(set(property.isStored ? Emit.wireText(value, property.type) : value))
                }
            }
        }
    }

    /// The argument naming the names the XML document element may have, e.g. `rootElements: ["A", "B"]`.
    private static func rootElements(_ binding: IRHTTPMethod) -> String {
        "rootElements: [" + binding.responseRoots.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    // MARK: - Paging

    /// `nextPageRequest(after:for:)` and the client's `…Pages` method.
    func paging(into p: inout SwiftPrinter) {
        guard let paging = method.paging, let requestType, let returnType else { return }
        p.blank()
        p.block("extension \(method.name)") { p in
            p.doc("The request for the page after `response`, or nil when `response` is the last page.\n\nThe cursor is the last item's value, so an empty page ends the sequence too.")
            p.block("public static func nextPageRequest(after response: Response, for request: Request) -> Request?") { p in
                if let more = paging.morePath {
                    let chain = MemberChain.expression(more, from: "response")
                    let condition: String = chain.isOptional ? chain.expression + " == true" : chain.expression
                    p.line("guard \(condition) else { return nil }")
                }
                let items = MemberChain.expression(paging.itemsPath, from: "response")
                let last = items.expression + (items.isOptional ? "?" : "") + ".last"
                let cursor = MemberChain.expression(paging.itemCursorPath, from: last, rootIsOptional: true)
                p.line("guard let cursor = \(cursor.expression) else { return nil }")
                p.line("return \(rebuild(requestType, steps: paging.cursorPath, from: "request"))")
            }
        }
        p.blank()
        p.block("extension \(family.clientName)") { p in
            var parameters: [String] = []
            var arguments: [String] = ["$0"]
            parameters.append("_ request: \(method.name).Request" + (requestType.hasEmptyInitializer ? " = .init()" : ""))
            for parameter in credentialParameters {
                parameters.append("\(parameter.label): \(parameter.type)")
                arguments.append("\(parameter.label): \(parameter.label)")
            }
            let selector: String = Self.selector(method.clientMethodName, parameters: parameters)
            p.doc("Every page of ``\(selector)``, fetched as the sequence is iterated.", remarks: [
                "Each page is requested once; iteration stops after the last page, at an empty page, or with `PagingError.repeatedCursor` if the server repeats a cursor.",
                Emit.remark(method.provenance),
            ])
            p.listBlock("public func \(method.clientMethodName)Pages(", parameters, ") -> SDKRuntime.PageSequence<\(method.name).Request, \(returnType)>") { p in
                p.line("SDKRuntime.PageSequence(")
                p.line("    first: request,")
                p.line("    fetch: { try await self.\(Emit.name(method.clientMethodName))(\(arguments.joined(separator: ", "))) },")
                p.line("    next: { request, page in \(method.name).nextPageRequest(after: page, for: request) }")
                p.line(")")
            }
        }
    }

    /// The DocC symbol of a method, `name(_:session:)`, from its parameter declarations.
    private static func selector(_ name: String, parameters: [String]) -> String {
        let labels: [String] = parameters.map { (parameter: String) -> String in
            let label: Substring = parameter.prefix { $0 != ":" && $0 != " " }
            return label + ":"
        }
        return name + "(" + labels.joined() + ")"
    }

    /// `Request(parameters: .init(personIDCursor: cursor, numResults: request.parameters.numResults))`
    private func rebuild(_ type: IRType, steps: [IRPathStep], from base: String) -> String {
        guard case .property(let target)? = steps.first else { return base }
        let arguments = type.storedProperties.map { property -> String in
            let label = Emit.name(property.swiftName)
            guard property.swiftName == target.swiftName else { return "\(label): \(base).\(label)" }
            if steps.count == 1 { return "\(label): cursor" }
            guard let nested = property.type.namedType else { return "\(label): \(base).\(label)" }
            return "\(label): " + rebuild(nested, steps: Array(steps.dropFirst()), from: "\(base).\(label)")
        }
        return "\(type.qualifiedName)(\(arguments.joined(separator: ", ")))"
    }
}
