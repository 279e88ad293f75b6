import Foundation

extension TypeResolver {
    /// The checks of a property's validation keywords, each allowed only on the kind of value it measures.
    mutating func checks(_ constraints: ConstraintsNode, on type: IRTypeRef) -> [IRCheck] {
        guard !constraints.isEmpty else { return [] }
        var checks: [IRCheck] = []
        let bounds: [(Located<(value: Double, literal: String)>?, String, (String) -> IRCheck)] = [
            (constraints.minimum, "minimum", IRCheck.minimum), (constraints.maximum, "maximum", IRCheck.maximum),
            (constraints.exclusiveMinimum, "exclusiveMinimum", IRCheck.exclusiveMinimum),
        ]
        for case (let bound?, let keyword, let check) in bounds {
            switch table.resolved(type) {
            case .scalar(.int, _), .scalar(.int32, _), .scalar(.int64, _):
                if bound.value.value.rounded() == bound.value.value, let integer = Int64(exactly: bound.value.value) {
                    checks.append(check(String(integer)))
                } else {
                    reject(
                        keyword, bound.location, bound.pointer,
                        "\(bound.value.literal) on an integer, expected a whole number")
                }
            case .scalar(.float, _), .scalar(.double, _):
                checks.append(check(bound.value.literal))
            default:
                reject(
                    keyword, bound.location, bound.pointer,
                    "on \(describe(type)), expected it only on integers and numbers")
            }
        }
        let isString: Bool = {
            if case .scalar(.string, _) = table.resolved(type) { return true } else { return false }
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
            } else if (try? NSRegularExpression(pattern: pattern.value)) == nil {
                reject(
                    "pattern", pattern.location, pattern.pointer, "is not a regular expression this platform can read")
            } else {
                checks.append(.pattern(pattern.value))
            }
        }
        for case (let count?, let keyword, let check) in [
            (constraints.minItems, "minItems", IRCheck.minItems), (constraints.maxItems, "maxItems", IRCheck.maxItems),
        ] {
            if isArray(type) {
                checks.append(check(count.value))
            } else {
                reject(keyword, count.location, count.pointer, "on \(describe(type)), expected it only on arrays")
            }
        }
        return checks
    }

    /// Reports validation keywords where nothing checks them.
    mutating func rejectChecks(_ constraints: ConstraintsNode, where place: String) {
        let present: [(String, SourceLocation, String)?] = [
            constraints.minimum.map { ("minimum", $0.location, $0.pointer) },
            constraints.maximum.map { ("maximum", $0.location, $0.pointer) },
            constraints.exclusiveMinimum.map { ("exclusiveMinimum", $0.location, $0.pointer) },
            constraints.minLength.map { ("minLength", $0.location, $0.pointer) },
            constraints.maxLength.map { ("maxLength", $0.location, $0.pointer) },
            constraints.pattern.map { ("pattern", $0.location, $0.pointer) },
            constraints.minItems.map { ("minItems", $0.location, $0.pointer) },
            constraints.maxItems.map { ("maxItems", $0.location, $0.pointer) },
        ]
        for case (let keyword, let location, let pointer)? in present {
            reject(keyword, location, pointer, place + ", expected validation keywords only on object properties")
        }
    }

    private mutating func reject(_ keyword: String, _ location: SourceLocation, _ pointer: String, _ problem: String) {
        diagnostics.error("\"\(keyword)\" \(problem)", at: location, pointer: pointer)
    }
}
