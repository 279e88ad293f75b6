/// Emits `validate(at:)` on the types whose values carry schema constraints (`minimum`, `pattern`, …), in
/// themselves or in their parts, and nothing on the others. Client methods call it on the request before building
/// it; responses are never checked.
///
/// ```swift
/// public func validate(at path: Swift.String = "") throws {
///     try SDKRuntime.RequestValidation.minimum(self.numResults, 1, at: path + "/num-results")
/// }
/// ```
struct ValidationEmitter {
    /// The family's types, where references are followed.
    let types: IRTypeTable

    /// Whether values of `type` have anything to check.
    func needsValidation(_ type: IRType) -> Bool {
        var visiting: Set<IRTypeName> = []
        return needsValidation(type, visiting: &visiting)
    }

    private func needsValidation(_ type: IRType, visiting: inout Set<IRTypeName>) -> Bool {
        guard case .object(let properties) = type.kind, visiting.insert(type.qualifiedName).inserted else {
            return false
        }
        return properties.contains { property in
            guard property.isStored else { return false }
            if !property.checks.isEmpty { return true }
            return part(of: property.type).map { needsValidation($0, visiting: &visiting) } ?? false
        }
    }

    /// The object a property holds, directly or as the elements of an array.
    private func part(of type: IRTypeRef) -> IRType? {
        switch types.resolved(type) {
        case .named(let name): return types[name]
        case .array(let element), .map(let element): return types.namedType(element)
        case .scalar: return nil
        }
    }

    /// Prints `validate(at:)` for `type` when it needs one.
    func validateMethod(_ type: IRType, properties: [IRProperty], into p: inout SwiftPrinter) {
        guard needsValidation(type) else { return }
        p.blank()
        p.doc(
            "Checks the schema's constraints on this value and its parts; client methods call it before sending.",
            remarks: [
                "- Parameter path: where the value is in the request, by wire names.\n"
                    + "- Throws: `SDKRuntime.RequestValidationError` for the first value that breaks a constraint."
            ])
        p.block("public func validate(at path: Swift.String = \"\") throws") { p in
            for property in properties where property.isStored {
                statements(property, into: &p)
            }
        }
    }

    private func statements(_ property: IRProperty, into p: inout SwiftPrinter) {
        let value = "self." + Emit.name(property.swiftName)
        let path = "path + " + SwiftLiteral.string("/" + property.wireName)
        for check in property.checks {
            let call: String
            switch check {
            case .minimum(let bound): call = "minimum(\(value), \(bound)"
            case .maximum(let bound): call = "maximum(\(value), \(bound)"
            case .exclusiveMinimum(let bound): call = "exclusiveMinimum(\(value), \(bound)"
            case .minLength(let count): call = "minLength(\(value), \(count)"
            case .maxLength(let count): call = "maxLength(\(value), \(count)"
            case .pattern(let pattern): call = "pattern(\(value), \(SwiftLiteral.string(pattern))"
            case .minItems(let count): call = "minItems(\(value).count, \(count)"
            case .maxItems(let count): call = "maxItems(\(value).count, \(count)"
            }
            p.line("try SDKRuntime.RequestValidation.\(call), at: \(path))")
        }
        guard let part = part(of: property.type), needsValidation(part) else { return }
        if case .array = types.resolved(property.type) {
            p.block("for (index, item) in \(value).enumerated()") { p in
                p.line("try item.validate(at: \(path) + \"/\\(index)\")")
            }
        } else {
            p.line("try \(value)\(property.isOptional ? "?" : "").validate(at: \(path))")
        }
    }
}
