/// A schema file as read: its display path and root node.
struct SchemaFile: Sendable {
    /// The path shown in diagnostics and provenance, e.g. `Schemas/Vital/CreateUser.json`.
    let displayPath: String
    /// The file name, e.g. `CreateUser.json`.
    let fileName: String
}

// MARK: - Methods

/// A method file.
struct MethodDocument: Sendable {
    let file: SchemaFile
    let root: JSONNode
    let name: Located<String>
    let description: String
    let binding: MethodBinding
    let request: SchemaNode?
    let response: SchemaNode?
    let paging: PagingNode?
    let defs: [NamedSchema]
}

/// The `binding` of a method.
enum MethodBinding: Sendable {
    case healthvault(HealthVaultMethodBinding)
    case http(HTTPMethodBinding)

    /// Where the binding object starts.
    var location: SourceLocation {
        switch self {
        case .healthvault(let binding): return binding.location
        case .http(let binding): return binding.location
        }
    }
}

/// HealthVault's per-method auth policies.
enum HealthVaultAuth: String, Sendable, CaseIterable {
    case appId, castSignature, session
}

/// A `healthvault` method binding.
struct HealthVaultMethodBinding: Sendable {
    let location: SourceLocation
    let pointer: String
    let method: String
    let version: Int
    let auth: Located<HealthVaultAuth>
    let responseNamespace: String
    let recordScoped: Bool
    /// Whether sending the request again is safe (a read), so a retry policy may repeat it.
    let idempotent: Located<Bool>?
}

/// HTTP methods.
enum HTTPVerb: String, Sendable, CaseIterable {
    // Spelled as schemas and the wire spell them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case GET, POST, PUT, DELETE
}

/// How an http request's body properties travel.
enum HTTPBodyKind: String, Sendable, CaseIterable {
    case none, form, json
}

/// HTTP auth policies.
enum HTTPAuth: String, Sendable, CaseIterable {
    case none, basic, bearer, apiKey, bearerOrApiKey, oauthClient
}

/// The format of a 2xx body, or `redirect` for a method the user's browser sends.
enum HTTPResponseKind: String, Sendable, CaseIterable {
    case none, json, xml, jsonOrXml, redirect
}

/// An `http` method binding.
struct HTTPMethodBinding: Sendable {
    let location: SourceLocation
    let pointer: String
    let method: Located<HTTPVerb>
    let server: Located<String>
    let path: Located<String>
    let body: Located<HTTPBodyKind>
    let auth: Located<HTTPAuth>
    let response: Located<HTTPResponseKind>
    /// The names the XML document element may have (`responseRoot`, one name or several).
    let responseRoots: [String]
    let errors: [Located<String>]
    let headers: [HTTPHeaderField]
}

/// A method's `paging`.
struct PagingNode: Sendable {
    let location: SourceLocation
    let cursor: Located<String>
    let items: Located<String>
    let itemCursor: Located<String>
    let more: Located<String>?
}

// MARK: - Types and protocol files

/// A family's `types.json`.
struct TypesDocument: Sendable {
    let file: SchemaFile
    let defs: [NamedSchema]
}

/// A family's `protocol.json`.
struct ProtocolDocument: Sendable {
    let file: SchemaFile
    let family: Located<String>
    /// The Swift module the family is generated into, when it is not the family's name.
    let module: Located<String>?
    let description: String
    /// Whether `--test-samples` writes round trips of the family's models.
    let sampleTests: Bool
    let binding: FamilyBinding
    let servers: [ServerNode]
    let errors: [ErrorFormatNode]
}

/// The family's binding kind and shared settings.
enum FamilyBinding: Sendable {
    case healthvault(HealthVaultFamilySettings)
    case http(HTTPFamilySettings)
}

/// Settings of the healthvault binding.
struct HealthVaultFamilySettings: Sendable {
    let location: SourceLocation
    let authPolicies: [HealthVaultAuth]
    let statusError: Located<String>
    let language: String?
    let country: String?
    let messageTTL: Int?
    let clientVersion: String?
}

/// How scalar XML elements are spelled.
enum XMLPrimitiveStyle: String, Sendable, CaseIterable {
    case text, valueAttribute
}

/// Settings of the http binding.
struct HTTPFamilySettings: Sendable {
    let location: SourceLocation
    let authPolicies: [HTTPAuth]
    let apiKeyHeader: String?
    let headers: [HTTPHeaderField]
    let xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
struct ServerNode: Sendable {
    let name: String
    let keyLocation: SourceLocation
    let description: String
    let defaultURL: String?
}

/// An error format.
struct ErrorFormatNode: Sendable {
    let name: String
    let keyLocation: SourceLocation
    let pointer: String
    /// Another family's format this one is (`"$ref": "../Family/protocol.json#/errors/Name"`); the format's
    /// `codes` then change or add recoveries, and its other keywords come from there.
    let reference: Located<String>?
    let description: String
    /// The body type; nil for a reference.
    let body: SchemaNode?
    let encodings: [String]
    let root: String?
    let code: [Located<String>]
    let message: [Located<String>]
    let codeType: String?
    let codes: [ErrorCodeNode]
}

/// A known error code.
struct ErrorCodeNode: Sendable {
    /// The wire value: an integer or a string.
    enum Value: Sendable, Hashable {
        case integer(Int)
        case string(String)
    }

    let location: SourceLocation
    let pointer: String
    let value: Value
    let name: String
    let swiftName: String?
    let description: String?
    let recovery: String
}
