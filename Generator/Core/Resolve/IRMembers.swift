import HealthSignInSchemaSemantics

/// How a property's value is provided.
enum IRStorage: Sendable, Equatable {
    /// A field of the model.
    case stored
    /// A fixed string, written on every request and checked on JSON responses.
    case constant(String)
    /// A value the client supplies from the call's context.
    case bound(BindName)
    /// An object with no stored fields, written from `Type()`.
    case fixed
}

/// A constraint `validate()` checks a value against.
/// A check on a value: `minimum`, `maxLength`, `pattern`, `uniqueItems`, …, with the meaning the runtime's
/// validation gives it (see `SchemaKeyword`).
typealias IRCheck = SchemaKeyword

extension IRCheck {
    /// Whether an empty array fails it, so that an array the schema does not require must keep absent and empty
    /// apart (`minItems` of 1 or more).
    var tellsAbsentFromEmpty: Bool {
        if case .minItems(let count) = self { return count > 0 }
        return false
    }
}

/// What a value must satisfy: its own checks and, for an array or a map, what each element or value must.
indirect enum IRConstraints: Sendable, Equatable {
    /// Nothing.
    case none
    /// `checks` on the value itself, `elements` on each element of an array or value of a map.
    case some(checks: [IRCheck], elements: IRConstraints)

    /// The value's own checks.
    var checks: [IRCheck] {
        if case .some(let checks, _) = self { return checks }
        return []
    }

    /// What each element or value must satisfy.
    var elements: IRConstraints {
        if case .some(_, let elements) = self { return elements }
        return .none
    }

    /// Whether nothing is checked, at any depth.
    var isEmpty: Bool { checks.isEmpty && (elements == .none || elements.isEmpty) }

    /// `checks` with `elements`, or ``none`` when both are empty.
    static func of(_ checks: [IRCheck], elements: IRConstraints) -> IRConstraints {
        checks.isEmpty && elements.isEmpty ? .none : .some(checks: checks, elements: elements)
    }
}

/// One property of an object.
struct IRProperty: Sendable, Equatable {
    var wireName: String
    var swiftName: String
    var type: IRTypeRef
    var storage: IRStorage
    /// Whether the Swift property is optional (not required, no default, not an array).
    var isOptional: Bool
    /// Whether the property is required in the schema.
    var isRequired: Bool
    /// The Swift expression of the schema's default.
    var defaultExpression: String?
    var xmlKind: XMLNodeKind
    var xmlName: String
    /// For an array wrapped in one element: the name of each item's element.
    var xmlItemName: String?
    var aliases: [String]
    /// For a constant: other values a response may carry in its place.
    var alsoAccepts: [String] = []
    var location: ParameterLocation?
    var acceptSingle: Bool
    /// The wire name of the sibling this element signs.
    var signs: String?
    /// What the value must satisfy.
    var constraints: IRConstraints = .none
    /// Whether JSON may also spell the integer, number or boolean as a string (`acceptString`).
    var acceptsString = false
    /// Whether the schema allows null (`[T, "null"]`, or `oneOf` with a null variant).
    var isNullable = false
    /// Whether the property is stored out of line (`@Indirect`): it closes a cycle of types that hold each other
    /// through single values, which a struct cannot do inline.
    var isIndirect = false
    /// Whether it holds the other family's object its type extends (see ``IRType/base``): it has no key of its own,
    /// since it is read from the whole object.
    var holdsBase = false
    var documentation: String?
    var provenance: Provenance
    /// The schema's `default`, before it is turned into ``defaultExpression``.
    var defaultNode: JSONNode?
    /// Where the property's schema starts, for diagnostics.
    var sourceLocation: SourceLocation

    /// Whether it is a field of the model.
    var isStored: Bool {
        if case .stored = storage { return true }
        return false
    }

    /// Whether it is an array the schema does not require that reads as empty when absent (no `minItems` tells the
    /// two apart, so it is not optional).
    var isArrayDefaultingToEmpty: Bool {
        if case .array = type, !isRequired, !isOptional { return true }
        return false
    }

    /// The Swift type of the stored property.
    var swiftType: String { type.swiftType + (isOptional ? "?" : "") }
}

/// One case of a generated open enum.
struct IREnumCase: Sendable, Equatable {
    var wireValue: String
    var swiftName: String
}

/// A `oneOf` union.
struct IRUnion: Sendable, Equatable {
    /// The discriminating property's wire name, when there is one.
    var discriminator: String?
    var variants: [IRVariant]
}

/// One variant of a union.
struct IRVariant: Sendable, Equatable {
    var caseName: String
    var type: IRTypeRef
    /// The discriminator's value for this variant.
    var discriminatorValue: String?
    /// What a value of this variant must satisfy beyond its type.
    var constraints: IRConstraints = .none
}
