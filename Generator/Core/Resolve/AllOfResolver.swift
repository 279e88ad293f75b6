extension TypeResolver {
    /// The properties of an `allOf` schema: those of every part (a `$ref` to an object type, or an inline object),
    /// then the schema's own, in order. A property that two places declare is a diagnostic, since the parts could
    /// disagree about it.
    ///
    /// A part that is another family's object is not merged: it is the base the type extends, which it holds and
    /// whose members beyond its properties it reads its own from. The base must keep those members
    /// (`additionalProperties`), and one part at most may be another family's.
    mutating func mergedProperties(
        _ schema: SchemaNode, parts: [SchemaNode], owner: IRTypeName, scope: ResolutionScope
    ) -> (properties: [IRProperty], base: IRTypeName?) {
        var merged: [IRProperty] = []
        var base: IRTypeName?
        var origins: [String: String] = [:]
        func add(_ properties: [IRProperty], from origin: String, at part: SchemaNode, diagnostics: inout Diagnostics) {
            for property in properties {
                if let other = origins[property.wireName] ?? origins[" " + property.swiftName] {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" of \(origin) is also declared by \(other), expected each property in one part of \"allOf\"",
                        at: part.location, pointer: part.pointer
                    )
                    continue
                }
                origins[property.wireName] = origin
                origins[" " + property.swiftName] = origin
                merged.append(property)
            }
        }
        for (index, part) in parts.enumerated() {
            if let ref = part.ref {
                guard let target = reference(ref, scope: scope) else { continue }
                define(target)
                guard case .object(let properties)? = table[target]?.kind else {
                    diagnostics.error(
                        "an \"allOf\" part refers to \(target.simple), which is not an object, expected object schemas only",
                        at: ref.location, pointer: ref.pointer)
                    continue
                }
                guard let module = table[target]?.module else {
                    add(properties, from: target.simple, at: part, diagnostics: &diagnostics)
                    continue
                }
                if base != nil {
                    diagnostics.error(
                        "a second \"allOf\" part refers to another family's type, expected at most one type to extend",
                        at: ref.location, pointer: ref.pointer)
                    continue
                }
                if table[target]?.extraMembers == nil {
                    diagnostics.error(
                        "an \"allOf\" part extends \(module)'s \(target.simple), which does not keep the members beyond its properties, expected a type with \"additionalProperties\" to extend",
                        at: ref.location, pointer: ref.pointer)
                    continue
                }
                base = target
                for property in properties where property.isStored {
                    origins[property.wireName] = target.simple
                }
            } else if part.type?.value == .object || part.type == nil && part.hasProperties {
                add(
                    objectProperties(part, owner: owner, scope: scope), from: "part \(index + 1)", at: part,
                    diagnostics: &diagnostics)
            } else {
                diagnostics.error(
                    "an \"allOf\" part that is not an object schema, expected a \"$ref\" to an object or an inline object",
                    at: part.location, pointer: part.pointer)
            }
        }
        if schema.hasProperties {
            add(
                objectProperties(schema, owner: owner, scope: scope), from: "the schema itself", at: schema,
                diagnostics: &diagnostics)
        } else if let required = schema.required.first {
            diagnostics.error(
                "\"required\" beside \"allOf\", expected it in the part that declares the property",
                at: required.location, pointer: required.pointer)
        }
        if let base, let type = table[base] {
            // The base is held by a property named after its type, first, through which its members are read.
            let holder = Naming.lowerCamel(base.simple)
            if let clash = merged.first(where: { $0.swiftName == holder }) {
                diagnostics.error(
                    "the property \"\(clash.wireName)\" becomes the Swift name '\(holder)', which holds the extended \(base.simple), expected another name (set \"x-swift-name\")",
                    at: clash.sourceLocation, pointer: clash.provenance.pointer)
            }
            var property = IRProperty(
                wireName: "", swiftName: holder, type: .named(base), storage: .stored, isOptional: false,
                isRequired: true, defaultExpression: nil, xmlKind: .none, xmlName: "", xmlItemName: nil, aliases: [],
                location: nil, acceptSingle: false, signs: nil,
                documentation:
                    "The \(type.module.map { $0 + " " } ?? "")\(base.simple) this type extends, whose members are read on this value too.",
                provenance: Provenance(file: scope.file.displayPath, pointer: schema.pointer + "/allOf"),
                defaultNode: nil, sourceLocation: schema.location)
            property.holdsBase = true
            merged.insert(property, at: 0)
        }
        return (merged, base)
    }
}

extension TypeResolver {
    /// `[String: Value]` for an object of any keys whose values follow `values`. Values JSON carries as text
    /// (dates, ids, bytes) are refused, since a map reads its values as they are.
    mutating func mapRef(_ values: SchemaNode, nameHint: String, owner: IRTypeName, scope: ResolutionScope)
        -> IRTypeRef?
    {
        guard let value = typeRef(values, nameHint: nameHint + "Value", owner: owner, scope: scope) else { return nil }
        if values.nullable {
            diagnostics.error(
                "\"additionalProperties\" that may be null, expected non-null values (a member may be left out instead)",
                at: values.location, pointer: values.pointer)
            return nil
        }
        if case .scalar(let scalar, _) = table.resolved(value), scalar.isTextInJSON {
            diagnostics.error(
                "\"additionalProperties\" of \(describe(value)), expected values JSON carries as they are (strings, numbers, booleans, objects, arrays or any value)",
                at: values.location, pointer: values.pointer
            )
            return nil
        }
        return .map(value)
    }
}
