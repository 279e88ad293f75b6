/// A value read from a schema file, with where it was read.
struct Located<Value: Sendable>: Sendable {
    /// The value.
    let value: Value
    /// Where it starts in the file.
    let location: SourceLocation
    /// Its JSON pointer in the file.
    let pointer: String
}

extension Located: Equatable where Value: Equatable {}

/// A header field a schema sets on every request: its name and its value.
struct HTTPHeaderField: Sendable, Equatable {
    /// The field's name, e.g. `Accept`.
    let name: String
    /// The field's value.
    let value: String
}

/// The JSON types a schema can declare.
enum SchemaType: String, Sendable, CaseIterable {
    case string, integer, number, boolean, object, array
}

/// The refinements of `string` and `integer` the generator understands.
enum SchemaFormat: String, Sendable, CaseIterable {
    case uuid
    case dateTime = "date-time"
    case date, uri, byte, int32, int64, float, double, decimal
}

/// How a string schema's text encodes bytes.
enum ContentEncoding: String, Sendable, CaseIterable {
    case base64
}

/// How a property appears in XML.
enum XMLNodeKind: String, Sendable, CaseIterable {
    case element, attribute, text, none
}

/// Values a request can take from the call's context instead of the model.
enum BindName: String, Sendable, CaseIterable {
    case applicationID, signingTime, signature
}

/// Where a top-level http request property travels.
enum ParameterLocation: String, Sendable, CaseIterable {
    case query, path, header, body
}

/// The validation keywords of a schema, checked by the generated `validate()`.
struct ConstraintsNode: Sendable {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, with their literal text.
    var minimum, maximum, exclusiveMinimum, exclusiveMaximum,
        multipleOf: Located<(value: Double, literal: String)>?
    /// `minLength`, `maxLength`, `minItems` and `maxItems`.
    var minLength, maxLength, minItems, maxItems: Located<Int>?
    /// `pattern`, an ECMA-262 regular expression a string must contain a match of.
    var pattern: Located<String>?
    /// `uniqueItems`.
    var uniqueItems: Located<Bool>?

    /// Whether no keyword is set.
    var isEmpty: Bool { present.isEmpty }

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
final class SchemaNode: Sendable {
    /// Where the schema object starts.
    let location: SourceLocation
    /// Its JSON pointer.
    let pointer: String
    let ref: Located<String>?
    let type: Located<SchemaType>?
    let format: Located<SchemaFormat>?
    /// `contentEncoding`: a string whose text encodes bytes.
    let contentEncoding: Located<ContentEncoding>?
    /// Whether null is allowed: `"type": [T, "null"]`, or a `{"type": "null"}` variant in `oneOf`.
    let nullable: Bool
    /// The validation keywords.
    let constraints: ConstraintsNode
    let description: String?
    /// Whether the `properties` keyword was present (an empty object is still an object).
    let hasProperties: Bool
    let properties: [PropertyNode]
    let required: [Located<String>]
    let items: SchemaNode?
    let enumValues: [Located<String>]?
    let constValue: Located<String>?
    /// `alsoAccepts`: values besides the `const` a response may carry, read as that constant.
    let alsoAccepts: [Located<String>]
    let defaultValue: JSONNode?
    let oneOf: [SchemaNode]?
    /// `allOf`: object schemas whose properties make one object.
    let allOf: [SchemaNode]?
    /// `additionalProperties`: the schema of the members an object has beyond its `properties` (`true` is any
    /// value; `false`, like leaving it out, adds nothing).
    let additionalProperties: SchemaNode?
    /// `additionalProperties: false`: members beyond `properties` make the value invalid.
    let forbidsAdditionalProperties: Bool
    let discriminator: Located<String>?
    let xml: XMLOptionsNode?
    let sensitive: Located<Bool>?
    let bind: Located<BindName>?
    let signs: Located<String>?
    let parameterLocation: Located<ParameterLocation>?
    let aliases: [String]
    let acceptSingle: Located<Bool>?
    /// `acceptString`: an integer, number or boolean a JSON response may also spell as a string.
    let acceptString: Located<Bool>?
    let swiftName: Located<String>?

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
    var isSensitive: Bool { sensitive?.value == true }
}

/// One entry of `properties`.
struct PropertyNode: Sendable {
    /// The wire name (the key).
    let name: String
    /// Where the key is.
    let keyLocation: SourceLocation
    /// The property's schema.
    let schema: SchemaNode
}

/// The `xml` keyword.
struct XMLOptionsNode: Sendable {
    let location: SourceLocation
    let name: String?
    let namespace: String?
    let prefix: String?
    let nodeType: Located<XMLNodeKind>?
}

/// A named type in `$defs`.
struct NamedSchema: Sendable {
    /// The key in `$defs`.
    let name: String
    /// Where the key is.
    let keyLocation: SourceLocation
    /// The schema.
    let schema: SchemaNode
}
