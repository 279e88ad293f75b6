/// A value read from a schema file, with where it was read.
public struct Located<Value: Sendable>: Sendable {
    /// The value.
    public let value: Value
    /// Where it starts in the file.
    public let location: SourceLocation
    /// Its JSON pointer in the file.
    public let pointer: String
}

extension Located: Equatable where Value: Equatable {}

/// A header field a schema sets on every request: its name and its value.
public struct HTTPHeaderField: Sendable, Equatable {
    /// The field's name, e.g. `Accept`.
    public let name: String
    /// The field's value.
    public let value: String
}

/// The JSON types a schema can declare.
public enum SchemaType: String, Sendable, CaseIterable {
    case string, integer, number, boolean, object, array
}

/// The refinements of `string` and `integer` the generator understands.
public enum SchemaFormat: String, Sendable, CaseIterable {
    case uuid
    case dateTime = "date-time"
    case date, uri, byte, int32, int64, float, double
}

/// How a string schema's text encodes bytes.
public enum ContentEncoding: String, Sendable, CaseIterable {
    case base64
}

/// How a property appears in XML.
public enum XMLNodeKind: String, Sendable, CaseIterable {
    case element, attribute, text, none
}

/// Values a request can take from the call's context instead of the model.
public enum BindName: String, Sendable, CaseIterable {
    case applicationID, signingTime, signature
}

/// Where a top-level http request property travels.
public enum ParameterLocation: String, Sendable, CaseIterable {
    case query, path, header, body
}

/// The validation keywords of a schema, checked by the generated `validate()`.
public struct ConstraintsNode: Sendable {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, with their literal text.
    public var minimum, maximum, exclusiveMinimum, exclusiveMaximum,
        multipleOf: Located<(value: Double, literal: String)>?
    /// `minLength`, `maxLength`, `minItems` and `maxItems`.
    public var minLength, maxLength, minItems, maxItems: Located<Int>?
    /// `pattern`, an ECMA-262 regular expression a string must contain a match of.
    public var pattern: Located<String>?
    /// `uniqueItems`.
    public var uniqueItems: Located<Bool>?

    /// Whether no keyword is set.
    public var isEmpty: Bool { present.isEmpty }

    /// Each keyword that is set, with where it is.
    var present: [(keyword: String, location: SourceLocation, pointer: String)] {
        let numbers = [
            ("minimum", minimum), ("maximum", maximum), ("exclusiveMinimum", exclusiveMinimum),
            ("exclusiveMaximum", exclusiveMaximum), ("multipleOf", multipleOf),
        ].compactMap { keyword, value in value.map { (keyword, $0.location, $0.pointer) } }
        let counts = [
            ("minLength", minLength), ("maxLength", maxLength), ("minItems", minItems), ("maxItems", maxItems),
        ]
        .compactMap { keyword, value in value.map { (keyword, $0.location, $0.pointer) } }
        return numbers + counts + [pattern.map { ("pattern", $0.location, $0.pointer) }].compactMap { $0 }
            + [uniqueItems.map { ("uniqueItems", $0.location, $0.pointer) }].compactMap { $0 }
    }
}

/// A type schema as written, keyword by keyword.
public final class SchemaNode: Sendable {
    /// Where the schema object starts.
    public let location: SourceLocation
    /// Its JSON pointer.
    public let pointer: String
    public let ref: Located<String>?
    public let type: Located<SchemaType>?
    public let format: Located<SchemaFormat>?
    /// `contentEncoding`: a string whose text encodes bytes.
    public let contentEncoding: Located<ContentEncoding>?
    /// Whether null is allowed: `"type": [T, "null"]`, or a `{"type": "null"}` variant in `oneOf`.
    public let nullable: Bool
    /// The validation keywords.
    public let constraints: ConstraintsNode
    public let description: String?
    /// Whether the `properties` keyword was present (an empty object is still an object).
    public let hasProperties: Bool
    public let properties: [PropertyNode]
    public let required: [Located<String>]
    public let items: SchemaNode?
    public let enumValues: [Located<String>]?
    public let constValue: Located<String>?
    /// `alsoAccepts`: values besides the `const` a response may carry, read as that constant.
    public let alsoAccepts: [Located<String>]
    public let defaultValue: JSONNode?
    public let oneOf: [SchemaNode]?
    /// `allOf`: object schemas whose properties make one object.
    public let allOf: [SchemaNode]?
    /// `additionalProperties`: the schema of the members an object has beyond its `properties` (`true` is any
    /// value; `false`, like leaving it out, adds nothing).
    public let additionalProperties: SchemaNode?
    /// `additionalProperties: false`: members beyond `properties` make the value invalid.
    public let forbidsAdditionalProperties: Bool
    public let discriminator: Located<String>?
    public let xml: XMLOptionsNode?
    public let sensitive: Located<Bool>?
    public let bind: Located<BindName>?
    public let signs: Located<String>?
    public let parameterLocation: Located<ParameterLocation>?
    public let aliases: [String]
    public let acceptSingle: Located<Bool>?
    /// `acceptString`: an integer, number or boolean a JSON response may also spell as a string.
    public let acceptString: Located<Bool>?
    public let swiftName: Located<String>?

    /// The schema `{}` (any value), standing for `true` at `node`.
    static func anyValue(at node: JSONNode) -> SchemaNode {
        SchemaNode(
            location: node.location, pointer: node.pointer, ref: nil, type: nil, format: nil, contentEncoding: nil,
            nullable: false, constraints: ConstraintsNode(), description: nil, hasProperties: false, properties: [],
            required: [], items: nil, enumValues: nil, constValue: nil, defaultValue: nil, oneOf: nil, allOf: nil,
            additionalProperties: nil, discriminator: nil, xml: nil, sensitive: nil, bind: nil, signs: nil,
            parameterLocation: nil, aliases: [], acceptSingle: nil, acceptString: nil, swiftName: nil
        )
    }

    init(
        location: SourceLocation, pointer: String, ref: Located<String>?, type: Located<SchemaType>?,
        format: Located<SchemaFormat>?, contentEncoding: Located<ContentEncoding>?, nullable: Bool,
        constraints: ConstraintsNode,
        description: String?,
        hasProperties: Bool, properties: [PropertyNode],
        required: [Located<String>], items: SchemaNode?, enumValues: [Located<String>]?, constValue: Located<String>?,
        defaultValue: JSONNode?, oneOf: [SchemaNode]?, allOf: [SchemaNode]?,
        additionalProperties: SchemaNode?, discriminator: Located<String>?, xml: XMLOptionsNode?,
        sensitive: Located<Bool>?, bind: Located<BindName>?, signs: Located<String>?,
        parameterLocation: Located<ParameterLocation>?, aliases: [String], acceptSingle: Located<Bool>?,
        acceptString: Located<Bool>?, swiftName: Located<String>?, alsoAccepts: [Located<String>] = [],
        forbidsAdditionalProperties: Bool = false
    ) {
        self.acceptString = acceptString
        self.forbidsAdditionalProperties = forbidsAdditionalProperties
        self.alsoAccepts = alsoAccepts
        self.location = location
        self.pointer = pointer
        self.ref = ref
        self.type = type
        self.format = format
        self.contentEncoding = contentEncoding
        self.nullable = nullable
        self.constraints = constraints
        self.description = description
        self.hasProperties = hasProperties
        self.properties = properties
        self.required = required
        self.items = items
        self.enumValues = enumValues
        self.constValue = constValue
        self.defaultValue = defaultValue
        self.oneOf = oneOf
        self.allOf = allOf
        self.additionalProperties = additionalProperties
        self.discriminator = discriminator
        self.xml = xml
        self.sensitive = sensitive
        self.bind = bind
        self.signs = signs
        self.parameterLocation = parameterLocation
        self.aliases = aliases
        self.acceptSingle = acceptSingle
        self.swiftName = swiftName
    }

    /// Whether the schema is marked sensitive.
    public var isSensitive: Bool { sensitive?.value == true }
}

/// One entry of `properties`.
public struct PropertyNode: Sendable {
    /// The wire name (the key).
    public let name: String
    /// Where the key is.
    public let keyLocation: SourceLocation
    /// The property's schema.
    public let schema: SchemaNode
}

/// The `xml` keyword.
public struct XMLOptionsNode: Sendable {
    public let location: SourceLocation
    public let name: String?
    public let namespace: String?
    public let prefix: String?
    public let nodeType: Located<XMLNodeKind>?
}

/// A named type in `$defs`.
public struct NamedSchema: Sendable {
    /// The key in `$defs`.
    public let name: String
    /// Where the key is.
    public let keyLocation: SourceLocation
    /// The schema.
    public let schema: SchemaNode
}

/// A schema file as read: its display path and root node.
public struct SchemaFile: Sendable {
    /// The path shown in diagnostics and provenance, e.g. `Schemas/Vital/CreateUser.json`.
    public let displayPath: String
    /// The file name, e.g. `CreateUser.json`.
    public let fileName: String
}

// MARK: - Methods

/// A method file.
public struct MethodDocument: Sendable {
    public let file: SchemaFile
    public let root: JSONNode
    public let name: Located<String>
    public let description: String
    public let binding: MethodBinding
    public let request: SchemaNode?
    public let response: SchemaNode?
    public let paging: PagingNode?
    public let defs: [NamedSchema]
}

/// The `binding` of a method.
public enum MethodBinding: Sendable {
    case healthvault(HealthVaultMethodBinding)
    case http(HTTPMethodBinding)

    /// Where the binding object starts.
    public var location: SourceLocation {
        switch self {
        case .healthvault(let binding): return binding.location
        case .http(let binding): return binding.location
        }
    }
}

/// HealthVault's per-method auth policies.
public enum HealthVaultAuth: String, Sendable, CaseIterable {
    case appId, castSignature, session
}

/// A `healthvault` method binding.
public struct HealthVaultMethodBinding: Sendable {
    public let location: SourceLocation
    public let pointer: String
    public let method: String
    public let version: Int
    public let auth: Located<HealthVaultAuth>
    public let responseNamespace: String
    public let recordScoped: Bool
    /// Whether sending the request again is safe (a read), so a retry policy may repeat it.
    public let idempotent: Located<Bool>?
}

/// HTTP methods.
public enum HTTPVerb: String, Sendable, CaseIterable {
    // Spelled as schemas and the wire spell them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case GET, POST, PUT, DELETE
}

/// How an http request's body properties travel.
public enum HTTPBodyKind: String, Sendable, CaseIterable {
    case none, form, json
}

/// HTTP auth policies.
public enum HTTPAuth: String, Sendable, CaseIterable {
    case none, basic, bearer, apiKey, bearerOrApiKey, oauthClient
}

/// The format of a 2xx body, or `redirect` for a method the user's browser sends.
public enum HTTPResponseKind: String, Sendable, CaseIterable {
    case none, json, xml, jsonOrXml, redirect
}

/// An `http` method binding.
public struct HTTPMethodBinding: Sendable {
    public let location: SourceLocation
    public let pointer: String
    public let method: Located<HTTPVerb>
    public let server: Located<String>
    public let path: Located<String>
    public let body: Located<HTTPBodyKind>
    public let auth: Located<HTTPAuth>
    public let response: Located<HTTPResponseKind>
    /// The names the XML document element may have (`responseRoot`, one name or several).
    public let responseRoots: [String]
    public let errors: [Located<String>]
    public let headers: [HTTPHeaderField]
}

/// A method's `paging`.
public struct PagingNode: Sendable {
    public let location: SourceLocation
    public let cursor: Located<String>
    public let items: Located<String>
    public let itemCursor: Located<String>
    public let more: Located<String>?
}

// MARK: - Types and protocol files

/// A family's `types.json`.
public struct TypesDocument: Sendable {
    public let file: SchemaFile
    public let defs: [NamedSchema]
}

/// A family's `protocol.json`.
public struct ProtocolDocument: Sendable {
    public let file: SchemaFile
    public let family: Located<String>
    /// The Swift module the family is generated into, when it is not the family's name.
    public let module: Located<String>?
    public let description: String
    public let binding: FamilyBinding
    public let servers: [ServerNode]
    public let errors: [ErrorFormatNode]
}

/// The family's binding kind and shared settings.
public enum FamilyBinding: Sendable {
    case healthvault(HealthVaultFamilySettings)
    case http(HTTPFamilySettings)
}

/// Settings of the healthvault binding.
public struct HealthVaultFamilySettings: Sendable {
    public let location: SourceLocation
    public let authPolicies: [HealthVaultAuth]
    public let statusError: Located<String>
    public let language: String?
    public let country: String?
    public let messageTTL: Int?
    public let clientVersion: String?
}

/// How scalar XML elements are spelled.
public enum XMLPrimitiveStyle: String, Sendable, CaseIterable {
    case text, valueAttribute
}

/// Settings of the http binding.
public struct HTTPFamilySettings: Sendable {
    public let location: SourceLocation
    public let authPolicies: [HTTPAuth]
    public let apiKeyHeader: String?
    public let headers: [HTTPHeaderField]
    public let xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
public struct ServerNode: Sendable {
    public let name: String
    public let keyLocation: SourceLocation
    public let description: String
    public let defaultURL: String?
}

/// An error format.
public struct ErrorFormatNode: Sendable {
    public let name: String
    public let keyLocation: SourceLocation
    public let pointer: String
    /// Another family's format this one is (`"$ref": "../Family/protocol.json#/errors/Name"`); the format's
    /// `codes` then change or add recoveries, and its other keywords come from there.
    public let reference: Located<String>?
    public let description: String
    /// The body type; nil for a reference.
    public let body: SchemaNode?
    public let encodings: [String]
    public let root: String?
    public let code: [Located<String>]
    public let message: [Located<String>]
    public let codeType: String?
    public let codes: [ErrorCodeNode]
}

/// A known error code.
public struct ErrorCodeNode: Sendable {
    /// The wire value: an integer or a string.
    public enum Value: Sendable, Hashable {
        case integer(Int)
        case string(String)
    }

    public let location: SourceLocation
    public let pointer: String
    public let value: Value
    public let name: String
    public let swiftName: String?
    public let description: String?
    public let recovery: String
}
