/// One method.
struct IRMethod: Sendable, Equatable {
    /// The namespace name, e.g. `GetAuthorizedPeople`.
    var name: String
    /// The client method's name, e.g. `getAuthorizedPeople`.
    var clientMethodName: String
    var documentation: String
    var provenance: Provenance
    var binding: IRMethodBinding
    /// The `Request` type, when the method sends one.
    var request: IRTypeName?
    /// The `Response` type, when the method decodes one.
    var response: IRTypeName?
    /// Types nested directly in the method's namespace (Request, Response and `$defs`), in order.
    var namespaceTypes: [IRTypeName]
    var paging: IRPaging?
}

/// How a method travels.
enum IRMethodBinding: Sendable, Equatable {
    case healthvault(IRHealthVaultMethod)
    case http(IRHTTPMethod)
}

/// A healthvault method's binding.
struct IRHealthVaultMethod: Sendable, Equatable {
    var method: String
    var version: Int
    var auth: HealthVaultAuth
    var responseNamespace: String
    var recordScoped: Bool
    /// Whether a retry policy may send the request again.
    var idempotent: Bool
}

/// An http method's binding.
struct IRHTTPMethod: Sendable, Equatable {
    var verb: HTTPVerb
    var server: String
    /// The path split into literal text and `{name}` placeholders (as property Swift names and types).
    var pathSegments: [IRPathSegment]
    /// Where `path` is in the schema, for diagnostics.
    var pathLocation: Located<String>
    var body: HTTPBodyKind
    var auth: HTTPAuth
    var response: HTTPResponseKind
    /// The names the XML document element may have.
    var responseRoots: [String]
    /// Error format Swift names, in order.
    var errors: [String]
    var headers: [HTTPHeaderField]
}

/// A piece of an http path.
enum IRPathSegment: Sendable, Equatable {
    case literal(String)
    case parameter(swiftName: String, wireName: String)
}

/// How a method pages, as Swift member chains.
struct IRPaging: Sendable, Equatable {
    /// Swift names from the request to the cursor property.
    var cursorPath: [IRPathStep]
    /// Swift names from the response to the items array.
    var itemsPath: [IRPathStep]
    /// Swift names from an item to its cursor value.
    var itemCursorPath: [IRPathStep]
    /// Swift names from the response to the `more` flag, when there is one.
    var morePath: [IRPathStep]?
}

/// One step of a member chain.
enum IRPathStep: Sendable, Equatable {
    /// A property of an object.
    case property(IRProperty)
    /// The first element of an array (`/0` in a pointer).
    case first
    /// Every element of an array (`/*` in an error's code pointer).
    case each

    /// Whether this step is ``each``.
    var isEach: Bool {
        if case .each = self { return true }
        return false
    }
}

/// An error format.
struct IRErrorFormat: Sendable, Equatable {
    /// The format's name, the Swift name of its error type in the family that declares it.
    var name: String
    /// The family that declares the format when this family uses another's (an error format with `$ref`).
    var module: String?
    /// The codes whose recovery this family sets differently from the declaring family, or adds, when it uses
    /// another's format.
    var recoveryOverrides: [IRCode] = []
    var documentation: String
    var provenance: Provenance
    var body: IRTypeRef
    var json: Bool
    var xml: Bool
    var root: String?
    /// Member chains to the code, tried in order.
    var codePaths: [[IRPathStep]]
    /// Member chains to the message, tried in order.
    var messagePaths: [[IRPathStep]]
    /// The code enum, when the format has codes.
    var codeType: IRCodeType?

    /// How generated code names the error type: qualified by its module when it is another family's and families
    /// are modules.
    var swiftName: String { qualifier.map { $0 + "." + name } ?? name }
    /// The module that qualifies ``swiftName``.
    var qualifier: String?
}

/// The open enum of an error format's codes.
struct IRCodeType: Sendable, Equatable {
    var name: String
    /// Whether the wire codes are integers (otherwise strings).
    var isInteger: Bool
    var codes: [IRCode]
    var provenance: Provenance
}

/// One known code.
struct IRCode: Sendable, Equatable {
    var value: ErrorCodeNode.Value
    var name: String
    var swiftName: String
    var description: String?
    var recovery: String
}

/// Which ways a type is coded: read from responses, written into requests, or both.
struct IRDirections: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    /// Read from a response or an error body.
    static let decode = IRDirections(rawValue: 1)
    /// Written into a request.
    static let encode = IRDirections(rawValue: 2)
}

extension IRType {
    /// Whether the type is coded as JSON in either direction.
    var needsJSON: Bool { !json.isEmpty }
    /// Whether the type is coded as XML in either direction.
    var needsXML: Bool { !xml.isEmpty }
}

extension IRFamily {
    /// The request type of `method`, through any aliases.
    func requestType(of method: IRMethod) -> IRType? {
        method.request.flatMap { typeTable.namedType(.named($0)) }
    }
}
