/// Where a schema is being resolved: which file, which local `$defs`, and what a request there may bind.
struct ResolutionScope {
    /// The file the schema is in.
    var file: SchemaFile
    /// The local `#/$defs/…` types of that file.
    var localTypes: [String: IRTypeName]
    /// Context values a `bind` may name here.
    var allowedBinds: Set<BindName>
    /// Whether an element here may sign a sibling (the auth policy has a signer).
    var canSign: Bool
    /// Whether properties here are top-level fields of an http request (so `in` is allowed).
    var isHTTPRequestRoot: Bool
    /// Why `bind` is not allowed, for the diagnostic.
    var bindRestriction: String
}

/// Resolves type schemas into ``IRType``s and ``IRTypeRef``s, reporting type-level problems.
struct TypeResolver {
    var diagnostics: Diagnostics
    /// Every type resolved so far, by name.
    var table = IRTypeTable()
    /// `types.json` types by key.
    var familyTypes: [String: IRTypeName] = [:]
    /// The family's `types.json`, for diagnostics about references to it.
    var typesFile: SchemaFile?
    /// Whether a schema without a type holds XML content (``IRScalar/xmlFragment``) rather than a JSON value.
    var anyValueIsXML = false
    /// The types of other families that references name.
    var externals = ExternalTypes()
    /// Nodes waiting for their kind, by type name.
    private var schemasOfTypes: [IRTypeName: (SchemaNode, ResolutionScope)] = [:]

    init(diagnostics: Diagnostics) {
        self.diagnostics = diagnostics
    }

    /// Declares a named type (from `$defs`) so references can find it before its body is resolved.
    /// `name`, when given, replaces the schema's own name (a naming override of the package's configuration).
    mutating func declare(_ named: NamedSchema, parent: IRTypeName?, scope: ResolutionScope, name: String? = nil)
        -> IRTypeName?
    {
        let name = name ?? named.schema.swiftName?.value ?? named.name
        guard Naming.isTypeName(name) else {
            diagnostics.error(
                "the type name \"\(name)\" is not an UpperCamelCase Swift identifier, expected letters and digits starting with a capital (or give \"x-swift-name\")",
                at: named.keyLocation, pointer: named.schema.pointer)
            return nil
        }
        let type = IRType(
            name: name, parent: parent, kind: .object([]), documentation: named.schema.description,
            provenance: Provenance(file: scope.file.displayPath, pointer: named.schema.pointer),
            location: named.keyLocation
        )
        guard add(type, pointer: named.schema.pointer) else { return nil }
        schemasOfTypes[type.qualifiedName] = (named.schema, scope)
        return type.qualifiedName
    }

    /// Adds `type` to the table, or reports that its name is taken.
    private mutating func add(_ type: IRType, pointer: String) -> Bool {
        if table.insert(type) { return true }
        diagnostics.error(
            "a second type is named \(type.qualifiedName), expected distinct names for the types declared in one place (set \"x-swift-name\")",
            at: type.sourceLocation, pointer: pointer)
        return false
    }

    /// Resolves the body of a declared named type, in `scope` when given (else the scope it was declared in).
    mutating func define(_ type: IRTypeName, scope override: ResolutionScope? = nil) {
        guard let (schema, scope) = schemasOfTypes.removeValue(forKey: type) else { return }
        fill(type, from: schema, scope: override ?? scope)
    }

    /// Creates and fills a type for an inline schema (a method's Request or Response, or a nested value's type,
    /// `nested`, whose holder is optional when the schema allows null).
    mutating func inlineType(
        named name: String, parent: IRTypeName?, schema: SchemaNode, scope: ResolutionScope, nested: Bool = false
    ) -> IRTypeName? {
        let type = IRType(
            name: name, parent: parent, kind: .object([]), documentation: schema.description,
            provenance: Provenance(file: scope.file.displayPath, pointer: schema.pointer), location: schema.location
        )
        guard add(type, pointer: schema.pointer) else { return nil }
        fill(type.qualifiedName, from: schema, scope: scope, nullable: nested)
        return type.qualifiedName
    }

    // MARK: - Type bodies

    private mutating func fill(
        _ type: IRTypeName, from schema: SchemaNode, scope: ResolutionScope, nullable: Bool = false
    ) {
        if schema.nullable, schema.enumValues != nil, let type = schema.type {
            // JSON Schema's enum would refuse the null the type allows, since only strings can be listed.
            diagnostics.error(
                "an enum whose \"type\" allows null, expected null as a oneOf variant beside the enum "
                    + "({\"oneOf\": [{\"enum\": [...]}, {\"type\": \"null\"}]}), since null is not among its values",
                at: type.location, pointer: type.pointer)
        }
        if schema.nullable, !nullable, let named = schema.type ?? schema.oneOf?.first?.type {
            diagnostics.error(
                "a named type that may be null, expected null only on the properties that hold it", at: named.location,
                pointer: named.pointer)
        }
        if let ref = schema.ref {
            checkOnlyReferenceKeywords(schema, allowed: ["description", "x-swift-name"])
            _ = constraints(of: schema, on: .named(type))
            if let target = reference(ref, scope: scope) { setKind(.alias(.named(target)), of: type) }
            return
        }
        if let values = schema.additionalProperties, !schema.hasProperties, schema.oneOf == nil, schema.allOf == nil,
            schema.type == nil || schema.type?.value == .object
        {
            if let map = mapRef(values, nameHint: type.simple + "Value", owner: type, scope: scope) {
                setKind(.alias(map), of: type)
                let valueConstraints = constraints(of: schema, on: map)
                table.update(type) { $0.constraints = valueConstraints }
            }
            return
        }
        if schema.type?.value == .object || schema.allOf != nil || schema.oneOf != nil || schema.enumValues != nil {
            rejectChecks(
                schema.constraints,
                where:
                    "on the \(schema.enumValues != nil ? "enum" : schema.oneOf != nil ? "union" : "object") \(type.simple)"
            )
        }
        if let parts = schema.allOf {
            let (properties, base) = mergedProperties(schema, parts: parts, owner: type, scope: scope)
            if base != nil,
                let values = schema.additionalProperties ?? (schema.forbidsAdditionalProperties ? schema : nil)
            {
                diagnostics.error(
                    "\"additionalProperties\" beside an \"allOf\" that extends another family's type, expected it on the extended type, which keeps the members",
                    at: values.location, pointer: values.pointer)
                return
            }
            let (extra, extraConstraints) = extraMembers(schema, owner: type, scope: scope, properties: properties)
            table.update(type) {
                $0.kind = .object(properties)
                $0.base = base
                $0.xmlNamespace = schema.xml?.namespace
                $0.xmlPrefix = schema.xml?.prefix
                $0.extraMembers = extra
                $0.extraConstraints = extraConstraints
                $0.isClosed = schema.forbidsAdditionalProperties
                // JSON Schema's additionalProperties sees only the properties beside it, not those of allOf.
                if extra != nil || schema.forbidsAdditionalProperties {
                    $0.declaredNames = Set(schema.properties.map(\.name))
                }
            }
            return
        }
        if let variants = schema.oneOf {
            setKind(.union(union(variants, discriminator: schema.discriminator, owner: type, scope: scope)), of: type)
            return
        }
        if let discriminator = schema.discriminator {
            diagnostics.error(
                "\"discriminator\" without \"oneOf\", expected it only beside \"oneOf\"", at: discriminator.location,
                pointer: discriminator.pointer)
        }
        if let values = schema.enumValues {
            if let declared = schema.type, declared.value != .string {
                diagnostics.error(
                    "\"enum\" on a schema of type \(declared.value.rawValue), expected enums of strings only",
                    at: declared.location, pointer: declared.pointer)
            }
            setKind(.enumeration(enumCases(values, schema: schema)), of: type)
            return
        }
        guard let declared = schema.type else {
            diagnostics.error(
                "the schema has no \"type\", expected \"type\", \"$ref\", \"oneOf\", \"enum\" or \"const\"",
                at: schema.location, pointer: schema.pointer)
            return
        }
        switch declared.value {
        case .object:
            let properties = objectProperties(schema, owner: type, scope: scope)
            let (extraMembers, extraConstraints) = extraMembers(
                schema, owner: type, scope: scope, properties: properties)
            table.update(type) {
                $0.kind = .object(properties)
                $0.extraMembers = extraMembers
                $0.extraConstraints = extraConstraints
                $0.isClosed = schema.forbidsAdditionalProperties
                $0.xmlNamespace = schema.xml?.namespace
                $0.xmlPrefix = schema.xml?.prefix
            }
        default:
            if let target = typeRef(schema, nameHint: type.simple, owner: type, scope: scope) {
                setKind(.alias(target), of: type)
                let valueConstraints = constraints(of: schema, on: target)
                table.update(type) { $0.constraints = valueConstraints }
            }
        }
    }

    /// The type and constraints of the members an object keeps beyond its properties (`additionalProperties`).
    private mutating func extraMembers(
        _ schema: SchemaNode, owner: IRTypeName, scope: ResolutionScope, properties: [IRProperty]
    ) -> (IRTypeRef?, IRConstraints) {
        guard let values = schema.additionalProperties else { return (nil, .none) }
        let extra = mapRef(values, nameHint: owner.simple + "Extra", owner: owner, scope: scope).flatMap {
            if case .map(let value) = $0 { value } else { nil }
        }
        if properties.contains(where: { $0.swiftName == "additionalProperties" }) {
            diagnostics.error(
                "a property becomes the Swift name 'additionalProperties', which keeps the members beyond \"properties\" here, expected another name (set \"x-swift-name\")",
                at: values.location, pointer: values.pointer)
        }
        return (extra, extra.map { constraints(of: values, on: $0) } ?? .none)
    }

    private mutating func setKind(_ kind: IRType.Kind, of type: IRTypeName) {
        table.update(type) { $0.kind = kind }
    }

    /// The cases of an enum (whose values the reader made unique): each value's lowerCamelCase name, made unique
    /// deterministically. A name another value took first, or `unknown` (the case of unlisted values), gets the
    /// smallest number from 2 that frees it, in the order the values are listed.
    private func enumCases(_ values: [Located<String>], schema: SchemaNode) -> [IREnumCase] {
        var taken: Set<String> = ["unknown"]
        return values.map { value in
            let base = Naming.lowerCamel(value.value)
            var swiftName = base
            var number = 2
            while taken.contains(swiftName) {
                swiftName = base + String(number)
                number += 1
            }
            taken.insert(swiftName)
            return IREnumCase(wireValue: value.value, swiftName: swiftName)
        }
    }

    private mutating func union(
        _ variants: [SchemaNode], discriminator: Located<String>?, owner: IRTypeName, scope: ResolutionScope
    ) -> IRUnion {
        var result = IRUnion(discriminator: discriminator?.value, variants: [])
        var caseNames: [String: SourceLocation] = [:]
        for (index, variant) in variants.enumerated() {
            guard let ref = typeRef(variant, nameHint: "\(owner.simple)Option\(index + 1)", owner: owner, scope: scope)
            else { continue }
            var caseName: String
            var discriminatorValue: String?
            if let discriminator {
                guard let object = table.namedType(ref), case .object(let properties) = object.kind else {
                    diagnostics.error(
                        "a variant of a discriminated \"oneOf\" is not an object, expected objects that carry \"\(discriminator.value)\"",
                        at: variant.location, pointer: variant.pointer)
                    continue
                }
                guard let tag = properties.first(where: { $0.wireName == discriminator.value }),
                    case .constant(let value) = tag.storage
                else {
                    diagnostics.error(
                        "the variant \(object.name) has no constant \"\(discriminator.value)\", expected every variant to declare the discriminator with \"const\"",
                        at: variant.location, pointer: variant.pointer)
                    continue
                }
                discriminatorValue = value
                caseName = Naming.lowerCamel(value)
            } else {
                switch table.resolved(ref) {
                case .scalar(let scalar, _): caseName = Naming.lowerCamel(String(describing: scalar))
                case .named(let type): caseName = Naming.lowerCamel(type.simple)
                case .array: caseName = "array\(index + 1)"
                case .map: caseName = "map\(index + 1)"
                }
            }
            if caseNames[caseName] != nil {
                guard discriminator == nil else {
                    diagnostics.error(
                        "two variants of \"oneOf\" become the Swift case '\(caseName)', expected distinct variants",
                        at: variant.location, pointer: variant.pointer)
                    continue
                }
                // Variants of one Swift type differ in their constraints (or not at all, and then no value is valid
                // against exactly one): each gets the smallest number from 2 that frees its case name.
                let base = caseName
                var number = 2
                while caseNames[caseName] != nil {
                    caseName = base + String(number)
                    number += 1
                }
            }
            caseNames[caseName] = variant.location
            result.variants.append(
                IRVariant(
                    caseName: caseName, type: ref, discriminatorValue: discriminatorValue,
                    constraints: constraints(of: variant, on: ref)))
        }
        return result
    }

    // MARK: - Properties

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
            if ["description", "debugDescription", "customMirror", "hashValue"].contains(property.swiftName) {
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

    private mutating func property(_ node: PropertyNode, isRequired: Bool, owner: IRTypeName, scope: ResolutionScope)
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

    private mutating func checkSignatures(_ properties: [IRProperty], schema: SchemaNode, scope: ResolutionScope) {
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
    private static func holdsSignature(_ type: IRType?) -> Bool {
        guard let type else { return false }
        return type.properties.contains { (property: IRProperty) -> Bool in
            guard case .bound(.signature) = property.storage else { return false }
            return property.xmlKind == .text
        }
    }

    // MARK: - References

    /// The type a property, item or variant schema refers to, creating nested types for inline ones.
    mutating func typeRef(_ schema: SchemaNode, nameHint: String, owner: IRTypeName, scope: ResolutionScope)
        -> IRTypeRef?
    {
        if let ref = schema.ref {
            checkOnlyReferenceKeywords(
                schema,
                allowed: [
                    "description", "xml", "sensitive", "default", "aliases", "in", "signs", "acceptSingle",
                    "x-swift-name",
                ])
            return reference(ref, scope: scope).map { .named($0) }
        }
        if let values = schema.additionalProperties, !schema.hasProperties, schema.oneOf == nil, schema.allOf == nil,
            schema.type == nil || schema.type?.value == .object
        {
            return mapRef(values, nameHint: nameHint, owner: owner, scope: scope)
        }
        // `oneOf` of one schema and null: the schema itself (the property that holds it is optional).
        if let variants = schema.oneOf, variants.count == 1, let only = variants.first {
            return typeRef(only, nameHint: nameHint, owner: owner, scope: scope)
        }
        if schema.oneOf != nil || schema.allOf != nil || schema.enumValues != nil || schema.type?.value == .object {
            guard
                let nested = inlineType(
                    named: schema.swiftName.map { Naming.upperCamel($0.value) } ?? nameHint, parent: owner,
                    schema: schema, scope: scope, nested: true)
            else { return nil }
            table.update(owner) { $0.nestedTypes.append(nested) }
            return .named(nested)
        }
        if let constant = schema.constValue {
            diagnostics.error(
                "\"const\" here is not a property, expected constants only as object properties", at: constant.location,
                pointer: constant.pointer)
            return nil
        }
        guard let declared = schema.type else {
            if schema.hasProperties || schema.items != nil {
                diagnostics.error(
                    "the schema has no \"type\", expected \"type\", \"$ref\", \"oneOf\", \"enum\" or \"const\"",
                    at: schema.location, pointer: schema.pointer)
                return nil
            }
            // No type at all: any value.
            return .scalar(anyValueIsXML ? .xmlFragment : .jsonValue, sensitive: false)
        }
        if schema.hasProperties {
            diagnostics.error(
                "\"properties\" on a schema of type \(declared.value.rawValue), expected properties only on objects",
                at: schema.location, pointer: schema.pointer + "/properties")
        }
        if declared.value != .array, let items = schema.items {
            diagnostics.error(
                "\"items\" on a schema of type \(declared.value.rawValue), expected items only on arrays",
                at: items.location, pointer: items.pointer)
        }
        switch declared.value {
        case .array:
            guard let items = schema.items else {
                diagnostics.error(
                    "an array without \"items\", expected the element type in \"items\"", at: declared.location,
                    pointer: declared.pointer)
                return nil
            }
            if items.nullable {
                diagnostics.error(
                    "array items that may be null, expected non-null items (make the array optional instead)",
                    at: items.location, pointer: items.pointer)
            }
            guard let element = typeRef(items, nameHint: nameHint, owner: owner, scope: scope) else { return nil }
            return .array(element)
        case .string, .integer, .number, .boolean:
            guard let scalar = scalar(declared, format: schema.format, encoding: schema.contentEncoding) else {
                return nil
            }
            return .scalar(scalar, sensitive: schema.isSensitive && declared.value == .string)
        case .object:
            return nil
        }
    }

    private mutating func scalar(
        _ type: Located<SchemaType>, format: Located<SchemaFormat>?, encoding: Located<ContentEncoding>?
    ) -> IRScalar? {
        if let encoding, type.value != .string || format != nil {
            diagnostics.error(
                "\"contentEncoding\" on \(format == nil ? "a schema of type \(type.value.rawValue)" : "a string with a \"format\""), expected it only on a plain string",
                at: encoding.location, pointer: encoding.pointer
            )
            return nil
        }
        switch (type.value, format?.value) {
        case (.string, nil): return encoding == nil ? .string : .bytes
        case (.string, .byte?): return .bytes
        case (.string, .uuid?): return .uuid
        case (.string, .dateTime?): return .dateTime
        case (.string, .date?): return .date
        case (.string, .uri?): return .uri
        case (.integer, nil): return .int
        case (.integer, .int32?): return .int32
        case (.integer, .int64?): return .int64
        case (.number, nil), (.number, .double?): return .double
        case (.number, .float?): return .float
        case (.boolean, nil): return .bool
        default:
            if let format {
                let expected: String
                switch type.value {
                case .integer: expected = "int32 or int64"
                case .number: expected = "float or double"
                case .string: expected = "uuid, date-time, date, uri or byte"
                default: expected = "no format"
                }
                diagnostics.error(
                    "\"format\": \"\(format.value.rawValue)\" on a schema of type \(type.value.rawValue), expected \(expected)",
                    at: format.location, pointer: format.pointer)
            }
            return nil
        }
    }

    mutating func reference(_ ref: Located<String>, scope: ResolutionScope) -> IRTypeName? {
        let text = ref.value
        if text.hasPrefix("../") { return externals.type(ref, into: &table, diagnostics: &diagnostics) }
        if text.hasPrefix("#/$defs/") {
            guard let key = Self.pointerKey(text.dropFirst("#/$defs/".count)) else {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" has an escape that is not %XX or ~0/~1, expected an RFC 6901 pointer in a URI fragment",
                    at: ref.location, pointer: ref.pointer)
                return nil
            }
            if let type = scope.localTypes[key] { return type }
            diagnostics.error(
                "\"$ref\": \"\(text)\" names no type in this file's \"$defs\", expected one of \(list(scope.localTypes.keys))",
                at: ref.location, pointer: ref.pointer)
            return nil
        }
        if text.hasPrefix("types.json#/$defs/") {
            guard let key = Self.pointerKey(text.dropFirst("types.json#/$defs/".count)) else {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" has an escape that is not %XX or ~0/~1, expected an RFC 6901 pointer in a URI fragment",
                    at: ref.location, pointer: ref.pointer)
                return nil
            }
            if let type = familyTypes[key] { return type }
            if typesFile == nil {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" refers to types.json, which this family does not have", at: ref.location,
                    pointer: ref.pointer)
            } else {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" names no type in types.json, expected one of \(list(familyTypes.keys))",
                    at: ref.location, pointer: ref.pointer)
            }
            return nil
        }
        diagnostics.error(
            "\"$ref\": \"\(text)\" is not a reference sdkgen understands, expected \"#/$defs/Name\", \"types.json#/$defs/Name\" or another family's \"../Family/types.json#/$defs/Name\"",
            at: ref.location, pointer: ref.pointer)
        return nil
    }

    /// The `$defs` key a pointer token names: the fragment's percent-encoding decoded (RFC 3986), then `~1` as `/`
    /// and `~0` as `~` (RFC 6901); nil for a malformed escape or a token that is not a single key.
    static func pointerKey(_ token: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = token.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let digits = utf8.prefix(2)
            guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), !decoded.contains("/") else { return nil }
        var key = ""
        var characters = decoded.makeIterator()
        while let character = characters.next() {
            guard character == "~" else {
                key.append(character)
                continue
            }
            switch characters.next() {
            case "0": key.append("~")
            case "1": key.append("/")
            default: return nil
            }
        }
        return key
    }

    private mutating func checkOnlyReferenceKeywords(_ schema: SchemaNode, allowed: Set<String>) {
        var extra: [String] = []
        if schema.type != nil { extra.append("type") }
        if schema.format != nil { extra.append("format") }
        if schema.contentEncoding != nil { extra.append("contentEncoding") }
        if schema.hasProperties { extra.append("properties") }
        if !schema.required.isEmpty { extra.append("required") }
        if schema.items != nil { extra.append("items") }
        if schema.enumValues != nil { extra.append("enum") }
        if schema.constValue != nil { extra.append("const") }
        if schema.oneOf != nil { extra.append("oneOf") }
        if schema.bind != nil { extra.append("bind") }
        if schema.xml != nil, !allowed.contains("xml") { extra.append("xml") }
        if schema.defaultValue != nil, !allowed.contains("default") { extra.append("default") }
        if schema.signs != nil, !allowed.contains("signs") { extra.append("signs") }
        if schema.parameterLocation != nil, !allowed.contains("in") { extra.append("in") }
        if !extra.isEmpty {
            diagnostics.error(
                "\(extra.map { "\"\($0)\"" }.joined(separator: ", ")) beside \"$ref\", expected the referenced type to define those",
                at: schema.location, pointer: schema.pointer)
        }
    }

    // MARK: - Helpers

    func isArray(_ type: IRTypeRef) -> Bool {
        if case .array = type { return true }
        return false
    }

    /// Whether `type` is an integer, number or boolean, which `acceptString` lets JSON spell as a string.
    func isLenient(_ type: IRTypeRef) -> Bool {
        if case .scalar(let scalar, _) = table.resolved(type) { return scalar.isLenientInJSON }
        return false
    }

    func describe(_ type: IRTypeRef) -> String { table.describe(type) }

    private func list(_ keys: Dictionary<String, IRTypeName>.Keys) -> String {
        Diagnostics.choices(keys, empty: "there are no types")
    }
}

extension IRTypeTable {
    /// A phrase for a type in diagnostics: "a string value", "an array", "the object Record".
    func describe(_ type: IRTypeRef) -> String {
        switch resolved(type) {
        case .scalar(let scalar, _): return ObjectReader.article(String(describing: scalar)) + " value"
        case .array: return "an array"
        case .map: return "a map"
        case .named(let name):
            switch self[name]?.kind {
            case .object?: return "the object \(name.simple)"
            case .enumeration?: return "the enum \(name.simple)"
            case .union?: return "the union \(name.simple)"
            case .alias?, nil: return name.simple
            }
        }
    }
}

extension IRStorage {
    /// Whether the property is a field of the model.
    var isStoredValue: Bool {
        if case .stored = self { return true }
        return false
    }
}
