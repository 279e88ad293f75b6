/// A JSON value as JSON Schema's keywords see it, whichever type holds it: the generator's schema nodes and the
/// runtime's JSON values are both instances, so that both compare and check them by one definition.
public protocol SchemaInstance {
    /// The value's JSON type and content.
    var schemaShape: SchemaInstanceShape<Self> { get }
}

/// What a ``SchemaInstance`` is: one of JSON's six types, with its members as the holder has them.
public enum SchemaInstanceShape<Member> {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number, by its JSON text (compared by decimal value).
    case number(text: String)
    /// A string.
    case string(String)
    /// An array's items, in order.
    case array([Member])
    /// An object's members in the holder's order; a repeated name counts by its last member.
    case object([(name: String, value: Member)])
}

extension SchemaInstance {
    /// Whether the two values are equal as JSON Schema compares instances (`const`, `enum`, `uniqueItems`): numbers
    /// by value (1 and 1.0 are equal), strings and member names by code points, arrays item by item, objects by their
    /// members whatever their order.
    public func isSchemaEqual(to other: Self) -> Bool {
        switch (schemaShape, other.schemaShape) {
        case (.null, .null): return true
        case (.bool(let left), .bool(let right)): return left == right
        case (.number(let left), .number(let right)):
            return DecimalNumber(jsonText: left) == DecimalNumber(jsonText: right)
        case (.string(let left), .string(let right)): return CodePoints.equal(left, right)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.isSchemaEqual(to: $1) }
        case (.object(let left), .object(let right)):
            let leftMembers = Self.lastMembers(left)
            let rightMembers = Self.lastMembers(right)
            guard leftMembers.count == rightMembers.count else { return false }
            return leftMembers.allSatisfy { name, value in
                rightMembers[name].map { value.isSchemaEqual(to: $0) } ?? false
            }
        default: return false
        }
    }

    /// An object's members by name's code points, the last of a repeated name winning.
    private static func lastMembers(_ members: [(name: String, value: Self)]) -> [[Unicode.Scalar]: Self] {
        var byName: [[Unicode.Scalar]: Self] = [:]
        for member in members { byName[Array(member.name.unicodeScalars)] = member.value }
        return byName
    }

    /// The index of the first item equal, as ``isSchemaEqual(to:)`` compares, to an item before it; nil when the
    /// items are unique (`uniqueItems`).
    public static func firstRepeat(in items: [Self]) -> Int? {
        items.indices.first { index in items[..<index].contains { $0.isSchemaEqual(to: items[index]) } }
    }
}
