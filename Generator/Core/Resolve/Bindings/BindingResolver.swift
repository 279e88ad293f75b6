/// How one binding kind (`healthvault`, `http`) is resolved: its settings and method bindings read from the
/// documents, what its requests may bind, and the checks only it makes.
///
/// Everything in the resolver that depends on how a family's methods travel is in a type conforming to this
/// protocol; adding a binding kind means adding one conforming type (and its emitter, ``BindingEmitter``) and
/// returning it from ``BindingResolvers/resolver(for:diagnostics:)``.
protocol BindingResolver {
    /// The family's binding.
    var family: IRFamilyBinding { get }

    /// Whether a schema without a type holds XML content (``IRScalar/xmlFragment``) rather than a JSON value.
    var anyValueIsXML: Bool { get }

    /// The error format a status in a successful response becomes, which needs no XML root of its own.
    var statusError: String? { get }

    /// The binding of the method `document` describes, or nil (with a diagnostic) when it does not fit the family.
    func methodBinding(of document: MethodDocument, diagnostics: inout Diagnostics) -> IRMethodBinding?

    /// What a request travelling by `binding` may hold.
    func requestRules(for binding: IRMethodBinding) -> RequestRules

    /// The codecs a method travelling by `binding` writes its request and reads its response in.
    func codecUsage(of binding: IRMethodBinding) -> IRCodecUsage

    /// The checks of a resolved method that only this binding makes.
    func check(_ method: IRMethod, document: MethodDocument, types: IRTypeTable, diagnostics: inout Diagnostics)
}

/// What a method's request may hold, which depends on how the method travels.
struct RequestRules {
    /// Context values a `bind` may name.
    var allowedBinds: Set<BindName> = []
    /// Whether an element may sign a sibling (the auth policy has a signer).
    var canSign = false
    /// Whether the request's top-level properties are fields of an http request (so `in` is allowed).
    var propertiesAreFields = false
    /// Why `bind` is not allowed, for the diagnostic.
    var bindRestriction: String
}

/// How a method's messages are coded.
struct IRCodecUsage {
    /// The codec the request body is written in, if the request is written by a codec.
    let request: IRCodec?
    /// The codecs the response may be read in.
    let response: [IRCodec]
    /// Whether the request's top-level properties travel as query, header, path or form fields.
    let requestHasFields: Bool
}

/// A codec of generated types.
enum IRCodec {
    case json, xml

    /// The directions of this codec a type needs.
    var keyPath: WritableKeyPath<IRType, IRDirections> {
        switch self {
        case .json: return \.json
        case .xml: return \.xml
        }
    }
}

/// The binding resolvers.
enum BindingResolvers {
    /// The resolver for the binding kind `document` declares.
    static func resolver(for document: ProtocolDocument, diagnostics: inout Diagnostics) -> any BindingResolver {
        switch document.binding {
        case .healthvault(let settings):
            return HealthVaultBindingResolver(document: document, settings: settings, diagnostics: &diagnostics)
        case .http(let settings):
            return HTTPBindingResolver(document: document, settings: settings)
        }
    }
}
