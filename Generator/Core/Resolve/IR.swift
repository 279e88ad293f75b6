/// The intermediate representation: families, methods and types, resolved and named, knowing nothing of JSON.
///
/// Emitters read only this. Every part is an immutable value: a type refers to another by its ``IRTypeName``, and each
/// family's ``IRTypeTable`` holds every type by name, so recursive types need no shared mutable nodes.

/// Every family to generate.
package struct IRModule: Sendable, Equatable {
    /// The families, sorted by name.
    package var families: [IRFamily]
}

/// One protocol family: one Swift module.
package struct IRFamily: Sendable, Equatable {
    /// The family's name, its schema directory's, e.g. `HealthVault`.
    package var name: String
    /// The Swift module its code is generated into, which other families' code imports, e.g.
    /// `HealthSignInHealthVault`; the family's name unless `protocol.json` names one.
    package var module: String
    /// The family's schema directory as shown to users, e.g. `Schemas/HealthVault`.
    package var directory: String
    /// What the protocol is.
    package var description: String
    /// The binding kind and its settings.
    package var binding: IRFamilyBinding
    /// The named base URLs.
    package var servers: [IRServer]
    /// The shared types of `types.json`, in declaration order.
    package var types: [IRTypeName]
    /// The methods, sorted by name.
    package var methods: [IRMethod]
    /// The error formats, in declaration order.
    package var errors: [IRErrorFormat]
    /// Every type of the family, nested ones and those of methods included, and the types of other families it
    /// refers to (see ``IRType/module``).
    package var typeTable: IRTypeTable
    /// The other families whose types or error formats this one uses, each a module its code imports, by name.
    package var dependencies: [IRDependency] = []

    /// The client struct's name, e.g. `HealthVaultAPIClient`.
    package var clientName: String { name + "APIClient" }
}

/// Another family that a family's schemas refer to.
package struct IRDependency: Sendable, Equatable {
    /// The family.
    package var family: String
    /// The family's module, which generated code imports.
    package var module: String
    /// Whether the types used from it are read or written as XML, whose conformances are its
    /// `@_spi(Generated)` interface.
    package var usesSPI: Bool
}

/// A family's binding kind.
package enum IRFamilyBinding: Sendable, Equatable {
    /// HealthVault's XML envelope.
    case healthvault(IRHealthVaultSettings)
    /// Plain HTTP.
    case http(IRHTTPSettings)
}

/// Settings of the healthvault binding.
package struct IRHealthVaultSettings: Sendable, Equatable {
    package var language: String?
    package var country: String?
    package var messageTTL: Int
    package var clientVersion: String
    /// The error format a non-zero status becomes.
    package var statusError: String
}

/// Settings of the http binding.
package struct IRHTTPSettings: Sendable, Equatable {
    package var apiKeyHeader: String?
    package var headers: [HTTPHeaderField]
    package var xmlPrimitives: XMLPrimitiveStyle
}

/// A named base URL.
package struct IRServer: Sendable, Equatable {
    package var name: String
    package var description: String
    package var defaultURL: String?
}

/// Where a declaration came from, for `- Remark: Generated from …`.
package struct Provenance: Sendable, Equatable {
    /// The schema file, e.g. `Schemas/HealthVault/types.json`.
    package var file: String
    /// The JSON pointer inside it.
    package var pointer: String

    /// `Schemas/HealthVault/types.json#/$defs/PersonInfo`
    package var text: String { file + "#" + pointer }
}
