import Foundation
import HealthSignInSchemaSemantics

extension TypeResolver {
    /// What a value of `schema` must satisfy: the validation keywords of the schema itself (each allowed only on the
    /// kind of value it measures) and, for an inline array or map, those of its `items` or `additionalProperties`,
    /// at any depth.
    mutating func constraints(of schema: SchemaNode, on type: IRTypeRef) -> IRConstraints {
        if schema.ref != nil {
            for (keyword, location, pointer) in schema.constraints.present {
                reject(keyword, location, pointer, "beside \"$ref\", expected it on the referenced type")
            }
            return .none
        }
        // `oneOf` of one schema and null: the schema itself.
        if let variants = schema.oneOf, variants.count == 1, let only = variants.first {
            let inner = constraints(of: only, on: type)
            return .of(checks(schema.constraints, on: type) + inner.checks, elements: inner.elements)
        }
        var elements = IRConstraints.none
        switch type {
        case .array(let element): elements = schema.items.map { constraints(of: $0, on: element) } ?? .none
        case .map(let value): elements = schema.additionalProperties.map { constraints(of: $0, on: value) } ?? .none
        case .scalar, .named: break
        }
        return .of(checks(schema.constraints, on: type), elements: elements)
    }

    /// The checks of a schema's own validation keywords on a value of `type`.
    private mutating func checks(_ constraints: ConstraintsNode, on type: IRTypeRef) -> [IRCheck] {
        guard !constraints.isEmpty else { return [] }
        var checks: [IRCheck] = []
        let resolved = table.resolved(type)
        let bounds: [(Located<(value: Double, literal: String)>?, String, (String) -> IRCheck)] = [
            (constraints.minimum, "minimum", IRCheck.minimum), (constraints.maximum, "maximum", IRCheck.maximum),
            (constraints.exclusiveMinimum, "exclusiveMinimum", IRCheck.exclusiveMinimum),
            (constraints.exclusiveMaximum, "exclusiveMaximum", IRCheck.exclusiveMaximum),
            (constraints.multipleOf, "multipleOf", IRCheck.multipleOf),
        ]
        for case (let bound?, let keyword, let check) in bounds {
            switch resolved {
            case .scalar(.int, _), .scalar(.int32, _), .scalar(.int64, _), .scalar(.float, _), .scalar(.double, _),
                .scalar(.decimal, _):
                checks.append(check(bound.value.literal))
            default:
                reject(
                    keyword, bound.location, bound.pointer,
                    "on \(describe(type)), expected it only on integers and numbers")
            }
        }
        let isString: Bool = {
            if case .scalar(.string, _) = resolved { return true } else { return false }
        }()
        for case (let count?, let keyword, let check) in [
            (constraints.minLength, "minLength", IRCheck.minLength),
            (constraints.maxLength, "maxLength", IRCheck.maxLength),
        ] {
            if isString {
                checks.append(check(count.value))
            } else {
                reject(keyword, count.location, count.pointer, "on \(describe(type)), expected it only on strings")
            }
        }
        if let pattern = constraints.pattern {
            if !isString {
                reject(
                    "pattern", pattern.location, pattern.pointer, "on \(describe(type)), expected it only on strings")
            } else if let problem = Self.patternProblem(pattern.value) {
                reject(
                    "pattern", pattern.location, pattern.pointer, "is not an ECMA-262 regular expression: \(problem)")
            } else {
                checks.append(.pattern(pattern.value))
            }
        }
        let isArray: Bool = {
            if case .array = resolved { return true } else { return false }
        }()
        for case (let count?, let keyword, let check) in [
            (constraints.minItems, "minItems", IRCheck.minItems), (constraints.maxItems, "maxItems", IRCheck.maxItems),
        ] {
            if isArray {
                checks.append(check(count.value))
            } else {
                reject(keyword, count.location, count.pointer, "on \(describe(type)), expected it only on arrays")
            }
        }
        if let unique = constraints.uniqueItems {
            if !isArray {
                reject(
                    "uniqueItems", unique.location, unique.pointer, "on \(describe(type)), expected it only on arrays")
            } else if unique.value, case .array(let item) = resolved, !keepsEveryDistinction(item) {
                reject(
                    "uniqueItems", unique.location, unique.pointer,
                    "on an array of \(describe(item)), expected items whose Swift values keep every difference of "
                        + "their JSON (strings without a format, numbers, booleans, enums, any value, arrays and maps "
                        + "of these): two distinct JSON items could read as equal values")
            } else if unique.value {
                checks.append(.uniqueItems)
            }
        }
        return checks
    }

    /// Whether two values of `type` are equal only when their JSON is equal as JSON Schema compares it, so that
    /// `uniqueItems` can be checked on the values: not a struct (an absent and a null member read alike, as do an
    /// absent and an empty array) nor a value JSON carries as text (`2024-01-01T00:00:00Z` and
    /// `2024-01-01T00:00:00.000Z` are one date).
    private func keepsEveryDistinction(_ type: IRTypeRef) -> Bool {
        switch table.resolved(type) {
        case .scalar(let scalar, _): return !scalar.isTextInJSON && scalar != .xmlFragment
        case .array(let element), .map(let element): return keepsEveryDistinction(element)
        case .named:
            if case .enumeration? = table.namedType(type)?.kind { return true }
            return false
        }
    }

    /// Why `pattern` is not an ECMA-262 regular expression (u flag), or nil when it is one.
    static func patternProblem(_ pattern: String) -> String? {
        do {
            _ = try ECMAPattern(pattern)
            return nil
        } catch {
            return error.description
        }
    }

    /// Reports validation keywords where nothing checks them.
    mutating func rejectChecks(_ constraints: ConstraintsNode, where place: String) {
        for (keyword, location, pointer) in constraints.present {
            reject(keyword, location, pointer, place + ", expected validation keywords on values only")
        }
    }

    private mutating func reject(_ keyword: String, _ location: SourceLocation, _ pointer: String, _ problem: String) {
        diagnostics.error("\"\(keyword)\" \(problem)", at: location, pointer: pointer)
    }
}
