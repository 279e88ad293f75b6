/// A type's properties: names, requiredness, storage, and the checks between them.
extension TypeResolver {

    mutating func objectProperties(_ schema: SchemaNode, owner: IRTypeName, scope: ResolutionScope) -> [IRProperty] {
        let names = Set(schema.properties.map(\.name))
        for required in schema.required where !names.contains(required.value) {
            diagnostics.error(
                "\"required\" lists \"\(required.value)\", which is not in \"properties\"", at: required.location,
                pointer: required.pointer)
        }
        let required = Set(schema.required.map(\.value))
        var swiftNames: [String: String] = [:]
        var result: [IRProperty] = []
        for node in schema.properties {
            guard let property = property(node, isRequired: required.contains(node.name), owner: owner, scope: scope)
            else { continue }
            if let other = swiftNames[property.swiftName] {
                diagnostics.error(
                    "the properties \"\(other)\" and \"\(node.name)\" both become the Swift name '\(property.swiftName)', expected distinct names (set \"x-swift-name\")",
                    at: node.keyLocation, pointer: node.schema.pointer)
                continue
            }
            if ["description", "debugDescription", "customMirror", "hashValue", "redactedFields"].contains(
                property.swiftName)
            {
                diagnostics.error(
                    "the property \"\(node.name)\" becomes the Swift name '\(property.swiftName)', which generated conformances use, expected another name (set \"x-swift-name\")",
                    at: node.keyLocation, pointer: node.schema.pointer)
                continue
            }
            swiftNames[property.swiftName] = node.name
            result.append(property)
        }
        checkSignatures(result, schema: schema, scope: scope)
        return result
    }

    mutating func property(_ node: PropertyNode, isRequired: Bool, owner: IRTypeName, scope: ResolutionScope)
        -> IRProperty?
    {
        let schema = node.schema
        let swiftName = schema.swiftName?.value ?? Naming.lowerCamel(node.name)
        var storage = IRStorage.stored
        var type: IRTypeRef
        if let constant = schema.constValue {
            if let declared = schema.type, declared.value != .string {
                diagnostics.error(
                    "\"const\" on a schema of type \(declared.value.rawValue), expected string constants only",
                    at: declared.location, pointer: declared.pointer)
            }
            storage = .constant(constant.value)
            type = .scalar(.string, sensitive: false)
        } else if let bind = schema.bind {
            if let declared = schema.type, declared.value != .string {
                diagnostics.error(
                    "\"bind\" on a schema of type \(declared.value.rawValue), expected a string", at: declared.location,
                    pointer: declared.pointer)
            }
            if !scope.allowedBinds.contains(bind.value) {
                diagnostics.error(
                    "\"bind\": \"\(bind.value.rawValue)\" is not provided here, expected \(scope.bindRestriction)",
                    at: bind.location, pointer: bind.pointer)
            }
            storage = .bound(bind.value)
            type = .scalar(.string, sensitive: false)
        } else {
            var propertyScope = scope
            propertyScope.isHTTPRequestRoot = false
            if schema.signs != nil { propertyScope.allowedBinds.insert(.signature) }
            guard
                let resolved = typeRef(
                    schema, nameHint: Naming.upperCamel(node.name), owner: owner, scope: propertyScope)
            else { return nil }
            type = resolved
        }
        if let sensitive = schema.sensitive, sensitive.value, !table.isSensitiveScalar(type) {
            let found = storage.isStoredValue ? describe(type) : "a constant or bound value"
            diagnostics.error(
                "\"sensitive\" on \(found), expected it only on string fields of the model", at: sensitive.location,
                pointer: sensitive.pointer)
        }
        let xmlKind = schema.xml?.nodeType?.value ?? (isArray(type) ? .none : .element)
        if let location = schema.parameterLocation, !scope.isHTTPRequestRoot {
            diagnostics.error(
                "\"in\" on a property that is not a top-level field of an http request, expected it only there",
                at: location.location, pointer: location.pointer)
        }
        if let acceptSingle = schema.acceptSingle, acceptSingle.value, !isArray(type) {
            diagnostics.error(
                "\"acceptSingle\" on \(describe(type)), expected it only on arrays", at: acceptSingle.location,
                pointer: acceptSingle.pointer)
        }
        let acceptsString = schema.acceptString?.value ?? false
        if let acceptString = schema.acceptString, acceptString.value, !isLenient(type) {
            diagnostics.error(
                "\"acceptString\" on \(describe(type)), expected it only on integers, numbers and booleans",
                at: acceptString.location, pointer: acceptString.pointer)
        }
        var valueConstraints = IRConstraints.none
        if storage.isStoredValue {
            valueConstraints = constraints(of: schema, on: type)
        } else {
            rejectChecks(schema.constraints, where: "on a constant or bound value")
        }
        return IRProperty(
            wireName: node.name, swiftName: swiftName, type: type, storage: storage,
            isOptional: storage.isStoredValue && (schema.nullable || !isRequired)
                && (!isArray(type) || valueConstraints.checks.contains(where: \.tellsAbsentFromEmpty)),
            isRequired: isRequired, defaultExpression: nil, xmlKind: xmlKind, xmlName: schema.xml?.name ?? node.name,
            xmlItemName: schema.items?.xml?.name,
            aliases: schema.aliases, alsoAccepts: schema.alsoAccepts.map(\.value),
            location: schema.parameterLocation?.value,
            acceptSingle: schema.acceptSingle?.value ?? false,
            signs: schema.signs?.value, constraints: valueConstraints, acceptsString: acceptsString,
            isNullable: schema.nullable,
            documentation: schema.description,
            provenance: Provenance(file: scope.file.displayPath, pointer: schema.pointer),
            defaultNode: schema.defaultValue, sourceLocation: node.keyLocation
        )
    }

    mutating func checkSignatures(_ properties: [IRProperty], schema: SchemaNode, scope: ResolutionScope) {
        for node in schema.properties {
            guard let signs = node.schema.signs else { continue }
            guard scope.canSign else {
                diagnostics.error(
                    "\"signs\" where no signing key is available, expected it only in a request whose auth policy signs (castSignature)",
                    at: signs.location, pointer: signs.pointer)
                continue
            }
            let siblings: [String] = properties.map(\.wireName).filter { $0 != node.name }
            guard siblings.contains(signs.value) else {
                let expected: String = siblings.map { "\"\($0)\"" }.joined(separator: ", ")
                diagnostics.error(
                    "\"signs\": \"\(signs.value)\" names no sibling property, expected one of \(expected)",
                    at: signs.location, pointer: signs.pointer)
                continue
            }
            let signer: IRProperty? = properties.first { $0.wireName == node.name }
            if !Self.holdsSignature(signer.flatMap { table.namedType($0.type) }) {
                diagnostics.error(
                    "the element \"\(node.name)\" signs \"\(signs.value)\" but has no text property with \"bind\": \"signature\", expected an object whose text holds the signature",
                    at: signs.location, pointer: signs.pointer)
            }
        }
    }

    /// Whether `type` has a text property bound to the signature a `signs` element carries.
    static func holdsSignature(_ type: IRType?) -> Bool {
        guard let type else { return false }
        return type.properties.contains { (property: IRProperty) -> Bool in
            guard case .bound(.signature) = property.storage else { return false }
            return property.xmlKind == .text
        }
    }
}
