import HealthSignInSchemaSemantics

extension TypeAnalysis {
    /// Whether a `default` satisfies its own schema's constraints (bounds, lengths, patterns, items, uniqueness),
    /// at any depth, reporting the first it breaks: a default is documentation, and documentation that the schema
    /// itself refuses would mislead.
    mutating func checkDefault(_ node: JSONNode, type: IRTypeRef, constraints: IRConstraints) -> Bool {
        for check in constraints.checks {
            if let problem = Self.violation(of: check, by: node) {
                diagnostics.error(
                    "\"default\" \(problem), which its own schema does not allow", at: node.location,
                    pointer: node.pointer)
                return false
            }
        }
        switch type {
        case .scalar: return true
        case .array(let element):
            return (node.elements ?? []).allSatisfy {
                checkDefault($0, type: element, constraints: constraints.elements)
            }
        case .map(let element):
            return (node.members ?? []).allSatisfy {
                checkDefault($0.value, type: element, constraints: constraints.elements)
            }
        case .named(let name):
            guard let named = table[name] else { return true }
            switch named.kind {
            case .alias(let target): return checkDefault(node, type: target, constraints: named.constraints)
            case .object(let properties):
                for property in properties where property.isStored {
                    guard let member = node.members?.last(where: { $0.key == property.wireName }) else { continue }
                    if !checkDefault(member.value, type: property.type, constraints: property.constraints) {
                        return false
                    }
                }
                return true
            case .enumeration, .union: return true
            }
        }
    }

    /// How `node` breaks `check`, or nil when it satisfies it (or the check does not apply to its JSON type, as
    /// JSON Schema's keywords do not).
    private static func violation(of check: IRCheck, by node: JSONNode) -> String? {
        switch (check, node.value) {
        case (.minimum(let bound), .number(_, let literal, _)):
            return compare(literal, bound) { $0 >= $1 } ? nil : "is \(literal), less than the minimum \(bound)"
        case (.maximum(let bound), .number(_, let literal, _)):
            return compare(literal, bound) { $0 <= $1 } ? nil : "is \(literal), more than the maximum \(bound)"
        case (.exclusiveMinimum(let bound), .number(_, let literal, _)):
            return compare(literal, bound) { $0 > $1 } ? nil : "is \(literal), not more than \(bound)"
        case (.exclusiveMaximum(let bound), .number(_, let literal, _)):
            return compare(literal, bound) { $0 < $1 } ? nil : "is \(literal), not less than \(bound)"
        case (.multipleOf(let divisor), .number(_, let literal, _)):
            return compare(literal, divisor) { $0.isMultiple(of: $1) }
                ? nil : "is \(literal), not a multiple of \(divisor)"
        case (.minLength(let count), .string(let text)):
            return CodePoints.count(text) >= count ? nil : "is shorter than \(count) characters"
        case (.maxLength(let count), .string(let text)):
            return CodePoints.count(text) <= count ? nil : "is longer than \(count) characters"
        case (.pattern(let pattern), .string(let text)):
            return ((try? ECMAPattern(pattern).matches(text)) ?? false) ? nil : "does not match the pattern \(pattern)"
        case (.minItems(let count), .array(let items)):
            return items.count >= count ? nil : "has fewer than \(count) items"
        case (.maxItems(let count), .array(let items)):
            return items.count <= count ? nil : "has more than \(count) items"
        case (.uniqueItems, .array(let items)):
            for (index, item) in items.enumerated() where items[..<index].contains(where: { $0.equals(item) }) {
                return "repeats its item \(index)"
            }
            return nil
        default: return nil
        }
    }

    private static func compare(
        _ literal: String, _ bound: String, _ holds: (DecimalNumber, DecimalNumber) -> Bool
    ) -> Bool {
        guard let value = DecimalNumber(jsonText: literal), let limit = DecimalNumber(jsonText: bound) else {
            return false
        }
        return holds(value, limit)
    }
}

extension JSONNode {
    /// Whether the two values are equal as JSON Schema compares instances: numbers by value, strings by code points,
    /// arrays item by item, objects by their members whatever their order.
    func equals(_ other: JSONNode) -> Bool {
        switch (value, other.value) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(_, let left, _), .number(_, let right, _)):
            return DecimalNumber(jsonText: left) == DecimalNumber(jsonText: right)
        case (.string(let left), .string(let right)): return CodePoints.equal(left, right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.equals($1) }
        case (.object(let left), .object(let right)):
            let keys = Set(left.map { Array($0.key.unicodeScalars) })
            guard keys == Set(right.map { Array($0.key.unicodeScalars) }) else { return false }
            return left.allSatisfy { member in
                right.last { CodePoints.equal($0.key, member.key) }.map { $0.value.equals(member.value) } ?? false
            }
        default: return false
        }
    }
}
