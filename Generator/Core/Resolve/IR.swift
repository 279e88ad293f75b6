/// The intermediate representation: families, methods and types, resolved and named, knowing nothing of JSON.
///
/// Emitters read only this. Types are classes so that references (`IRTypeRef.named`) share one node per type.

/// Every family to generate.
public struct IRModule {
    /// The families, sorted by name.
    public var families: [IRFamily]
}

/// One protocol family: one Swift module.
public struct IRFamily {
    /// The module name, e.g. `HealthVault`.
    public var name: String
    /// The family's schema directory as shown to users, e.g. `Schemas/HealthVault`.
    public var directory: String
    /// What the protocol is.
    public var description: String
    /// The binding kind and its settings.
    public var binding: IRFamilyBinding
    /// The named base URLs.
    public var servers: [IRServer]
    /// The shared types of `types.json`, in declaration order.
    public var types: [IRType]
    /// The methods, sorted by name.
    public var methods: [IRMethod]
    /// The error formats, in declaration order.
    public var errors: [IRErrorFormat]

    /// The client struct's name, e.g. `HealthVaultClient`.
    public var clientName: String { name + "Client" }
}

/// A family's binding kind.
public enum IRFamilyBinding {
    /// HealthVault's XML envelope.
    case healthvault(IRHealthVaultSettings)
    /// Plain HTTP.
    case http(IRHTTPSettings)
}

/// Settings of the healthvault binding.
public struct IRHealthVaultSettings {
    public var language: String?
    public var country: String?
    public var messageTTL: Int
    public var clientVersion: String
    /// The error format a non-zero status becomes.
    public var statusError: String
}

/// Settings of the http binding.
public struct IRHTTPSettings {
    public var apiKeyHeader: String?
    public var headers: [(name: String, value: String)]
    public var xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
public struct IRServer {
    public var name: String
    public var description: String
    public var defaultURL: String?
}

/// Where a declaration came from, for `- Remark: Generated from …`.
public struct Provenance {
    /// The schema file, e.g. `Schemas/HealthVault/types.json`.
    public var file: String
    /// The JSON pointer inside it.
    public var pointer: String

    /// `Schemas/HealthVault/types.json#/$defs/PersonInfo`
    public var text: String { file + "#" + pointer }
}

/// A scalar type.
public enum IRScalar: Equatable {
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
        case .date: return "SDKRuntime.LocalDate"
        case .uri: return "Foundation.URL"
        case .bytes: return "Foundation.Data"
        case .jsonValue: return "SDKRuntime.JSONValue"
        case .xmlFragment: return "SDKRuntime.XMLFragment"
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

/// A reference to a type.
public indirect enum IRTypeRef {
    case scalar(IRScalar, sensitive: Bool)
    case named(IRType)
    case array(IRTypeRef)
    /// A JSON object of any keys, all of whose values have one type (`additionalProperties`).
    case map(IRTypeRef)

    /// The Swift spelling.
    public var swiftType: String {
        switch self {
        case .scalar(let scalar, _): return scalar.swiftType
        case .named(let type): return type.qualifiedName
        case .array(let element): return "[" + element.swiftType + "]"
        case .map(let value): return "[Swift.String: " + value.swiftType + "]"
        }
    }

    /// The referenced type with aliases followed.
    public var resolved: IRTypeRef {
        if case .named(let type) = self, case .alias(let target) = type.kind { return target.resolved }
        return self
    }

    /// Whether the value itself is a sensitive scalar.
    public var isSensitiveScalar: Bool {
        if case .scalar(_, true) = resolved { return true }
        return false
    }

    /// Whether the value is a scalar or an enum (something with a wire text).
    public var isScalarLike: Bool {
        switch resolved {
        case .scalar(let scalar, _): return scalar.hasWireText
        case .named(let type): if case .enumeration = type.kind { return true } else { return false }
        case .array, .map: return false
        }
    }

    /// The named type, when this refers to one (aliases followed).
    public var namedType: IRType? {
        if case .named(let type) = resolved { return type }
        return nil
    }
}

/// A generated type.
public final class IRType {
    /// What kind of declaration it is.
    public enum Kind {
        case object([IRProperty])
        case enumeration([IREnumCase])
        case union(IRUnion)
        case alias(IRTypeRef)
    }

    /// The simple Swift name, e.g. `Parameters`.
    public let name: String
    /// The name qualified by its enclosing types, e.g. `GetAuthorizedPeople.Request.Parameters`.
    public let qualifiedName: String
    /// The enclosing type's qualified name, or nil for a top-level type.
    public let parent: String?
    public var kind: Kind
    public var documentation: String?
    public let provenance: Provenance
    /// The XML namespace written on the element (when it is a document element).
    public var xmlNamespace: String?
    public var xmlPrefix: String?
    /// The directions of JSON coding the type needs, set from how methods and error formats use it.
    public var json: IRDirections = []
    /// The directions of XML coding the type needs.
    public var xml: IRDirections = []
    /// For an object with `properties` and `additionalProperties`: the type of the members beyond its properties,
    /// kept in `additionalProperties: [String: Value]`.
    public var extraMembers: IRTypeRef?
    /// Whether it is (or is a variant of) a top-level http request, which needs form/query/header encoding.
    public var needsHTTPFields = false
    /// Whether a value of this type contains a sensitive field somewhere.
    public var holdsSensitive = false
    /// Types declared inside this one (inline objects, enums and unions of its properties).
    public var nestedTypes: [IRType] = []

    /// Where the type's schema starts, for diagnostics.
    public let sourceLocation: SourceLocation

    init(
        name: String, parent: String?, kind: Kind, documentation: String?, provenance: Provenance,
        location: SourceLocation
    ) {
        self.sourceLocation = location
        self.name = name
        self.parent = parent
        self.qualifiedName = parent.map { $0 + "." + name } ?? name
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

    /// Whether it is an object with no stored properties: every field is constant, bound or itself fixed.
    public var isFixed: Bool {
        guard case .object = kind else { return false }
        return storedProperties.isEmpty
    }

    /// Whether `init()` works: every stored property is optional, has a default, or is an object whose own
    /// `init()` works.
    public var hasEmptyInitializer: Bool { hasEmptyInitializer(visiting: []) }

    private func hasEmptyInitializer(visiting: Set<ObjectIdentifier>) -> Bool {
        guard case .object = kind, !visiting.contains(ObjectIdentifier(self)) else { return false }
        let visiting = visiting.union([ObjectIdentifier(self)])
        return storedProperties.allSatisfy {
            $0.isOptional || $0.defaultExpression != nil || $0.isArrayDefaultingToEmpty
                || $0.type.namedType?.hasEmptyInitializer(visiting: visiting) == true
        }
    }
}

/// How a property's value is provided.
public enum IRStorage {
    /// A field of the model.
    case stored
    /// A fixed string, written on every request and checked on JSON responses.
    case constant(String)
    /// A value the client supplies from the call's context.
    case bound(BindName)
    /// An object with no stored fields, written from `Type()`.
    case fixed
}

/// A constraint a request value is checked against before it is sent.
public enum IRCheck: Equatable {
    /// `minimum`, `maximum`, `exclusiveMinimum`, with the bound's Swift literal.
    case minimum(String)
    case maximum(String)
    case exclusiveMinimum(String)
    /// `minLength`, `maxLength` (in Unicode scalars, as JSON Schema counts).
    case minLength(Int)
    case maxLength(Int)
    /// `pattern`.
    case pattern(String)
    /// `minItems`, `maxItems`.
    case minItems(Int)
    case maxItems(Int)
}

/// One property of an object.
public struct IRProperty {
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
    /// What a request value must satisfy.
    public var checks: [IRCheck] = []
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

    /// Whether it is an array that defaults to empty because the schema does not require it.
    public var isArrayDefaultingToEmpty: Bool {
        if case .array = type, !isRequired, defaultExpression == nil { return true }
        return false
    }

    /// The Swift type of the stored property.
    public var swiftType: String { type.swiftType + (isOptional ? "?" : "") }
}

/// One case of a generated open enum.
public struct IREnumCase {
    public var wireValue: String
    public var swiftName: String
}

/// A `oneOf` union.
public struct IRUnion {
    /// The discriminating property's wire name, when there is one.
    public var discriminator: String?
    public var variants: [IRVariant]
}

/// One variant of a union.
public struct IRVariant {
    public var caseName: String
    public var type: IRTypeRef
    /// The discriminator's value for this variant.
    public var discriminatorValue: String?
}

/// One method.
public struct IRMethod {
    /// The namespace name, e.g. `GetAuthorizedPeople`.
    public var name: String
    /// The client method's name, e.g. `getAuthorizedPeople`.
    public var clientMethodName: String
    public var documentation: String
    public var provenance: Provenance
    public var binding: IRMethodBinding
    /// The `Request` type, when the method sends one.
    public var request: IRType?
    /// The `Response` type, when the method decodes one.
    public var response: IRType?
    /// Types nested directly in the method's namespace (Request, Response and `$defs`), in order.
    public var namespaceTypes: [IRType]
    public var paging: IRPaging?
}

/// How a method travels.
public enum IRMethodBinding {
    case healthvault(IRHealthVaultMethod)
    case http(IRHTTPMethod)
}

/// A healthvault method's binding.
public struct IRHealthVaultMethod {
    public var method: String
    public var version: Int
    public var auth: HealthVaultAuth
    public var responseNamespace: String
    public var recordScoped: Bool
    /// Whether a retry policy may send the request again.
    public var idempotent: Bool
}

/// An http method's binding.
public struct IRHTTPMethod {
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
    public var headers: [(name: String, value: String)]
}

/// A piece of an http path.
public enum IRPathSegment {
    case literal(String)
    case parameter(swiftName: String, wireName: String)
}

/// How a method pages, as Swift member chains.
public struct IRPaging {
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
public enum IRPathStep {
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
public struct IRErrorFormat {
    public var name: String
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
}

/// The open enum of an error format's codes.
public struct IRCodeType {
    public var name: String
    /// Whether the wire codes are integers (otherwise strings).
    public var isInteger: Bool
    public var codes: [IRCode]
    public var provenance: Provenance
}

/// One known code.
public struct IRCode {
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

extension IRMethod {
    /// The request's type, through any aliases.
    public var requestType: IRType? { request.flatMap { IRTypeRef.named($0).namedType } }
}
