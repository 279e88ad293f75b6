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
    var schemasOfTypes: [IRTypeName: (SchemaNode, ResolutionScope)] = [:]

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
    mutating func add(_ type: IRType, pointer: String) -> Bool {
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

    mutating func fill(
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
    mutating func extraMembers(
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

    mutating func setKind(_ kind: IRType.Kind, of type: IRTypeName) {
        table.update(type) { $0.kind = kind }
    }

    /// The cases of an enum (whose values the reader made unique): each value's lowerCamelCase name, made unique
    /// deterministically. A name another value took first, or `unknown` (the case of unlisted values), gets the
    /// smallest number from 2 that frees it, in the order the values are listed.
    func enumCases(_ values: [Located<String>], schema: SchemaNode) -> [IREnumCase] {
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

    mutating func union(
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
