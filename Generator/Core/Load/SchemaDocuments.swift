/// A value read from a schema file, with where it was read.
package struct Located<Value: Sendable>: Sendable {
    /// The value.
    package let value: Value
    /// Where it starts in the file.
    package let location: SourceLocation
    /// Its JSON pointer in the file.
    package let pointer: String
}

extension Located: Equatable where Value: Equatable {}

/// A header field a schema sets on every request: its name and its value.
package struct HTTPHeaderField: Sendable, Equatable {
    /// The field's name, e.g. `Accept`.
    package let name: String
    /// The field's value.
    package let value: String
}

/// The JSON types a schema can declare.
package enum SchemaType: String, Sendable, CaseIterable {
    case string, integer, number, boolean, object, array
}

/// The refinements of `string` and `integer` the generator understands.
package enum SchemaFormat: String, Sendable, CaseIterable {
    case uuid
    case dateTime = "date-time"
    case date, uri, byte, int32, int64, float, double
}

/// How a string schema's text encodes bytes.
package enum ContentEncoding: String, Sendable, CaseIterable {
    case base64
}

/// How a property appears in XML.
package enum XMLNodeKind: String, Sendable, CaseIterable {
    case element, attribute, text, none
}

/// Values a request can take from the call's context instead of the model.
package enum BindName: String, Sendable, CaseIterable {
    case applicationID, signingTime, signature
}

/// Where a top-level http request property travels.
package enum ParameterLocation: String, Sendable, CaseIterable {
    case query, path, header, body
}

/// The validation keywords of a schema, checked by the generated `validate()`.
package struct ConstraintsNode: Sendable {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, with their literal text.
    package var minimum, maximum, exclusiveMinimum, exclusiveMaximum,
        multipleOf: Located<(value: Double, literal: String)>?
    /// `minLength`, `maxLength`, `minItems` and `maxItems`.
    package var minLength, maxLength, minItems, maxItems: Located<Int>?
    /// `pattern`, an ECMA-262 regular expression a string must contain a match of.
    package var pattern: Located<String>?
    /// `uniqueItems`.
    package var uniqueItems: Located<Bool>?

    /// Whether no keyword is set.
    package var isEmpty: Bool { present.isEmpty }

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
package final class SchemaNode: Sendable {
    /// Where the schema object starts.
    package let location: SourceLocation
    /// Its JSON pointer.
    package let pointer: String
    package let ref: Located<String>?
    package let type: Located<SchemaType>?
    package let format: Located<SchemaFormat>?
    /// `contentEncoding`: a string whose text encodes bytes.
    package let contentEncoding: Located<ContentEncoding>?
    /// Whether null is allowed: `"type": [T, "null"]`, or a `{"type": "null"}` variant in `oneOf`.
    package let nullable: Bool
    /// The validation keywords.
    package let constraints: ConstraintsNode
    package let description: String?
    /// Whether the `properties` keyword was present (an empty object is still an object).
    package let hasProperties: Bool
    package let properties: [PropertyNode]
    package let required: [Located<String>]
    package let items: SchemaNode?
    package let enumValues: [Located<String>]?
    package let constValue: Located<String>?
    /// `alsoAccepts`: values besides the `const` a response may carry, read as that constant.
    package let alsoAccepts: [Located<String>]
    package let defaultValue: JSONNode?
    package let oneOf: [SchemaNode]?
    /// `allOf`: object schemas whose properties make one object.
    package let allOf: [SchemaNode]?
    /// `additionalProperties`: the schema of the members an object has beyond its `properties` (`true` is any
    /// value; `false`, like leaving it out, adds nothing).
    package let additionalProperties: SchemaNode?
    /// `additionalProperties: false`: members beyond `properties` make the value invalid.
    package let forbidsAdditionalProperties: Bool
    package let discriminator: Located<String>?
    package let xml: XMLOptionsNode?
    package let sensitive: Located<Bool>?
    package let bind: Located<BindName>?
    package let signs: Located<String>?
    package let parameterLocation: Located<ParameterLocation>?
    package let aliases: [String]
    package let acceptSingle: Located<Bool>?
    /// `acceptString`: an integer, number or boolean a JSON response may also spell as a string.
    package let acceptString: Located<Bool>?
    package let swiftName: Located<String>?

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
    package var isSensitive: Bool { sensitive?.value == true }
}

/// One entry of `properties`.
package struct PropertyNode: Sendable {
    /// The wire name (the key).
    package let name: String
    /// Where the key is.
    package let keyLocation: SourceLocation
    /// The property's schema.
    package let schema: SchemaNode
}

/// The `xml` keyword.
package struct XMLOptionsNode: Sendable {
    package let location: SourceLocation
    package let name: String?
    package let namespace: String?
    package let prefix: String?
    package let nodeType: Located<XMLNodeKind>?
}

/// A named type in `$defs`.
package struct NamedSchema: Sendable {
    /// The key in `$defs`.
    package let name: String
    /// Where the key is.
    package let keyLocation: SourceLocation
    /// The schema.
    package let schema: SchemaNode
}
