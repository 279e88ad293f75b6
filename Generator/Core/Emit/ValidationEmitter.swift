import Foundation

/// Emits `validate(at:)` on the types whose values carry constraints (`minimum`, `pattern`, `uniqueItems`, an enum's
/// listed values, …) in themselves, their elements or their parts, and nothing on the others. Client methods call it
/// on the request before sending it; an app may call it on anything it received, and a union calls it on each
/// variant a JSON value decodes as, to find the one it is.
///
/// ```swift
/// public func validate(at path: Swift.String = "") throws {
///     try HealthSignInCore.RequestValidation.minimum(self.numResults, "1", at: path + "/num-results")
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
        guard visiting.insert(type.qualifiedName).inserted else { return false }
        switch type.kind {
        case .enumeration: return true
        case .alias(let target): return !type.constraints.isEmpty || needsValidation(target, visiting: &visiting)
        case .union(let union):
            return union.variants.contains { !$0.constraints.isEmpty || needsValidation($0.type, visiting: &visiting) }
        case .object(let properties):
            if let extra = type.extraMembers,
                !type.extraConstraints.isEmpty || needsValidation(extra, visiting: &visiting)
            {
                return true
            }
            return properties.contains { property in
                property.isStored && !property.holdsBase
                    && (!property.constraints.isEmpty || needsValidation(property.type, visiting: &visiting))
            }
        }
    }

    private func needsValidation(_ reference: IRTypeRef, visiting: inout Set<IRTypeName>) -> Bool {
        switch reference {
        case .scalar: return false
        case .array(let element), .map(let element): return needsValidation(element, visiting: &visiting)
        case .named(let name): return types[name].map { needsValidation($0, visiting: &visiting) } ?? false
        }
    }

    /// Whether a value of `reference` with `constraints` has anything to check.
    func needsValidation(_ reference: IRTypeRef, constraints: IRConstraints) -> Bool {
        var visiting: Set<IRTypeName> = []
        return !constraints.isEmpty || needsValidation(reference, visiting: &visiting)
    }

    /// Whether `type` has a `validate(at:)` (and is `SchemaValidating`): an object or union that needs one (an
    /// enum's and an alias's values are checked where they are held).
    func hasValidateMethod(_ type: IRType) -> Bool { (type.isObject || type.isUnion) && needsValidation(type) }

    /// Prints `validate(at:)` for `type` when it has one.
    func validateMethod(_ type: IRType, into p: inout SwiftPrinter) {
        guard hasValidateMethod(type) else { return }
        p.blank()
        p.doc(
            "Checks the schema's constraints on this value and its parts; client methods call it on a request before sending it.",
            remarks: [
                "- Parameter path: where the value is, as a JSON pointer by wire names.\n"
                    + "- Throws: `HealthSignInCore.SchemaValidationError` for the first value that breaks a constraint."
            ])
        p.block("public func validate(at path: Swift.String = \"\") throws") { p in
            switch type.kind {
            case .object(let properties):
                for property in properties where property.isStored && !property.holdsBase {
                    let path = "path + " + SwiftLiteral.string("/" + Self.escapedToken(property.wireName))
                    statements(
                        for: "self." + Emit.name(property.swiftName), optional: property.isOptional,
                        type: property.type, constraints: property.constraints, path: path, into: &p)
                }
                if let extra = type.extraMembers, needsValidation(extra, constraints: type.extraConstraints) {
                    p.block("for (key, value) in self.additionalProperties") { p in
                        statements(
                            for: "value", optional: false, type: extra, constraints: type.extraConstraints,
                            path: "HealthSignInCore.RequestValidation.pointer(path, key)", into: &p)
                    }
                }
            case .union(let union):
                p.switchBlock("self") { p in
                    for variant in union.variants {
                        let label = p.lines.count
                        p.line("case .\(Emit.name(variant.caseName))(let value):")
                        p.indented { p in
                            statements(
                                for: "value", optional: false, type: variant.type, constraints: variant.constraints,
                                path: "path", into: &p)
                        }
                        if p.lines.count == label + 1 {
                            p.rewriteLine(label) { $0.replacingOccurrences(of: "(let value):", with: ":") }
                            p.indented { $0.line("break") }
                        }
                    }
                }
            case .enumeration, .alias: break
            }
        }
    }

    /// The statements that check `value` (of `type`, with `constraints`) and its parts, at `path`; `depth` counts
    /// the loops around them, so that each loop's variables have names of their own.
    func statements(
        for value: String, optional: Bool, type: IRTypeRef, constraints: IRConstraints, path: String,
        depth: Int = 0, into p: inout SwiftPrinter
    ) {
        guard needsValidation(type, constraints: constraints) else { return }
        // A model, optional or in an array, is handed to the runtime in place: copying it out here would cost its
        // outlined copy and destroy in every file that checks one.
        if optional, constraints.isEmpty, case .named(let name) = type, let named = types[name],
            hasValidateMethod(named)
        {
            p.line("try HealthSignInCore.RequestValidation.validate(\(value), at: \(path))")
            return
        }
        if optional {
            p.block("if let value = \(value)") { p in
                statements(
                    for: "value", optional: false, type: type, constraints: constraints, path: path, depth: depth,
                    into: &p)
            }
            return
        }
        let suffix = depth == 0 ? "" : String(depth + 1)
        let (index, key, item) = ("index" + suffix, "key" + suffix, "item" + suffix)
        for check in constraints.checks { p.line("try HealthSignInCore.RequestValidation.\(call(check, value, path))") }
        var visiting: Set<IRTypeName> = []
        switch type {
        case .scalar: break
        case .array(let element):
            guard needsValidation(element, constraints: constraints.elements) else { return }
            if constraints.elements.isEmpty, case .named(let name) = element, let named = types[name],
                hasValidateMethod(named)
            {
                p.line("try HealthSignInCore.RequestValidation.validate(each: \(value), at: \(path))")
                return
            }
            p.block("for (\(index), \(item)) in \(value).enumerated()") { p in
                statements(
                    for: item, optional: false, type: element, constraints: constraints.elements,
                    path: path + " + \"/\\(\(index))\"", depth: depth + 1, into: &p)
            }
        case .map(let element):
            guard needsValidation(element, constraints: constraints.elements) else { return }
            p.block("for (\(key), \(item)) in \(value)") { p in
                statements(
                    for: item, optional: false, type: element, constraints: constraints.elements,
                    path: "HealthSignInCore.RequestValidation.pointer(\(path), \(key))", depth: depth + 1, into: &p)
            }
        case .named(let name):
            guard let named = types[name], needsValidation(named, visiting: &visiting) else { return }
            switch named.kind {
            case .enumeration: p.line("try HealthSignInCore.RequestValidation.listed(\(value), at: \(path))")
            case .alias(let target):
                // An alias is a typealias, which has no method of its own: its constraints are checked here.
                statements(
                    for: value, optional: false, type: target, constraints: named.constraints, path: path,
                    depth: depth, into: &p)
            case .object, .union: p.line("try \(value).validate(at: \(path))")
            }
        }
    }

    /// The call of the runtime check for `check` on `value`.
    private func call(_ check: IRCheck, _ value: String, _ path: String) -> String {
        let arguments: String
        switch check {
        case .minimum(let bound): arguments = "minimum(\(value), \(SwiftLiteral.string(bound))"
        case .maximum(let bound): arguments = "maximum(\(value), \(SwiftLiteral.string(bound))"
        case .exclusiveMinimum(let bound): arguments = "exclusiveMinimum(\(value), \(SwiftLiteral.string(bound))"
        case .exclusiveMaximum(let bound): arguments = "exclusiveMaximum(\(value), \(SwiftLiteral.string(bound))"
        case .multipleOf(let divisor): arguments = "multipleOf(\(value), \(SwiftLiteral.string(divisor))"
        case .minLength(let count): arguments = "minLength(\(value), \(count)"
        case .maxLength(let count): arguments = "maxLength(\(value), \(count)"
        case .pattern(let pattern): arguments = "pattern(\(value), \(SwiftLiteral.string(pattern))"
        case .minItems(let count): arguments = "minItems(\(value).count, \(count)"
        case .maxItems(let count): arguments = "maxItems(\(value).count, \(count)"
        case .uniqueItems: arguments = "uniqueItems(\(value)"
        }
        return arguments + ", at: \(path))"
    }

    /// A wire name as a JSON pointer token (RFC 6901).
    private static func escapedToken(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
