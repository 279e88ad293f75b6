/// Type schemas: every keyword of a schema node, with its position.
extension DocumentDecoder {
    // MARK: Type schemas

    /// `{"type": "null"}`, alone or with a description.
    static func isNullSchema(_ node: JSONNode) -> Bool {
        guard let members = node.members, node["type"]?.stringValue == "null" else { return false }
        return members.allSatisfy { $0.key == "type" || $0.key == "description" }
    }

    /// The type of `"type": ["<type>", "null"]`.
    mutating func nullableType(_ elements: [JSONNode], in node: JSONNode) -> Located<SchemaType>? {
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

    mutating func discriminatorNode(_ node: JSONNode) -> Located<String>? {
        guard
            let reader = ObjectReader(
                node, what: "\"discriminator\"", keywords: SchemaKeywords.discriminator, diagnostics: &diagnostics)
        else { return nil }
        let name = reader.nonEmptyString("propertyName", required: true, diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        return name
    }

    mutating func xmlOptions(_ node: JSONNode) -> XMLOptionsNode? {
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
}
