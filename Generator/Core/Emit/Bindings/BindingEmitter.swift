/// How one binding kind (`healthvault`, `http`) shapes a family's generated code.
///
/// Everything that depends on how a family's methods travel is in a type conforming to this protocol; the other
/// emitters ask the family's binding and never look at its kind. Adding a binding kind means adding one conforming
/// type and returning it from ``BindingEmitters/emitter(for:)``.
protocol BindingEmitter {
    /// The family whose code is emitted.
    var family: IRFamily { get }

    /// How scalar XML elements are spelled in this family.
    var xmlPrimitives: XMLPrimitiveStyle { get }

    /// The members of the client's `Configuration` after its servers and shared options.
    var configurationMembers: [ConfigurationMember] { get }

    /// The runtime's client protocol the client conforms to, which gives it its `Configuration` (generic over its
    /// `Servers`) and its `core`; nil when the client declares its own `Configuration` from ``configurationMembers``.
    var clientProtocol: String? { get }

    /// The protocol the client's `Servers` conform to beside `Sendable` and `Hashable`, and the members it needs.
    func serversConformance(into p: inout SwiftPrinter) -> String?

    /// The declarations the client's methods call, in an extension of the client: at least `core`, built from the
    /// configuration.
    func clientSupport(into p: inout SwiftPrinter)

    /// How `method` travels, in one sentence for its documentation.
    func summary(of method: IRMethod) -> String

    /// The parameters after the request that carry `method`'s credentials.
    func credentialParameters(of method: IRMethod) -> [MethodParameter]

    /// What `method` throws, for its documentation.
    func errorSummary(of method: IRMethod) -> String

    /// The effects and result of `method`'s client function: `) async throws -> Response` unless the binding says
    /// otherwise.
    func signatureTail(of method: IRMethod) -> String

    /// The statements of `method`'s client function, after the request is validated.
    func body(of method: IRMethod, into p: inout SwiftPrinter)

    /// Code `method`'s file needs beside its types and client function, or nothing.
    func methodSupport(of method: IRMethod, into p: inout SwiftPrinter)
}

/// A stored member of a generated client's `Configuration`.
struct ConfigurationMember {
    let doc: String
    let name: String
    let type: String
    /// The initializer parameter's default value.
    let value: String
}

/// A parameter of a generated client function.
struct MethodParameter {
    let label: String
    let type: String
    let doc: String
}

/// The binding emitters.
enum BindingEmitters {
    /// The emitter for `family`'s binding kind.
    static func emitter(for family: IRFamily) -> any BindingEmitter {
        switch family.binding {
        case .healthvault(let settings): return HealthVaultBindingEmitter(family: family, settings: settings)
        case .http(let settings): return HTTPBindingEmitter(family: family, settings: settings)
        }
    }
}

extension BindingEmitter {
    var clientProtocol: String? { nil }

    func serversConformance(into p: inout SwiftPrinter) -> String? { nil }

    func signatureTail(of method: IRMethod) -> String {
        ") async throws" + (method.response == nil ? "" : " -> \(method.name).Response")
    }
}
