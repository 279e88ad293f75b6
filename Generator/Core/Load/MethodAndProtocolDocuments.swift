/// A schema file as read: its display path and root node.
package struct SchemaFile: Sendable {
    /// The path shown in diagnostics and provenance, e.g. `Schemas/Vital/CreateUser.json`.
    package let displayPath: String
    /// The file name, e.g. `CreateUser.json`.
    package let fileName: String
}

// MARK: - Methods

/// A method file.
package struct MethodDocument: Sendable {
    package let file: SchemaFile
    package let root: JSONNode
    package let name: Located<String>
    package let description: String
    package let binding: MethodBinding
    package let request: SchemaNode?
    package let response: SchemaNode?
    package let paging: PagingNode?
    package let defs: [NamedSchema]
}

/// The `binding` of a method.
package enum MethodBinding: Sendable {
    case healthvault(HealthVaultMethodBinding)
    case http(HTTPMethodBinding)

    /// Where the binding object starts.
    package var location: SourceLocation {
        switch self {
        case .healthvault(let binding): return binding.location
        case .http(let binding): return binding.location
        }
    }
}

/// HealthVault's per-method auth policies.
package enum HealthVaultAuth: String, Sendable, CaseIterable {
    case appId, castSignature, session
}

/// A `healthvault` method binding.
package struct HealthVaultMethodBinding: Sendable {
    package let location: SourceLocation
    package let pointer: String
    package let method: String
    package let version: Int
    package let auth: Located<HealthVaultAuth>
    package let responseNamespace: String
    package let recordScoped: Bool
    /// Whether sending the request again is safe (a read), so a retry policy may repeat it.
    package let idempotent: Located<Bool>?
}

/// HTTP methods.
package enum HTTPVerb: String, Sendable, CaseIterable {
    // Spelled as schemas and the wire spell them.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    case GET, POST, PUT, DELETE
}

/// How an http request's body properties travel.
package enum HTTPBodyKind: String, Sendable, CaseIterable {
    case none, form, json
}

/// HTTP auth policies.
package enum HTTPAuth: String, Sendable, CaseIterable {
    case none, basic, bearer, apiKey, bearerOrApiKey, oauthClient
}

/// The format of a 2xx body, or `redirect` for a method the user's browser sends.
package enum HTTPResponseKind: String, Sendable, CaseIterable {
    case none, json, xml, jsonOrXml, redirect
}

/// An `http` method binding.
package struct HTTPMethodBinding: Sendable {
    package let location: SourceLocation
    package let pointer: String
    package let method: Located<HTTPVerb>
    package let server: Located<String>
    package let path: Located<String>
    package let body: Located<HTTPBodyKind>
    package let auth: Located<HTTPAuth>
    package let response: Located<HTTPResponseKind>
    /// The names the XML document element may have (`responseRoot`, one name or several).
    package let responseRoots: [String]
    package let errors: [Located<String>]
    package let headers: [HTTPHeaderField]
}

/// A method's `paging`.
package struct PagingNode: Sendable {
    package let location: SourceLocation
    package let cursor: Located<String>
    package let items: Located<String>
    package let itemCursor: Located<String>
    package let more: Located<String>?
}

// MARK: - Types and protocol files

/// A family's `types.json`.
package struct TypesDocument: Sendable {
    package let file: SchemaFile
    package let defs: [NamedSchema]
}

/// A family's `protocol.json`.
package struct ProtocolDocument: Sendable {
    package let file: SchemaFile
    package let family: Located<String>
    /// The Swift module the family is generated into, when it is not the family's name.
    package let module: Located<String>?
    package let description: String
    package let binding: FamilyBinding
    package let servers: [ServerNode]
    package let errors: [ErrorFormatNode]
}

/// The family's binding kind and shared settings.
package enum FamilyBinding: Sendable {
    case healthvault(HealthVaultFamilySettings)
    case http(HTTPFamilySettings)
}

/// Settings of the healthvault binding.
package struct HealthVaultFamilySettings: Sendable {
    package let location: SourceLocation
    package let authPolicies: [HealthVaultAuth]
    package let statusError: Located<String>
    package let language: String?
    package let country: String?
    package let messageTTL: Int?
    package let clientVersion: String?
}

/// How scalar XML elements are spelled.
package enum XMLPrimitiveStyle: String, Sendable, CaseIterable {
    case text, valueAttribute
}

/// Settings of the http binding.
package struct HTTPFamilySettings: Sendable {
    package let location: SourceLocation
    package let authPolicies: [HTTPAuth]
    package let apiKeyHeader: String?
    package let headers: [HTTPHeaderField]
    package let xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
package struct ServerNode: Sendable {
    package let name: String
    package let keyLocation: SourceLocation
    package let description: String
    package let defaultURL: String?
}

/// An error format.
package struct ErrorFormatNode: Sendable {
    package let name: String
    package let keyLocation: SourceLocation
    package let pointer: String
    /// Another family's format this one is (`"$ref": "../Family/protocol.json#/errors/Name"`); the format's
    /// `codes` then change or add recoveries, and its other keywords come from there.
    package let reference: Located<String>?
    package let description: String
    /// The body type; nil for a reference.
    package let body: SchemaNode?
    package let encodings: [String]
    package let root: String?
    package let code: [Located<String>]
    package let message: [Located<String>]
    package let codeType: String?
    package let codes: [ErrorCodeNode]
}

/// A known error code.
package struct ErrorCodeNode: Sendable {
    /// The wire value: an integer or a string.
    package enum Value: Sendable, Hashable {
        case integer(Int)
        case string(String)
    }

    package let location: SourceLocation
    package let pointer: String
    package let value: Value
    package let name: String
    package let swiftName: String?
    package let description: String?
    package let recovery: String
}
