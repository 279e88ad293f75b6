/// The intermediate representation: families, methods and types, resolved and named, knowing nothing of JSON.
///
/// Emitters read only this. Every part is an immutable value: a type refers to another by its ``IRTypeName``, and each
/// family's ``IRTypeTable`` holds every type by name, so recursive types need no shared mutable nodes.

/// Every family to generate.
struct IRModule: Sendable, Equatable {
    /// The families, sorted by name.
    var families: [IRFamily]
}

/// One protocol family: one Swift module.
struct IRFamily: Sendable, Equatable {
    /// The family's name, its schema directory's, e.g. `HealthVault`.
    var name: String
    /// The Swift module its code is generated into, which other families' code imports, e.g.
    /// `HealthSignInHealthVault`; the family's name unless `protocol.json` names one.
    var module: String
    /// The family's schema directory as shown to users, e.g. `Schemas/HealthVault`.
    var directory: String
    /// What the protocol is.
    var description: String
    /// Whether `--test-samples` writes round trips of the family's models (`protocol.json`'s `sampleTests`).
    var sampleTests = true
    /// The binding kind and its settings.
    var binding: IRFamilyBinding
    /// The named base URLs.
    var servers: [IRServer]
    /// The shared types of `types.json`, in declaration order.
    var types: [IRTypeName]
    /// The methods, sorted by name.
    var methods: [IRMethod]
    /// The error formats, in declaration order.
    var errors: [IRErrorFormat]
    /// Every type of the family, nested ones and those of methods included, and the types of other families it
    /// refers to (see ``IRType/module``).
    var typeTable: IRTypeTable
    /// The other families whose types or error formats this one uses, each a module its code imports, by name.
    var dependencies: [IRDependency] = []

    /// The client struct's name, e.g. `HealthVaultAPIClient`.
    var clientName: String { name + "APIClient" }
}

/// Another family that a family's schemas refer to.
struct IRDependency: Sendable, Equatable {
    /// The family.
    var family: String
    /// The family's module, which generated code imports.
    var module: String
    /// Whether the types used from it are read or written as XML, whose conformances are its
    /// `@_spi(Generated)` interface.
    var usesSPI: Bool
}

/// A family's binding kind.
enum IRFamilyBinding: Sendable, Equatable {
    /// HealthVault's XML envelope.
    case healthvault(IRHealthVaultSettings)
    /// Plain HTTP.
    case http(IRHTTPSettings)
}

/// Settings of the healthvault binding.
struct IRHealthVaultSettings: Sendable, Equatable {
    var language: String?
    var country: String?
    var messageTTL: Int
    var clientVersion: String
    /// The error format a non-zero status becomes.
    var statusError: String
}

/// Settings of the http binding.
struct IRHTTPSettings: Sendable, Equatable {
    var apiKeyHeader: String?
    var headers: [HTTPHeaderField]
    var xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
struct IRServer: Sendable, Equatable {
    var name: String
    var description: String
    var defaultURL: String?
}

/// Where a declaration came from, for `- Remark: Generated from …`.
struct Provenance: Sendable, Equatable {
    /// The schema file, e.g. `Schemas/HealthVault/types.json`.
    var file: String
    /// The JSON pointer inside it.
    var pointer: String

    /// `Schemas/HealthVault/types.json#/$defs/PersonInfo`
    var text: String { file + "#" + pointer }
}
