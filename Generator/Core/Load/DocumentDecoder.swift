/// Turns parsed JSON into typed schema documents, checking every keyword's spelling and JSON type.
///
/// This is the meta-schema (`Schemas/method.schema.json`, `Schemas/protocol.schema.json`) applied in Swift: the
/// keywords accepted here are exactly the ones the meta-schemas define, which a test keeps in sync.
struct DocumentDecoder {
    var diagnostics = Diagnostics()
    /// Every `$ref` to another family's file read so far, in order.
    var references: [Located<String>] = []

    // MARK: Methods

    mutating func method(_ root: JSONNode, file: SchemaFile) -> MethodDocument? {
        guard
            let reader = ObjectReader(
                root, what: "a method file", keywords: SchemaKeywords.method, diagnostics: &diagnostics)
        else { return nil }
        _ = reader.string("$schema", diagnostics: &diagnostics)
        let name = reader.nonEmptyString("name", required: true, diagnostics: &diagnostics)
        let description = reader.nonEmptyString("description", required: true, diagnostics: &diagnostics)
        var binding: MethodBinding?
        if let node = reader.value("binding") {
            binding = methodBinding(node)
        } else {
            reader.missing(
                "binding", "a method to say how it travels (\"healthvault\" or \"http\")", diagnostics: &diagnostics)
        }
        let request = reader.value("request").flatMap { schema($0) }
        let response = reader.value("response").flatMap { schema($0) }
        let paging = reader.value("paging").flatMap { pagingNode($0) }
        let defs = reader.value("$defs").map { definitions($0) } ?? []
        reader.finish(&diagnostics)
        guard let name, let description, let binding else { return nil }
        return MethodDocument(
            file: file, root: root, name: name, description: description.value, binding: binding,
            request: request, response: response, paging: paging, defs: defs
        )
    }

    private mutating func methodBinding(_ node: JSONNode) -> MethodBinding? {
        guard
            let reader = ObjectReader(
                node, what: "\"binding\"", keywords: SchemaKeywords.binding, diagnostics: &diagnostics)
        else { return nil }
        let healthvault = reader.value("healthvault")
        let http = reader.value("http")
        reader.finish(&diagnostics)
        switch (healthvault, http) {
        case (let node?, nil): return healthVaultBinding(node).map(MethodBinding.healthvault)
        case (nil, let node?): return httpBinding(node).map(MethodBinding.http)
        case (_?, _?):
            diagnostics.error(
                "\"binding\" has both \"healthvault\" and \"http\", expected exactly one binding kind",
                at: node.location, pointer: node.pointer)
            return nil
        case (nil, nil):
            if node.members?.isEmpty == true {
                diagnostics.error(
                    "\"binding\" is empty, expected exactly one binding kind (\"healthvault\" or \"http\")",
                    at: node.location, pointer: node.pointer)
            }
            return nil
        }
    }

    private mutating func healthVaultBinding(_ node: JSONNode) -> HealthVaultMethodBinding? {
        guard
            let reader = ObjectReader(
                node, what: "the healthvault binding", keywords: SchemaKeywords.healthvaultBinding,
                diagnostics: &diagnostics)
        else { return nil }
        let method = reader.nonEmptyString("method", required: true, diagnostics: &diagnostics)
        let version = reader.integer("version", required: true, minimum: 1, diagnostics: &diagnostics)
        let auth = reader.choice("auth", HealthVaultAuth.self, required: true, diagnostics: &diagnostics)
        let namespace = reader.nonEmptyString("responseNamespace", required: true, diagnostics: &diagnostics)
        let recordScoped = reader.bool("recordScoped", diagnostics: &diagnostics)
        let idempotent = reader.bool("idempotent", diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        guard let method, let version, let auth, let namespace else { return nil }
        return HealthVaultMethodBinding(
            location: node.location, pointer: node.pointer, method: method.value, version: version.value, auth: auth,
            responseNamespace: namespace.value, recordScoped: recordScoped?.value ?? false, idempotent: idempotent
        )
    }

    private mutating func httpBinding(_ node: JSONNode) -> HTTPMethodBinding? {
        guard
            let reader = ObjectReader(
                node, what: "the http binding", keywords: SchemaKeywords.httpBinding, diagnostics: &diagnostics)
        else { return nil }
        let method = reader.choice("method", HTTPVerb.self, required: true, diagnostics: &diagnostics)
        let server = reader.nonEmptyString("server", required: true, diagnostics: &diagnostics)
        let path =
            reader.string("path", diagnostics: &diagnostics)
            ?? Located(value: "", location: node.location, pointer: node.pointer + "/path")
        let body =
            reader.choice("body", HTTPBodyKind.self, diagnostics: &diagnostics)
            ?? Located(value: .none, location: node.location, pointer: node.pointer + "/body")
        let auth = reader.choice("auth", HTTPAuth.self, required: true, diagnostics: &diagnostics)
        let response =
            reader.choice("response", HTTPResponseKind.self, diagnostics: &diagnostics)
            ?? Located(value: .json, location: node.location, pointer: node.pointer + "/response")
        // One document element name, or several a server may answer with.
        let responseRoots =
            reader.value("responseRoot")?.elements != nil
            ? reader.strings("responseRoot", diagnostics: &diagnostics)?.map(\.value)
            : reader.nonEmptyString("responseRoot", diagnostics: &diagnostics).map { [$0.value] }
        let errors = reader.strings("errors", diagnostics: &diagnostics) ?? []
        let headers = reader.stringMap("headers", diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        guard let method, let server, let auth else { return nil }
        return HTTPMethodBinding(
            location: node.location, pointer: node.pointer, method: method, server: server, path: path, body: body,
            auth: auth, response: response, responseRoots: responseRoots ?? [], errors: errors, headers: headers
        )
    }

    private mutating func pagingNode(_ node: JSONNode) -> PagingNode? {
        guard
            let reader = ObjectReader(
                node, what: "\"paging\"", keywords: SchemaKeywords.paging, diagnostics: &diagnostics)
        else { return nil }
        let cursor = reader.string("cursor", required: true, diagnostics: &diagnostics)
        let items = reader.string("items", required: true, diagnostics: &diagnostics)
        let itemCursor = reader.string("itemCursor", required: true, diagnostics: &diagnostics)
        let more = reader.string("more", diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        guard let cursor, let items, let itemCursor else { return nil }
        return PagingNode(location: node.location, cursor: cursor, items: items, itemCursor: itemCursor, more: more)
    }

    // MARK: Types

    mutating func types(_ root: JSONNode, file: SchemaFile) -> TypesDocument? {
        guard
            let reader = ObjectReader(
                root, what: "types.json", keywords: SchemaKeywords.typesFile, diagnostics: &diagnostics)
        else { return nil }
        _ = reader.string("$schema", diagnostics: &diagnostics)
        _ = reader.string("description", diagnostics: &diagnostics)
        guard let defsNode = reader.value("$defs") else {
            reader.missing("$defs", "types.json to define its types in \"$defs\"", diagnostics: &diagnostics)
            reader.finish(&diagnostics)
            return nil
        }
        let defs = definitions(defsNode)
        reader.finish(&diagnostics)
        return TypesDocument(file: file, defs: defs)
    }

    private mutating func definitions(_ node: JSONNode) -> [NamedSchema] {
        guard let members = node.members else {
            diagnostics.error(
                "\"$defs\" is \(ObjectReader.article(node.kindName)), expected an object of named types",
                at: node.location, pointer: node.pointer)
            return []
        }
        return members.compactMap { member in
            schema(member.value).map { NamedSchema(name: member.key, keyLocation: member.keyLocation, schema: $0) }
        }
    }

    // MARK: Type schemas

    /// `{"type": "null"}`, alone or with a description.
    private static func isNullSchema(_ node: JSONNode) -> Bool {
        guard let members = node.members, node["type"]?.stringValue == "null" else { return false }
        return members.allSatisfy { $0.key == "type" || $0.key == "description" }
    }

    /// The type of `"type": ["<type>", "null"]`.
    private mutating func nullableType(_ elements: [JSONNode], in node: JSONNode) -> Located<SchemaType>? {
        let others = elements.filter { $0.stringValue != "null" }
        guard elements.count == 2, others.count == 1, let other = others.first, let text = other.stringValue,
            let type = SchemaType(rawValue: text)
        else {
            let allowed = SchemaType.allCases.map(\.rawValue).joined(separator: ", ")
            diagnostics.error(
                "\"type\" is an array, expected one type and \"null\", such as [\"string\", \"null\"] (types: \(allowed))",
                at: node.location, pointer: node.pointer
            )
            return nil
        }
        return Located(value: type, location: other.location, pointer: other.pointer)
    }

    mutating func schema(_ node: JSONNode) -> SchemaNode? {
        guard
            let reader = ObjectReader(
                node, what: "a schema", keywords: SchemaKeywords.schema, diagnostics: &diagnostics)
        else { return nil }
        let ref = reader.nonEmptyString("$ref", diagnostics: &diagnostics)
        if let ref, ref.value.hasPrefix("../") { references.append(ref) }
        var nullable = false
        let type: Located<SchemaType>?
        if let typeNode = reader.value("type"), let elements = typeNode.elements {
            type = nullableType(elements, in: typeNode)
            nullable = true
        } else {
            type = reader.choice("type", SchemaType.self, diagnostics: &diagnostics)
        }
        let format = reader.choice("format", SchemaFormat.self, diagnostics: &diagnostics)
        let contentEncoding = reader.choice("contentEncoding", ContentEncoding.self, diagnostics: &diagnostics)
        var constraints = ConstraintsNode()
        constraints.minimum = reader.number("minimum", diagnostics: &diagnostics)
        constraints.maximum = reader.number("maximum", diagnostics: &diagnostics)
        constraints.exclusiveMinimum = reader.number("exclusiveMinimum", diagnostics: &diagnostics)
        constraints.exclusiveMaximum = reader.number("exclusiveMaximum", diagnostics: &diagnostics)
        constraints.multipleOf = reader.number("multipleOf", diagnostics: &diagnostics)
        if let divisor = constraints.multipleOf, !(divisor.value.value > 0) {
            diagnostics.error(
                "\"multipleOf\" is \(divisor.value.literal), expected a number greater than 0",
                at: divisor.location, pointer: divisor.pointer)
            constraints.multipleOf = nil
        }
        constraints.uniqueItems = reader.bool("uniqueItems", diagnostics: &diagnostics)
        constraints.minLength = reader.integer("minLength", minimum: 0, diagnostics: &diagnostics)
        constraints.maxLength = reader.integer("maxLength", minimum: 0, diagnostics: &diagnostics)
        constraints.minItems = reader.integer("minItems", minimum: 0, diagnostics: &diagnostics)
        constraints.maxItems = reader.integer("maxItems", minimum: 0, diagnostics: &diagnostics)
        constraints.pattern = reader.string("pattern", diagnostics: &diagnostics)
        let description = reader.string("description", diagnostics: &diagnostics)
        var properties: [PropertyNode] = []
        let propertiesNode = reader.value("properties")
        if let propertiesNode {
            if let members = propertiesNode.members {
                for member in members {
                    if let schema = schema(member.value) {
                        properties.append(
                            PropertyNode(name: member.key, keyLocation: member.keyLocation, schema: schema))
                    }
                }
            } else {
                diagnostics.error(
                    "\"properties\" is \(ObjectReader.article(propertiesNode.kindName)), expected an object of property schemas",
                    at: propertiesNode.location, pointer: propertiesNode.pointer)
            }
        }
        let required = reader.strings("required", diagnostics: &diagnostics) ?? []
        let items = reader.value("items").flatMap { schema($0) }
        let enumValues = reader.strings("enum", diagnostics: &diagnostics)
        if let enumValues, enumValues.isEmpty, let node = node["enum"] {
            diagnostics.error(
                "\"enum\" is empty, expected at least one value", at: node.location, pointer: node.pointer)
        }
        let constValue = reader.string("const", diagnostics: &diagnostics)
        let alsoAccepts = reader.strings("alsoAccepts", diagnostics: &diagnostics) ?? []
        if let first = alsoAccepts.first, constValue == nil {
            diagnostics.error(
                "\"alsoAccepts\" without \"const\", expected it only beside a constant", at: first.location,
                pointer: first.pointer)
        }
        for value in alsoAccepts where value.value == constValue?.value {
            diagnostics.error(
                "\"alsoAccepts\" repeats the constant \"\(value.value)\", expected other values", at: value.location,
                pointer: value.pointer)
        }
        let defaultValue = reader.value("default")
        var oneOf: [SchemaNode]?
        if let oneOfNode = reader.value("oneOf") {
            // A `{"type": "null"}` variant makes the value nullable rather than adding a case.
            let nulls = oneOfNode.elements?.filter(Self.isNullSchema) ?? []
            if !nulls.isEmpty { nullable = true }
            if let elements = oneOfNode.elements?.filter({ !Self.isNullSchema($0) }),
                elements.count >= (nulls.isEmpty ? 2 : 1)
            {
                oneOf = elements.compactMap { schema($0) }
            } else {
                diagnostics.error(
                    "\"oneOf\" is \(oneOfNode.elements.map { "an array of \($0.count)" } ?? ObjectReader.article(oneOfNode.kindName)), expected an array of at least two schemas",
                    at: oneOfNode.location, pointer: oneOfNode.pointer)
            }
        }
        var allOf: [SchemaNode]?
        if let allOfNode = reader.value("allOf") {
            if let elements = allOfNode.elements, !elements.isEmpty {
                allOf = elements.compactMap { schema($0) }
            } else {
                diagnostics.error(
                    "\"allOf\" is \(ObjectReader.article(allOfNode.kindName)), expected a non-empty array of object schemas",
                    at: allOfNode.location, pointer: allOfNode.pointer)
            }
        }
        var additionalProperties: SchemaNode?
        var forbidsAdditionalProperties = false
        if let extraNode = reader.value("additionalProperties") {
            switch extraNode.value {
            case .bool(true): additionalProperties = SchemaNode.anyValue(at: extraNode)
            case .bool(false): forbidsAdditionalProperties = true
            case .object: additionalProperties = schema(extraNode)
            default:
                diagnostics.error(
                    "\"additionalProperties\" is \(ObjectReader.article(extraNode.kindName)), expected a schema or a boolean",
                    at: extraNode.location, pointer: extraNode.pointer)
            }
        }
        let discriminator = reader.value("discriminator").flatMap { discriminatorNode($0) }
        let xml = reader.value("xml").flatMap { xmlOptions($0) }
        let sensitive = reader.bool("sensitive", diagnostics: &diagnostics)
        let bind = reader.choice("bind", BindName.self, diagnostics: &diagnostics)
        let signs = reader.nonEmptyString("signs", diagnostics: &diagnostics)
        let parameterLocation = reader.choice("in", ParameterLocation.self, diagnostics: &diagnostics)
        let aliases = reader.strings("aliases", diagnostics: &diagnostics)?.map(\.value) ?? []
        let acceptSingle = reader.bool("acceptSingle", diagnostics: &diagnostics)
        let acceptString = reader.bool("acceptString", diagnostics: &diagnostics)
        let swiftName = reader.nonEmptyString("x-swift-name", diagnostics: &diagnostics)
        if let swiftName, !Naming.isIdentifier(swiftName.value) {
            diagnostics.error(
                "\"x-swift-name\" is \"\(swiftName.value)\", expected a Swift identifier (letters, digits and _, not starting with a digit)",
                at: swiftName.location, pointer: swiftName.pointer)
        }
        reader.finish(&diagnostics)
        return SchemaNode(
            location: node.location, pointer: node.pointer, ref: ref, type: type, format: format,
            contentEncoding: contentEncoding, nullable: nullable, constraints: constraints,
            description: description?.value, hasProperties: propertiesNode?.members != nil, properties: properties,
            required: required, items: items, enumValues: enumValues, constValue: constValue,
            defaultValue: defaultValue, oneOf: oneOf, allOf: allOf, additionalProperties: additionalProperties,
            discriminator: discriminator, xml: xml, sensitive: sensitive,
            bind: bind, signs: signs, parameterLocation: parameterLocation, aliases: aliases,
            acceptSingle: acceptSingle, acceptString: acceptString, swiftName: swiftName, alsoAccepts: alsoAccepts,
            forbidsAdditionalProperties: forbidsAdditionalProperties
        )
    }

    private mutating func discriminatorNode(_ node: JSONNode) -> Located<String>? {
        guard
            let reader = ObjectReader(
                node, what: "\"discriminator\"", keywords: SchemaKeywords.discriminator, diagnostics: &diagnostics)
        else { return nil }
        let name = reader.nonEmptyString("propertyName", required: true, diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        return name
    }

    private mutating func xmlOptions(_ node: JSONNode) -> XMLOptionsNode? {
        guard let reader = ObjectReader(node, what: "\"xml\"", keywords: SchemaKeywords.xml, diagnostics: &diagnostics)
        else { return nil }
        let name = reader.nonEmptyString("name", diagnostics: &diagnostics)
        let namespace = reader.string("namespace", diagnostics: &diagnostics)
        let prefix = reader.string("prefix", diagnostics: &diagnostics)
        let nodeType = reader.choice("nodeType", XMLNodeKind.self, diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        return XMLOptionsNode(
            location: node.location, name: name?.value, namespace: namespace?.value, prefix: prefix?.value,
            nodeType: nodeType)
    }

    // MARK: Protocol

    mutating func protocolDocument(_ root: JSONNode, file: SchemaFile) -> ProtocolDocument? {
        guard
            let reader = ObjectReader(
                root, what: "protocol.json", keywords: SchemaKeywords.protocolFile, diagnostics: &diagnostics)
        else { return nil }
        _ = reader.string("$schema", diagnostics: &diagnostics)
        let family = reader.nonEmptyString("family", required: true, diagnostics: &diagnostics)
        let module = reader.nonEmptyString("module", diagnostics: &diagnostics)
        let description = reader.nonEmptyString("description", required: true, diagnostics: &diagnostics)
        var binding: FamilyBinding?
        if let node = reader.value("binding") {
            binding = familyBinding(node)
        } else {
            reader.missing(
                "binding", "protocol.json to name its binding kind (\"healthvault\" or \"http\")",
                diagnostics: &diagnostics)
        }
        var servers: [ServerNode] = []
        if let node = reader.value("servers") {
            servers = serverNodes(node)
        } else {
            reader.missing("servers", "protocol.json to name at least one server", diagnostics: &diagnostics)
        }
        let errors = reader.value("errors").map { errorFormats($0) } ?? []
        reader.finish(&diagnostics)
        guard let family, let description, let binding else { return nil }
        return ProtocolDocument(
            file: file, family: family, module: module, description: description.value, binding: binding,
            servers: servers,
            errors: errors)
    }

    private mutating func familyBinding(_ node: JSONNode) -> FamilyBinding? {
        guard
            let reader = ObjectReader(
                node, what: "\"binding\"", keywords: SchemaKeywords.binding, diagnostics: &diagnostics)
        else { return nil }
        let healthvault = reader.value("healthvault")
        let http = reader.value("http")
        reader.finish(&diagnostics)
        if healthvault != nil, http != nil {
            diagnostics.error(
                "\"binding\" has both \"healthvault\" and \"http\", expected exactly one binding kind",
                at: node.location, pointer: node.pointer)
            return nil
        }
        if let healthvault,
            let settings = ObjectReader(
                healthvault, what: "the healthvault settings", keywords: SchemaKeywords.healthvaultSettings,
                diagnostics: &diagnostics)
        {
            let policies = choices("authPolicies", HealthVaultAuth.self, reader: settings)
            let statusError = settings.nonEmptyString("statusError", required: true, diagnostics: &diagnostics)
            let language = settings.string("language", diagnostics: &diagnostics)
            let country = settings.string("country", diagnostics: &diagnostics)
            let ttl = settings.integer("messageTTL", minimum: 1, diagnostics: &diagnostics)
            let version = settings.string("clientVersion", diagnostics: &diagnostics)
            settings.finish(&diagnostics)
            guard let statusError else { return nil }
            return .healthvault(
                HealthVaultFamilySettings(
                    location: healthvault.location, authPolicies: policies, statusError: statusError,
                    language: language?.value, country: country?.value, messageTTL: ttl?.value,
                    clientVersion: version?.value
                ))
        }
        if let http,
            let settings = ObjectReader(
                http, what: "the http settings", keywords: SchemaKeywords.httpSettings, diagnostics: &diagnostics)
        {
            let policies = choices("authPolicies", HTTPAuth.self, reader: settings)
            var apiKeyHeader = settings.nonEmptyString("apiKeyHeader", diagnostics: &diagnostics)
            if let name = apiKeyHeader, !HTTPGrammar.isToken(name.value) {
                diagnostics.error(
                    "\"apiKeyHeader\" is \(SwiftLiteral.string(name.value)), which is not an RFC 9110 token, expected letters, digits and !#$%&'*+-.^_`|~",
                    at: name.location, pointer: name.pointer)
                apiKeyHeader = nil
            }
            let headers = settings.stringMap("headers", diagnostics: &diagnostics)
            let primitives = settings.choice("xmlPrimitives", XMLPrimitiveStyle.self, diagnostics: &diagnostics)
            settings.finish(&diagnostics)
            return .http(
                HTTPFamilySettings(
                    location: http.location, authPolicies: policies, apiKeyHeader: apiKeyHeader?.value,
                    headers: headers,
                    xmlPrimitives: primitives?.value ?? .text
                ))
        }
        if healthvault == nil, http == nil {
            diagnostics.error(
                "\"binding\" names no binding kind, expected \"healthvault\" or \"http\"", at: node.location,
                pointer: node.pointer)
        }
        return nil
    }

    private mutating func choices<E: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ type: E.Type, reader: ObjectReader
    ) -> [E] where E.RawValue == String {
        guard let values = reader.strings(key, diagnostics: &diagnostics) else {
            reader.missing(key, "the list of auth policies the family's methods may use", diagnostics: &diagnostics)
            return []
        }
        return values.compactMap { value in
            guard let choice = E(rawValue: value.value) else {
                let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
                diagnostics.error(
                    "\"\(value.value)\" in \"\(key)\" is not an auth policy, expected one of \(allowed)",
                    at: value.location, pointer: value.pointer)
                return nil
            }
            return choice
        }
    }

    private mutating func serverNodes(_ node: JSONNode) -> [ServerNode] {
        guard let members = node.members else {
            diagnostics.error(
                "\"servers\" is \(ObjectReader.article(node.kindName)), expected an object of named servers",
                at: node.location, pointer: node.pointer)
            return []
        }
        if members.isEmpty {
            diagnostics.error(
                "\"servers\" is empty, expected at least one named server", at: node.location, pointer: node.pointer)
        }
        return members.compactMap { member in
            guard
                let reader = ObjectReader(
                    member.value, what: "the server \"\(member.key)\"", keywords: SchemaKeywords.server,
                    diagnostics: &diagnostics)
            else { return nil }
            let description = reader.nonEmptyString("description", required: true, diagnostics: &diagnostics)
            let defaultURL = reader.nonEmptyString("default", diagnostics: &diagnostics)
            reader.finish(&diagnostics)
            if !Naming.isIdentifier(member.key) {
                diagnostics.error(
                    "the server name \"\(member.key)\" is not a Swift identifier, expected letters, digits and _",
                    at: member.keyLocation, pointer: member.value.pointer)
            }
            guard let description else { return nil }
            return ServerNode(
                name: member.key, keyLocation: member.keyLocation, description: description.value,
                defaultURL: defaultURL?.value)
        }
    }

    private mutating func errorFormats(_ node: JSONNode) -> [ErrorFormatNode] {
        guard let members = node.members else {
            diagnostics.error(
                "\"errors\" is \(ObjectReader.article(node.kindName)), expected an object of error formats",
                at: node.location, pointer: node.pointer)
            return []
        }
        return members.compactMap { member in
            guard
                let reader = ObjectReader(
                    member.value, what: "the error format \"\(member.key)\"", keywords: SchemaKeywords.errorFormat,
                    diagnostics: &diagnostics)
            else { return nil }
            let reference = reader.nonEmptyString("$ref", diagnostics: &diagnostics)
            if let reference { references.append(reference) }
            let description = reader.nonEmptyString(
                "description", required: reference == nil, diagnostics: &diagnostics)
            var body: SchemaNode?
            if let bodyNode = reader.value("body") {
                body = schema(bodyNode)
            } else if reference == nil {
                reader.missing("body", "an error format to name its body type", diagnostics: &diagnostics)
            }
            if let reference {
                let others = ["body", "encodings", "root", "code", "message", "codeType"].filter {
                    reader.value($0) != nil
                }
                if !others.isEmpty {
                    diagnostics.error(
                        "\(others.map { "\"\($0)\"" }.joined(separator: ", ")) beside \"$ref\", expected only \"description\" and \"codes\" (the referenced format defines the rest)",
                        at: reference.location, pointer: reference.pointer)
                }
            }
            let encodings =
                reader.strings("encodings", diagnostics: &diagnostics)?.compactMap { value -> String? in
                    guard ["json", "xml"].contains(value.value) else {
                        diagnostics.error(
                            "\"\(value.value)\" in \"encodings\" is not an encoding, expected json or xml",
                            at: value.location, pointer: value.pointer)
                        return nil
                    }
                    return value.value
                } ?? ["json"]
            let root = reader.nonEmptyString("root", diagnostics: &diagnostics)
            let code = reader.strings("code", diagnostics: &diagnostics) ?? []
            let message = reader.strings("message", diagnostics: &diagnostics) ?? []
            let codeType = reader.nonEmptyString("codeType", diagnostics: &diagnostics)
            let codes = reader.value("codes").map { errorCodes($0) } ?? []
            reader.finish(&diagnostics)
            if !Naming.isTypeName(member.key) {
                diagnostics.error(
                    "the error format name \"\(member.key)\" is not a Swift type name, expected UpperCamelCase letters and digits",
                    at: member.keyLocation, pointer: member.value.pointer)
            }
            if let codeType, !Naming.isTypeName(codeType.value) {
                diagnostics.error(
                    "\"codeType\" is \"\(codeType.value)\", expected a Swift type name (UpperCamelCase letters and digits)",
                    at: codeType.location, pointer: codeType.pointer
                )
            }
            guard reference != nil || description != nil && body != nil else { return nil }
            return ErrorFormatNode(
                name: member.key, keyLocation: member.keyLocation, pointer: member.value.pointer,
                reference: reference, description: description?.value ?? "", body: body, encodings: encodings,
                root: root?.value, code: code,
                message: message, codeType: codeType?.value, codes: codes
            )
        }
    }

    private mutating func errorCodes(_ node: JSONNode) -> [ErrorCodeNode] {
        guard let elements = node.elements else {
            diagnostics.error(
                "\"codes\" is \(ObjectReader.article(node.kindName)), expected an array of codes", at: node.location,
                pointer: node.pointer)
            return []
        }
        return elements.compactMap { element in
            guard
                let reader = ObjectReader(
                    element, what: "a code", keywords: SchemaKeywords.code, diagnostics: &diagnostics)
            else { return nil }
            var value: ErrorCodeNode.Value?
            if let node = reader.value("value") {
                switch node.value {
                case .number(let number, _, true): value = Int(exactly: number).map(ErrorCodeNode.Value.integer)
                case .string(let text): value = .string(text)
                default: break
                }
                if value == nil {
                    diagnostics.error(
                        "\"value\" is \(ObjectReader.article(node.kindName)), expected an integer or a string",
                        at: node.location, pointer: node.pointer)
                }
            } else {
                reader.missing("value", "a code to have its wire \"value\"", diagnostics: &diagnostics)
            }
            let name = reader.nonEmptyString("name", required: true, diagnostics: &diagnostics)
            let swiftName = reader.nonEmptyString("x-swift-name", diagnostics: &diagnostics)
            let description = reader.string("description", diagnostics: &diagnostics)
            let recovery = reader.string("recovery", diagnostics: &diagnostics)
            reader.finish(&diagnostics)
            let recoveries = [
                "none", "retryLater", "refreshCredential", "reauthorize", "reprovision", "discardGrant", "reconfigure",
                "fixRequest",
            ]
            if let recovery, !recoveries.contains(recovery.value) {
                diagnostics.error(
                    "\"recovery\" is \"\(recovery.value)\", expected one of \(recoveries.joined(separator: ", "))",
                    at: recovery.location, pointer: recovery.pointer)
            }
            if let swiftName,
                !Naming.isIdentifier(swiftName.value) || swiftName.value.first?.isLowercase != true
                    || swiftName.value.contains("_")
            {
                diagnostics.error(
                    "\"x-swift-name\" is \"\(swiftName.value)\", expected a lowerCamelCase Swift name (letters and digits)",
                    at: swiftName.location, pointer: swiftName.pointer)
            }
            guard let value, let name else { return nil }
            return ErrorCodeNode(
                location: element.location, pointer: element.pointer, value: value, name: name.value,
                swiftName: swiftName?.value, description: description?.value, recovery: recovery?.value ?? "none"
            )
        }
    }
}
