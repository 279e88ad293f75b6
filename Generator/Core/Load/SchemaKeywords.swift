/// The keywords each kind of schema object may use: the single list the decoder reads and that a test compares
/// with the meta-schemas (`Schemas/method.schema.json`, `Schemas/protocol.schema.json`).
enum SchemaKeywords {
    /// A method file.
    static let method = ["$schema", "name", "description", "binding", "request", "response", "paging", "$defs"]
    /// `types.json`.
    static let typesFile = ["$schema", "description", "$defs"]
    /// A method's `binding`.
    static let binding = ["healthvault", "http"]
    /// A `healthvault` method binding.
    static let healthvaultBinding = [
        "method", "version", "auth", "responseNamespace", "recordScoped", "idempotent",
    ]
    /// An `http` method binding.
    static let httpBinding = [
        "method", "server", "path", "body", "auth", "response", "responseRoot", "errors", "headers",
    ]
    /// `paging`.
    static let paging = ["cursor", "items", "itemCursor", "more"]
    /// A type schema.
    static let schema = [
        "$ref", "type", "format", "description", "properties", "required", "items", "enum", "const", "default",
        "oneOf", "discriminator", "xml", "sensitive", "bind", "signs", "in", "aliases", "acceptSingle", "x-swift-name",
        "contentEncoding", "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "pattern", "minItems",
        "maxItems", "allOf", "additionalProperties", "alsoAccepts", "exclusiveMaximum", "multipleOf", "uniqueItems",
        "acceptString",
    ]
    /// `discriminator`.
    static let discriminator = ["propertyName"]
    /// `xml`.
    static let xml = ["name", "namespace", "prefix", "nodeType"]
    /// `protocol.json`.
    static let protocolFile = [
        "$schema", "family", "module", "description", "sampleTests", "binding", "servers", "errors",
    ]
    /// The healthvault family settings.
    static let healthvaultSettings = [
        "authPolicies", "statusError", "language", "country", "messageTTL", "clientVersion",
    ]
    /// The http family settings.
    static let httpSettings = ["authPolicies", "apiKeyHeader", "headers", "xmlPrimitives"]
    /// A server.
    static let server = ["description", "default"]
    /// An error format.
    static let errorFormat = [
        "$ref", "description", "body", "encodings", "root", "code", "message", "codeType", "codes",
    ]
    /// One code of an error format.
    static let code = ["value", "name", "x-swift-name", "description", "recovery"]
}
