import HealthSignInSchemaSemantics

extension TypeAnalysis {
    /// Whether a `default` satisfies its own schema's constraints (bounds, lengths, patterns, items, uniqueness),
    /// at any depth, reporting the first it breaks: a default is documentation, and documentation that the schema
    /// itself refuses would mislead.
    mutating func checkDefault(_ node: JSONNode, type: IRTypeRef, constraints: IRConstraints) -> Bool {
        for check in constraints.checks {
            if let requirement = check.violation(by: node) {
                diagnostics.error(
                    "\"default\" is not \(requirement), as its own schema requires", at: node.location,
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
}

extension JSONNode: SchemaInstance {
    /// The node's JSON type and content, for JSON Schema's keywords.
    package var schemaShape: SchemaInstanceShape<JSONNode> {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(_, let literal, _): return .number(text: literal)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items)
        case .object(let members): return .object(members.map { ($0.key, $0.value) })
        }
    }
}
