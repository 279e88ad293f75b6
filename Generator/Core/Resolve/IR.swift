/// The intermediate representation: families, methods and types, resolved and named, knowing nothing of JSON.
///
/// Emitters read only this. Every part is an immutable value: a type refers to another by its ``IRTypeName``, and each
/// family's ``IRTypeTable`` holds every type by name, so recursive types need no shared mutable nodes.

/// Every family to generate.
public struct IRModule: Sendable, Equatable {
    /// The families, sorted by name.
    public var families: [IRFamily]
}

/// One protocol family: one Swift module.
public struct IRFamily: Sendable, Equatable {
    /// The family's name, its schema directory's, e.g. `HealthVault`.
    public var name: String
    /// The Swift module its code is generated into, which other families' code imports, e.g.
    /// `HealthSignInHealthVault`; the family's name unless `protocol.json` names one.
    public var module: String
    /// The family's schema directory as shown to users, e.g. `Schemas/HealthVault`.
    public var directory: String
    /// What the protocol is.
    public var description: String
    /// The binding kind and its settings.
    public var binding: IRFamilyBinding
    /// The named base URLs.
    public var servers: [IRServer]
    /// The shared types of `types.json`, in declaration order.
    public var types: [IRTypeName]
    /// The methods, sorted by name.
    public var methods: [IRMethod]
    /// The error formats, in declaration order.
    public var errors: [IRErrorFormat]
    /// Every type of the family, nested ones and those of methods included, and the types of other families it
    /// refers to (see ``IRType/module``).
    public var typeTable: IRTypeTable
    /// The other families whose types or error formats this one uses, each a module its code imports, by name.
    public var dependencies: [IRDependency] = []

    /// The client struct's name, e.g. `HealthVaultAPIClient`.
    public var clientName: String { name + "APIClient" }
}

/// Another family that a family's schemas refer to.
public struct IRDependency: Sendable, Equatable {
    /// The family.
    public var family: String
    /// The family's module, which generated code imports.
    public var module: String
    /// Whether the types used from it are read or written as XML, whose conformances are its
    /// `@_spi(Generated)` interface.
    public var usesSPI: Bool
}

/// A family's binding kind.
public enum IRFamilyBinding: Sendable, Equatable {
    /// HealthVault's XML envelope.
    case healthvault(IRHealthVaultSettings)
    /// Plain HTTP.
    case http(IRHTTPSettings)
}

/// Settings of the healthvault binding.
public struct IRHealthVaultSettings: Sendable, Equatable {
    public var language: String?
    public var country: String?
    public var messageTTL: Int
    public var clientVersion: String
    /// The error format a non-zero status becomes.
    public var statusError: String
}

/// Settings of the http binding.
public struct IRHTTPSettings: Sendable, Equatable {
    public var apiKeyHeader: String?
    public var headers: [HTTPHeaderField]
    public var xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
public struct IRServer: Sendable, Equatable {
    public var name: String
    public var description: String
    public var defaultURL: String?
}

/// Where a declaration came from, for `- Remark: Generated from …`.
public struct Provenance: Sendable, Equatable {
    /// The schema file, e.g. `Schemas/HealthVault/types.json`.
    public var file: String
    /// The JSON pointer inside it.
    public var pointer: String

    /// `Schemas/HealthVault/types.json#/$defs/PersonInfo`
    public var text: String { file + "#" + pointer }
}

/// A scalar type.
public enum IRScalar: Sendable, Equatable {
    case string, int, int32, int64, float, double, bool, uuid, dateTime, date, uri, bytes
    /// Any JSON value (a schema without a type, in a JSON family).
    case jsonValue
    /// An element's content exactly as received (a schema without a type, in an XML family).
    case xmlFragment

    /// The fully qualified Swift type.
    public var swiftType: String {
        switch self {
        case .string: return "Swift.String"
        case .int: return "Swift.Int"
        case .int32: return "Swift.Int32"
        case .int64: return "Swift.Int64"
        case .float: return "Swift.Float"
        case .double: return "Swift.Double"
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
    public var hasWireText: Bool { self != .jsonValue && self != .xmlFragment }

    /// Whether JSON carries it as a string in its wire spelling rather than natively.
    public var isTextInJSON: Bool {
        switch self {
        case .uuid, .dateTime, .date, .uri, .bytes: return true
        case .string, .int, .int32, .int64, .float, .double, .bool, .jsonValue, .xmlFragment: return false
        }
    }

    /// Whether JSON may carry it as a number or boolean that a lenient reader also accepts as a string.
    public var isLenientInJSON: Bool {
        switch self {
        case .int, .int32, .int64, .float, .double, .bool: return true
        case .string, .uuid, .dateTime, .date, .uri, .bytes, .jsonValue, .xmlFragment: return false
        }
    }
}

/// The name of a generated type, qualified by its enclosing types: how references and declarations point to a type.
public struct IRTypeName: Sendable, Hashable, CustomStringConvertible {
    /// The qualified Swift name, e.g. `GetAuthorizedPeople.Request.Parameters`.
    public let qualified: String

    /// The name `qualified`.
    public init(_ qualified: String) { self.qualified = qualified }

    /// The simple name, e.g. `Parameters`.
    public var simple: String { qualified.split(separator: ".").last.map(String.init) ?? qualified }

    public var description: String { qualified }
}

/// A reference to a type.
public indirect enum IRTypeRef: Sendable, Equatable {
    case scalar(IRScalar, sensitive: Bool)
    case named(IRTypeName)
    case array(IRTypeRef)
    /// A JSON object of any keys, all of whose values have one type (`additionalProperties`).
    case map(IRTypeRef)

    /// The Swift spelling.
    public var swiftType: String {
        switch self {
        case .scalar(let scalar, _): return scalar.swiftType
        case .named(let type): return type.qualified
        case .array(let element): return "[" + element.swiftType + "]"
        case .map(let value): return "[Swift.String: " + value.swiftType + "]"
        }
    }
}

/// A generated type.
public struct IRType: Sendable, Equatable {
    /// What kind of declaration it is.
    public enum Kind: Sendable, Equatable {
        case object([IRProperty])
        case enumeration([IREnumCase])
        case union(IRUnion)
        case alias(IRTypeRef)
    }

    /// The simple Swift name, e.g. `Parameters`.
    public let name: String
    /// The name qualified by its enclosing types, e.g. `GetAuthorizedPeople.Request.Parameters`.
    public let qualifiedName: IRTypeName
    /// The enclosing type's qualified name, or nil for a top-level type.
    public let parent: IRTypeName?
    public internal(set) var kind: Kind
    public let documentation: String?
    public let provenance: Provenance
    /// The XML namespace written on the element (when it is a document element).
    public internal(set) var xmlNamespace: String?
    public internal(set) var xmlPrefix: String?
    /// The directions of JSON coding the type needs, set from how methods and error formats use it.
    public internal(set) var json: IRDirections = []
    /// The directions of XML coding the type needs.
    public internal(set) var xml: IRDirections = []
    /// For an object with `properties` and `additionalProperties`: the type of the members beyond its properties,
    /// kept in `additionalProperties: [String: Value]`.
    public internal(set) var extraMembers: IRTypeRef?
    /// What each of those members must satisfy.
    public internal(set) var extraConstraints: IRConstraints = .none
    /// Whether the object allows no members beyond its declared properties (`additionalProperties: false`).
    public internal(set) var isClosed = false
    /// For an object with `allOf`: the wire names of the schema's own properties, the only ones
    /// `additionalProperties` counts as declared (the parts' members are additional to it). Nil: every property.
    public internal(set) var declaredNames: Set<String>?
    /// For an alias of a scalar, array or map: what its values must satisfy.
    public internal(set) var constraints: IRConstraints = .none
    /// Whether it is (or is a variant of) a top-level http request, which needs form/query/header encoding.
    public internal(set) var needsHTTPFields = false
    /// Whether a value of this type contains a sensitive field somewhere.
    public internal(set) var holdsSensitive = false
    /// Types declared inside this one (inline objects, enums and unions of its properties), in order.
    public internal(set) var nestedTypes: [IRTypeName] = []
    /// The family that declares the type when it is another family's, referred to and never emitted here.
    public internal(set) var module: String?
    /// For an object that extends another family's object (`allOf` with a reference to it): that object, which the
    /// struct holds, and whose members beyond its properties it reads its own from.
    public internal(set) var base: IRTypeName?

    /// Where the type's schema starts, for diagnostics.
    public let sourceLocation: SourceLocation

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
    public var storedProperties: [IRProperty] {
        guard case .object(let properties) = kind else { return [] }
        return properties.filter(\.isStored)
    }

    /// All properties of an object.
    public var properties: [IRProperty] {
        guard case .object(let properties) = kind else { return [] }
        return properties
    }

    /// Whether it is another family's type, declared there.
    public var isImported: Bool { module != nil }

    /// Whether it is an object.
    public var isObject: Bool {
        if case .object = kind { return true }
        return false
    }

    /// Whether it is a `oneOf` union.
    public var isUnion: Bool {
        if case .union = kind { return true }
        return false
    }

    /// Whether it is an object with no stored properties: every field is constant, bound or itself fixed.
    public var isFixed: Bool {
        guard case .object = kind else { return false }
        return storedProperties.isEmpty
    }
}

/// Every type of a family by name: where references are followed.
public struct IRTypeTable: Sendable, Equatable {
    private var types: [IRTypeName: IRType] = [:]

    /// The type named `name`.
    public subscript(name: IRTypeName) -> IRType? { types[name] }

    /// How many types there are.
    public var count: Int { types.count }

    /// Every type's name, sorted.
    public var names: [IRTypeName] { types.keys.sorted { $0.qualified < $1.qualified } }

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
    public func resolved(_ reference: IRTypeRef) -> IRTypeRef {
        var current = reference
        var seen: Set<IRTypeName> = []
        while case .named(let name) = current, seen.insert(name).inserted, case .alias(let target)? = types[name]?.kind
        {
            current = target
        }
        return current
    }

    /// The named type `reference` refers to, aliases followed.
    public func namedType(_ reference: IRTypeRef) -> IRType? {
        if case .named(let name) = resolved(reference) { return types[name] }
        return nil
    }

    /// Whether the value itself is a sensitive scalar.
    public func isSensitiveScalar(_ reference: IRTypeRef) -> Bool {
        if case .scalar(_, true) = resolved(reference) { return true }
        return false
    }

    /// Whether the value is a scalar or an enum (something with a wire text).
    public func isScalarLike(_ reference: IRTypeRef) -> Bool {
        switch resolved(reference) {
        case .scalar(let scalar, _): return scalar.hasWireText
        case .named(let name): if case .enumeration? = types[name]?.kind { return true } else { return false }
        case .array, .map: return false
        }
    }

    /// Whether `type`'s `init()` works: every stored property is optional, has a default, or is an object whose own
    /// `init()` works.
    public func hasEmptyInitializer(_ type: IRType) -> Bool { hasEmptyInitializer(type, visiting: []) }

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
    public func types(_ names: [IRTypeName]) -> [IRType] { names.compactMap { types[$0] } }
}

/// How a property's value is provided.
public enum IRStorage: Sendable, Equatable {
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
public enum IRCheck: Sendable, Equatable {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, with the number's JSON text
    /// (compared and divided by its decimal value).
    case minimum(String)
    case maximum(String)
    case exclusiveMinimum(String)
    case exclusiveMaximum(String)
    case multipleOf(String)
    /// `minLength`, `maxLength` (in Unicode scalars, as JSON Schema counts).
    case minLength(Int)
    case maxLength(Int)
    /// `pattern`, an ECMA-262 regular expression.
    case pattern(String)
    /// `minItems`, `maxItems`, `uniqueItems`.
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
}

extension IRCheck {
    /// Whether an empty array fails it, so that an array the schema does not require must keep absent and empty
    /// apart (`minItems` of 1 or more).
    var tellsAbsentFromEmpty: Bool {
        if case .minItems(let count) = self { return count > 0 }
        return false
    }
}

/// What a value must satisfy: its own checks and, for an array or a map, what each element or value must.
public indirect enum IRConstraints: Sendable, Equatable {
    /// Nothing.
    case none
    /// `checks` on the value itself, `elements` on each element of an array or value of a map.
    case some(checks: [IRCheck], elements: IRConstraints)

    /// The value's own checks.
    public var checks: [IRCheck] {
        if case .some(let checks, _) = self { return checks }
        return []
    }

    /// What each element or value must satisfy.
    public var elements: IRConstraints {
        if case .some(_, let elements) = self { return elements }
        return .none
    }

    /// Whether nothing is checked, at any depth.
    public var isEmpty: Bool { checks.isEmpty && (elements == .none || elements.isEmpty) }

    /// `checks` with `elements`, or ``none`` when both are empty.
    static func of(_ checks: [IRCheck], elements: IRConstraints) -> IRConstraints {
        checks.isEmpty && elements.isEmpty ? .none : .some(checks: checks, elements: elements)
    }
}

/// One property of an object.
public struct IRProperty: Sendable, Equatable {
    public var wireName: String
    public var swiftName: String
    public var type: IRTypeRef
    public var storage: IRStorage
    /// Whether the Swift property is optional (not required, no default, not an array).
    public var isOptional: Bool
    /// Whether the property is required in the schema.
    public var isRequired: Bool
    /// The Swift expression of the schema's default.
    public var defaultExpression: String?
    public var xmlKind: XMLNodeKind
    public var xmlName: String
    /// For an array wrapped in one element: the name of each item's element.
    public var xmlItemName: String?
    public var aliases: [String]
    /// For a constant: other values a response may carry in its place.
    public var alsoAccepts: [String] = []
    public var location: ParameterLocation?
    public var acceptSingle: Bool
    /// The wire name of the sibling this element signs.
    public var signs: String?
    /// What the value must satisfy.
    public var constraints: IRConstraints = .none
    /// Whether JSON may also spell the integer, number or boolean as a string (`acceptString`).
    public var acceptsString = false
    /// Whether the schema allows null (`[T, "null"]`, or `oneOf` with a null variant).
    public var isNullable = false
    /// Whether it holds the other family's object its type extends (see ``IRType/base``): it has no key of its own,
    /// since it is read from the whole object.
    public var holdsBase = false
    public var documentation: String?
    public var provenance: Provenance
    /// The schema's `default`, before it is turned into ``defaultExpression``.
    var defaultNode: JSONNode?
    /// Where the property's schema starts, for diagnostics.
    var sourceLocation: SourceLocation

    /// Whether it is a field of the model.
    public var isStored: Bool {
        if case .stored = storage { return true }
        return false
    }

    /// Whether it is an object with no stored fields, checked when read but not kept.
    public var isFixedObject: Bool { storage == .fixed }

    /// Whether it is an array the schema does not require that reads as empty when absent (no `minItems` tells the
    /// two apart, so it is not optional).
    public var isArrayDefaultingToEmpty: Bool {
        if case .array = type, !isRequired, !isOptional { return true }
        return false
    }

    /// The Swift type of the stored property.
    public var swiftType: String { type.swiftType + (isOptional ? "?" : "") }
}

/// One case of a generated open enum.
public struct IREnumCase: Sendable, Equatable {
    public var wireValue: String
    public var swiftName: String
}

/// A `oneOf` union.
public struct IRUnion: Sendable, Equatable {
    /// The discriminating property's wire name, when there is one.
    public var discriminator: String?
    public var variants: [IRVariant]
}

/// One variant of a union.
public struct IRVariant: Sendable, Equatable {
    public var caseName: String
    public var type: IRTypeRef
    /// The discriminator's value for this variant.
    public var discriminatorValue: String?
    /// What a value of this variant must satisfy beyond its type.
    public var constraints: IRConstraints = .none
}

/// One method.
public struct IRMethod: Sendable, Equatable {
    /// The namespace name, e.g. `GetAuthorizedPeople`.
    public var name: String
    /// The client method's name, e.g. `getAuthorizedPeople`.
    public var clientMethodName: String
    public var documentation: String
    public var provenance: Provenance
    public var binding: IRMethodBinding
    /// The `Request` type, when the method sends one.
    public var request: IRTypeName?
    /// The `Response` type, when the method decodes one.
    public var response: IRTypeName?
    /// Types nested directly in the method's namespace (Request, Response and `$defs`), in order.
    public var namespaceTypes: [IRTypeName]
    public var paging: IRPaging?
}

/// How a method travels.
public enum IRMethodBinding: Sendable, Equatable {
    case healthvault(IRHealthVaultMethod)
    case http(IRHTTPMethod)
}

/// A healthvault method's binding.
public struct IRHealthVaultMethod: Sendable, Equatable {
    public var method: String
    public var version: Int
    public var auth: HealthVaultAuth
    public var responseNamespace: String
    public var recordScoped: Bool
    /// Whether a retry policy may send the request again.
    public var idempotent: Bool
}

/// An http method's binding.
public struct IRHTTPMethod: Sendable, Equatable {
    public var verb: HTTPVerb
    public var server: String
    /// The path split into literal text and `{name}` placeholders (as property Swift names and types).
    public var pathSegments: [IRPathSegment]
    /// Where `path` is in the schema, for diagnostics.
    var pathLocation: Located<String>
    public var body: HTTPBodyKind
    public var auth: HTTPAuth
    public var response: HTTPResponseKind
    /// The names the XML document element may have.
    public var responseRoots: [String]
    /// Error format Swift names, in order.
    public var errors: [String]
    public var headers: [HTTPHeaderField]
}

/// A piece of an http path.
public enum IRPathSegment: Sendable, Equatable {
    case literal(String)
    case parameter(swiftName: String, wireName: String)
}

/// How a method pages, as Swift member chains.
public struct IRPaging: Sendable, Equatable {
    /// Swift names from the request to the cursor property.
    public var cursorPath: [IRPathStep]
    /// Swift names from the response to the items array.
    public var itemsPath: [IRPathStep]
    /// Swift names from an item to its cursor value.
    public var itemCursorPath: [IRPathStep]
    /// Swift names from the response to the `more` flag, when there is one.
    public var morePath: [IRPathStep]?
}

/// One step of a member chain.
public enum IRPathStep: Sendable, Equatable {
    /// A property of an object.
    case property(IRProperty)
    /// The first element of an array (`/0` in a pointer).
    case first
    /// Every element of an array (`/*` in an error's code pointer).
    case each

    /// Whether this step is ``each``.
    public var isEach: Bool {
        if case .each = self { return true }
        return false
    }
}

/// An error format.
public struct IRErrorFormat: Sendable, Equatable {
    /// The format's name, the Swift name of its error type in the family that declares it.
    public var name: String
    /// The family that declares the format when this family uses another's (an error format with `$ref`).
    public var module: String?
    /// The codes whose recovery this family sets differently from the declaring family, or adds, when it uses
    /// another's format.
    public var recoveryOverrides: [IRCode] = []
    public var documentation: String
    public var provenance: Provenance
    public var body: IRTypeRef
    public var json: Bool
    public var xml: Bool
    public var root: String?
    /// Member chains to the code, tried in order.
    public var codePaths: [[IRPathStep]]
    /// Member chains to the message, tried in order.
    public var messagePaths: [[IRPathStep]]
    /// The code enum, when the format has codes.
    public var codeType: IRCodeType?

    /// How generated code names the error type: qualified by its module when it is another family's and families
    /// are modules.
    public var swiftName: String { qualifier.map { $0 + "." + name } ?? name }
    /// The module that qualifies ``swiftName``.
    var qualifier: String?
}

/// The open enum of an error format's codes.
public struct IRCodeType: Sendable, Equatable {
    public var name: String
    /// Whether the wire codes are integers (otherwise strings).
    public var isInteger: Bool
    public var codes: [IRCode]
    public var provenance: Provenance
}

/// One known code.
public struct IRCode: Sendable, Equatable {
    public var value: ErrorCodeNode.Value
    public var name: String
    public var swiftName: String
    public var description: String?
    public var recovery: String
}

/// Which ways a type is coded: read from responses, written into requests, or both.
public struct IRDirections: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Read from a response or an error body.
    public static let decode = IRDirections(rawValue: 1)
    /// Written into a request.
    public static let encode = IRDirections(rawValue: 2)
}

extension IRType {
    /// Whether the type is coded as JSON in either direction.
    public var needsJSON: Bool { !json.isEmpty }
    /// Whether the type is coded as XML in either direction.
    public var needsXML: Bool { !xml.isEmpty }
}

extension IRFamily {
    /// The request type of `method`, through any aliases.
    public func requestType(of method: IRMethod) -> IRType? {
        method.request.flatMap { typeTable.namedType(.named($0)) }
    }
}
