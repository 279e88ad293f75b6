/// protocol.json: the binding, servers and error formats.
extension DocumentDecoder {
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
        let sampleTests = reader.bool("sampleTests", diagnostics: &diagnostics)?.value ?? true
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
            file: file, family: family, module: module, description: description.value, sampleTests: sampleTests,
            binding: binding, servers: servers, errors: errors)
    }

    mutating func familyBinding(_ node: JSONNode) -> FamilyBinding? {
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

    mutating func choices<E: RawRepresentable & CaseIterable & Sendable>(
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

    mutating func serverNodes(_ node: JSONNode) -> [ServerNode] {
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

    mutating func errorFormats(_ node: JSONNode) -> [ErrorFormatNode] {
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

    mutating func errorCodes(_ node: JSONNode) -> [ErrorCodeNode] {
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
