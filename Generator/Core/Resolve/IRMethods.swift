/// One method.
package struct IRMethod: Sendable, Equatable {
    /// The namespace name, e.g. `GetAuthorizedPeople`.
    package var name: String
    /// The client method's name, e.g. `getAuthorizedPeople`.
    package var clientMethodName: String
    package var documentation: String
    package var provenance: Provenance
    package var binding: IRMethodBinding
    /// The `Request` type, when the method sends one.
    package var request: IRTypeName?
    /// The `Response` type, when the method decodes one.
    package var response: IRTypeName?
    /// Types nested directly in the method's namespace (Request, Response and `$defs`), in order.
    package var namespaceTypes: [IRTypeName]
    package var paging: IRPaging?
}

/// How a method travels.
package enum IRMethodBinding: Sendable, Equatable {
    case healthvault(IRHealthVaultMethod)
    case http(IRHTTPMethod)
}

/// A healthvault method's binding.
package struct IRHealthVaultMethod: Sendable, Equatable {
    package var method: String
    package var version: Int
    package var auth: HealthVaultAuth
    package var responseNamespace: String
    package var recordScoped: Bool
    /// Whether a retry policy may send the request again.
    package var idempotent: Bool
}

/// An http method's binding.
package struct IRHTTPMethod: Sendable, Equatable {
    package var verb: HTTPVerb
    package var server: String
    /// The path split into literal text and `{name}` placeholders (as property Swift names and types).
    package var pathSegments: [IRPathSegment]
    /// Where `path` is in the schema, for diagnostics.
    var pathLocation: Located<String>
    package var body: HTTPBodyKind
    package var auth: HTTPAuth
    package var response: HTTPResponseKind
    /// The names the XML document element may have.
    package var responseRoots: [String]
    /// Error format Swift names, in order.
    package var errors: [String]
    package var headers: [HTTPHeaderField]
}

/// A piece of an http path.
package enum IRPathSegment: Sendable, Equatable {
    case literal(String)
    case parameter(swiftName: String, wireName: String)
}

/// How a method pages, as Swift member chains.
package struct IRPaging: Sendable, Equatable {
    /// Swift names from the request to the cursor property.
    package var cursorPath: [IRPathStep]
    /// Swift names from the response to the items array.
    package var itemsPath: [IRPathStep]
    /// Swift names from an item to its cursor value.
    package var itemCursorPath: [IRPathStep]
    /// Swift names from the response to the `more` flag, when there is one.
    package var morePath: [IRPathStep]?
}

/// One step of a member chain.
package enum IRPathStep: Sendable, Equatable {
    /// A property of an object.
    case property(IRProperty)
    /// The first element of an array (`/0` in a pointer).
    case first
    /// Every element of an array (`/*` in an error's code pointer).
    case each

    /// Whether this step is ``each``.
    package var isEach: Bool {
        if case .each = self { return true }
        return false
    }
}

/// An error format.
package struct IRErrorFormat: Sendable, Equatable {
    /// The format's name, the Swift name of its error type in the family that declares it.
    package var name: String
    /// The family that declares the format when this family uses another's (an error format with `$ref`).
    package var module: String?
    /// The codes whose recovery this family sets differently from the declaring family, or adds, when it uses
    /// another's format.
    package var recoveryOverrides: [IRCode] = []
    package var documentation: String
    package var provenance: Provenance
    package var body: IRTypeRef
    package var json: Bool
    package var xml: Bool
    package var root: String?
    /// Member chains to the code, tried in order.
    package var codePaths: [[IRPathStep]]
    /// Member chains to the message, tried in order.
    package var messagePaths: [[IRPathStep]]
    /// The code enum, when the format has codes.
    package var codeType: IRCodeType?

    /// How generated code names the error type: qualified by its module when it is another family's and families
    /// are modules.
    package var swiftName: String { qualifier.map { $0 + "." + name } ?? name }
    /// The module that qualifies ``swiftName``.
    var qualifier: String?
}

/// The open enum of an error format's codes.
package struct IRCodeType: Sendable, Equatable {
    package var name: String
    /// Whether the wire codes are integers (otherwise strings).
    package var isInteger: Bool
    package var codes: [IRCode]
    package var provenance: Provenance
}

/// One known code.
package struct IRCode: Sendable, Equatable {
    package var value: ErrorCodeNode.Value
    package var name: String
    package var swiftName: String
    package var description: String?
    package var recovery: String
}

/// Which ways a type is coded: read from responses, written into requests, or both.
package struct IRDirections: OptionSet, Sendable, Hashable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Read from a response or an error body.
    package static let decode = IRDirections(rawValue: 1)
    /// Written into a request.
    package static let encode = IRDirections(rawValue: 2)
}

extension IRType {
    /// Whether the type is coded as JSON in either direction.
    package var needsJSON: Bool { !json.isEmpty }
    /// Whether the type is coded as XML in either direction.
    package var needsXML: Bool { !xml.isEmpty }
}

extension IRFamily {
    /// The request type of `method`, through any aliases.
    package func requestType(of method: IRMethod) -> IRType? {
        method.request.flatMap { typeTable.namedType(.named($0)) }
    }
}
