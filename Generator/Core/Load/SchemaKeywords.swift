/// The keywords each kind of schema object may use: the single list the decoder reads and that a test compares
/// with the meta-schemas (`Schemas/method.schema.json`, `Schemas/protocol.schema.json`).
package enum SchemaKeywords {
    /// A method file.
    package static let method = ["$schema", "name", "description", "binding", "request", "response", "paging", "$defs"]
    /// `types.json`.
    package static let typesFile = ["$schema", "description", "$defs"]
    /// A method's `binding`.
    package static let binding = ["healthvault", "http"]
    /// A `healthvault` method binding.
    package static let healthvaultBinding = [
        "method", "version", "auth", "responseNamespace", "recordScoped", "idempotent",
    ]
    /// An `http` method binding.
    package static let httpBinding = [
        "method", "server", "path", "body", "auth", "response", "responseRoot", "errors", "headers",
    ]
    /// `paging`.
    package static let paging = ["cursor", "items", "itemCursor", "more"]
    /// A type schema.
    package static let schema = [
        "$ref", "type", "format", "description", "properties", "required", "items", "enum", "const", "default",
        "oneOf", "discriminator", "xml", "sensitive", "bind", "signs", "in", "aliases", "acceptSingle", "x-swift-name",
        "contentEncoding", "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "pattern", "minItems",
        "maxItems", "allOf", "additionalProperties", "alsoAccepts", "exclusiveMaximum", "multipleOf", "uniqueItems",
        "acceptString",
    ]
    /// `discriminator`.
    package static let discriminator = ["propertyName"]
    /// `xml`.
    package static let xml = ["name", "namespace", "prefix", "nodeType"]
    /// `protocol.json`.
    package static let protocolFile = ["$schema", "family", "module", "description", "binding", "servers", "errors"]
    /// The healthvault family settings.
    package static let healthvaultSettings = [
        "authPolicies", "statusError", "language", "country", "messageTTL", "clientVersion",
    ]
    /// The http family settings.
    package static let httpSettings = ["authPolicies", "apiKeyHeader", "headers", "xmlPrimitives"]
    /// A server.
    package static let server = ["description", "default"]
    /// An error format.
    package static let errorFormat = [
        "$ref", "description", "body", "encodings", "root", "code", "message", "codeType", "codes",
    ]
    /// One code of an error format.
    package static let code = ["value", "name", "x-swift-name", "description", "recovery"]
}
