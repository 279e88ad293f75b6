/// A scalar type.
enum IRScalar: Sendable, Equatable {
    case string, int, int32, int64, float, double, decimal, bool, uuid, dateTime, date, uri, bytes
    /// Any JSON value (a schema without a type, in a JSON family).
    case jsonValue
    /// An element's content exactly as received (a schema without a type, in an XML family).
    case xmlFragment

    /// The fully qualified Swift type.
    var swiftType: String {
        switch self {
        case .string: return "Swift.String"
        case .int: return "Swift.Int"
        case .int32: return "Swift.Int32"
        case .int64: return "Swift.Int64"
        case .float: return "Swift.Float"
        case .double: return "Swift.Double"
        case .decimal: return "HealthSignInCore.JSONNumber"
        case .bool: return "Swift.Bool"
        case .uuid: return "Foundation.UUID"
        case .dateTime: return "Foundation.Date"
        case .date: return "HealthSignInCore.LocalDate"
        case .uri: return "Foundation.URL"
        case .bytes: return "Foundation.Data"
        case .jsonValue: return "HealthSignInCore.JSONValue"
        case .xmlFragment: return "HealthSignInCore.XMLFragment"
        }
    }

    /// Whether it has a wire text (it can be an attribute, a text node, a query field); any-value types do not.
    var hasWireText: Bool { self != .jsonValue && self != .xmlFragment }

    /// Whether JSON carries it as a string in its wire spelling rather than natively.
    var isTextInJSON: Bool {
        switch self {
        case .uuid, .dateTime, .date, .uri, .bytes: return true
        case .string, .int, .int32, .int64, .float, .double, .decimal, .bool, .jsonValue, .xmlFragment: return false
        }
    }

    /// Whether JSON may carry it as a number or boolean that a lenient reader also accepts as a string.
    var isLenientInJSON: Bool {
        switch self {
        case .int, .int32, .int64, .float, .double, .decimal, .bool: return true
        case .string, .uuid, .dateTime, .date, .uri, .bytes, .jsonValue, .xmlFragment: return false
        }
    }
}

/// The name of a generated type, qualified by its enclosing types: how references and declarations point to a type.
struct IRTypeName: Sendable, Hashable, CustomStringConvertible {
    /// The qualified Swift name, e.g. `GetAuthorizedPeople.Request.Parameters`.
    let qualified: String

    /// The name `qualified`.
    init(_ qualified: String) { self.qualified = qualified }

    /// The simple name, e.g. `Parameters`.
    var simple: String { qualified.split(separator: ".").last.map(String.init) ?? qualified }

    var description: String { qualified }
}

/// A reference to a type.
indirect enum IRTypeRef: Sendable, Equatable {
    case scalar(IRScalar, sensitive: Bool)
    case named(IRTypeName)
    case array(IRTypeRef)
    /// A JSON object of any keys, all of whose values have one type (`additionalProperties`).
    case map(IRTypeRef)

    /// The Swift spelling.
    var swiftType: String {
        switch self {
        case .scalar(let scalar, _): return scalar.swiftType
        case .named(let type): return type.qualified
        case .array(let element): return "[" + element.swiftType + "]"
        case .map(let value): return "[Swift.String: " + value.swiftType + "]"
        }
    }
}

/// A generated type.
struct IRType: Sendable, Equatable {
    /// What kind of declaration it is.
    enum Kind: Sendable, Equatable {
        case object([IRProperty])
        case enumeration([IREnumCase])
        case union(IRUnion)
        case alias(IRTypeRef)
    }

    /// The simple Swift name, e.g. `Parameters`.
    let name: String
    /// The name qualified by its enclosing types, e.g. `GetAuthorizedPeople.Request.Parameters`.
    let qualifiedName: IRTypeName
    /// The enclosing type's qualified name, or nil for a top-level type.
    let parent: IRTypeName?
    var kind: Kind
    let documentation: String?
    let provenance: Provenance
    /// The XML namespace written on the element (when it is a document element).
    var xmlNamespace: String?
    var xmlPrefix: String?
    /// The directions of JSON coding the type needs, set from how methods and error formats use it.
    var json: IRDirections = []
    /// The directions of XML coding the type needs.
    var xml: IRDirections = []
    /// For an object with `properties` and `additionalProperties`: the type of the members beyond its properties,
    /// kept in `additionalProperties: [String: Value]`.
    var extraMembers: IRTypeRef?
    /// What each of those members must satisfy.
    var extraConstraints: IRConstraints = .none
    /// Whether the object allows no members beyond its declared properties (`additionalProperties: false`).
    var isClosed = false
    /// For an object with `allOf`: the wire names of the schema's own properties, the only ones
    /// `additionalProperties` counts as declared (the parts' members are additional to it). Nil: every property.
    var declaredNames: Set<String>?
    /// For an alias of a scalar, array or map: what its values must satisfy.
    var constraints: IRConstraints = .none
    /// Whether it is (or is a variant of) a top-level http request, which needs form/query/header encoding.
    var needsHTTPFields = false
    /// Whether a value of this type contains a sensitive field somewhere.
    var holdsSensitive = false
    /// Types declared inside this one (inline objects, enums and unions of its properties), in order.
    var nestedTypes: [IRTypeName] = []
    /// The family that declares the type when it is another family's, referred to and never emitted here.
    var module: String?
    /// For an object that extends another family's object (`allOf` with a reference to it): that object, which the
    /// struct holds, and whose members beyond its properties it reads its own from.
    var base: IRTypeName?

    /// Where the type's schema starts, for diagnostics.
    let sourceLocation: SourceLocation

    init(
        name: String, parent: IRTypeName?, kind: Kind, documentation: String?, provenance: Provenance,
        location: SourceLocation
    ) {
        self.sourceLocation = location
        self.name = name
        self.parent = parent
        self.qualifiedName = IRTypeName(parent.map { $0.qualified + "." + name } ?? name)
        self.kind = kind
        self.documentation = documentation
        self.provenance = provenance
    }

    /// The stored properties of an object (nothing for other kinds).
    var storedProperties: [IRProperty] {
        guard case .object(let properties) = kind else { return [] }
        return properties.filter(\.isStored)
    }

    /// All properties of an object.
    var properties: [IRProperty] {
        guard case .object(let properties) = kind else { return [] }
        return properties
    }

    /// Whether it is another family's type, declared there.
    var isImported: Bool { module != nil }

    /// Whether it is an object.
    var isObject: Bool {
        if case .object = kind { return true }
        return false
    }

    /// Whether it is a `oneOf` union.
    var isUnion: Bool {
        if case .union = kind { return true }
        return false
    }

    /// Whether it is an object with no stored properties: every field is constant, bound or itself fixed.
    var isFixed: Bool {
        guard case .object = kind else { return false }
        return storedProperties.isEmpty
    }
}

/// Every type of a family by name: where references are followed.
struct IRTypeTable: Sendable, Equatable {
    private var types: [IRTypeName: IRType] = [:]

    /// The type named `name`.
    subscript(name: IRTypeName) -> IRType? { types[name] }

    /// How many types there are.
    var count: Int { types.count }

    /// Every type's name, sorted.
    var names: [IRTypeName] { types.keys.sorted { $0.qualified < $1.qualified } }

    /// Adds `type`; false (and nothing changes) when a type of its name is already there.
    mutating func insert(_ type: IRType) -> Bool {
        guard types[type.qualifiedName] == nil else { return false }
        types[type.qualifiedName] = type
        return true
    }

    /// Changes the type named `name`, if there is one.
    mutating func update(_ name: IRTypeName, _ change: (inout IRType) -> Void) {
        guard var type = types.removeValue(forKey: name) else { return }
        change(&type)
        types[name] = type
    }

    /// Removes the type named `name`.
    mutating func remove(_ name: IRTypeName) { types[name] = nil }

    /// `reference` with aliases followed (an alias cycle, which the resolver reports, stops where it repeats).
    func resolved(_ reference: IRTypeRef) -> IRTypeRef {
        var current = reference
        var seen: Set<IRTypeName> = []
        while case .named(let name) = current, seen.insert(name).inserted, case .alias(let target)? = types[name]?.kind
        {
            current = target
        }
        return current
    }

    /// The named type `reference` refers to, aliases followed.
    func namedType(_ reference: IRTypeRef) -> IRType? {
        if case .named(let name) = resolved(reference) { return types[name] }
        return nil
    }

    /// Whether the value itself is a sensitive scalar.
    func isSensitiveScalar(_ reference: IRTypeRef) -> Bool {
        if case .scalar(_, true) = resolved(reference) { return true }
        return false
    }

    /// Whether the value is a scalar or an enum (something with a wire text).
    func isScalarLike(_ reference: IRTypeRef) -> Bool {
        switch resolved(reference) {
        case .scalar(let scalar, _): return scalar.hasWireText
        case .named(let name): if case .enumeration? = types[name]?.kind { return true } else { return false }
        case .array, .map: return false
        }
    }

    /// Whether `type`'s `init()` works: every stored property is optional, has a default, or is an object whose own
    /// `init()` works.
    func hasEmptyInitializer(_ type: IRType) -> Bool { hasEmptyInitializer(type, visiting: []) }

    private func hasEmptyInitializer(_ type: IRType, visiting: Set<IRTypeName>) -> Bool {
        guard case .object = type.kind, !visiting.contains(type.qualifiedName) else { return false }
        let visiting = visiting.union([type.qualifiedName])
        return type.storedProperties.allSatisfy { property in
            if property.isOptional || property.defaultExpression != nil || property.isArrayDefaultingToEmpty {
                return true
            }
            guard let nested = namedType(property.type) else { return false }
            return hasEmptyInitializer(nested, visiting: visiting)
        }
    }

    /// The named types `names`, in order.
    func types(_ names: [IRTypeName]) -> [IRType] { names.compactMap { types[$0] } }
}
