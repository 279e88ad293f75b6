extension TypeResolver {
    /// The properties of an `allOf` schema: those of every part (a `$ref` to an object type, or an inline object),
    /// then the schema's own, in order. A property that two places declare is a diagnostic, since the parts could
    /// disagree about it.
    mutating func mergedProperties(
        _ schema: SchemaNode, parts: [SchemaNode], owner: IRTypeName, scope: ResolutionScope
    ) -> [IRProperty] {
        var merged: [IRProperty] = []
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
                add(properties, from: target.simple, at: part, diagnostics: &diagnostics)
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
        return merged
    }
}

extension TypeResolver {
    /// `[String: Value]` for an object of any keys whose values follow `values`. Values JSON carries as text
    /// (dates, ids, bytes) are refused, since a map reads its values as they are.
    mutating func mapRef(_ values: SchemaNode, nameHint: String, owner: IRTypeName, scope: ResolutionScope)
        -> IRTypeRef?
    {
        guard let value = typeRef(values, nameHint: nameHint + "Value", owner: owner, scope: scope) else { return nil }
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
