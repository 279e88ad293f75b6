/// Emits a family's client struct: its servers, its configuration, and (from the binding) the core its methods call.
enum ClientEmitter {
    /// Emits the client file's declarations.
    ///
    /// ```swift
    /// public struct VitalAPIClient: HealthSignInCore.HTTPAPIClient {
    ///     public struct Servers: HealthSignInCore.HTTPServerSet { public var api: Foundation.URL?; … }
    ///     public var configuration: Configuration
    ///     public init(configuration: Configuration = .init()) { self.configuration = configuration }
    /// }
    /// ```
    ///
    /// A binding without a client protocol in the runtime gets its own `Configuration` struct.
    static func emit(_ family: IRFamily, binding: any BindingEmitter, into p: inout SwiftPrinter) {
        p.doc(
            "A client for \(family.name): \(family.description)",
            remarks: [
                "Each method of the family is an `async throws` method on this client, taking exactly the credentials its schema's auth policy needs.",
                Emit.remark(Provenance(file: family.directory + "/protocol.json", pointer: "")),
            ]
        )
        p.block("public struct \(family.clientName): \(binding.clientProtocol ?? "Sendable")") { p in
            servers(family, binding: binding, into: &p)
            p.blank()
            if binding.clientProtocol == nil {
                configuration(binding.configurationMembers, into: &p)
                p.blank()
            }
            p.doc("How the client reaches the server.")
            p.line("public var configuration: Configuration")
            p.blank()
            p.doc("Creates a client.")
            p.line("public init(configuration: Configuration = .init()) { self.configuration = configuration }")
        }
        p.blank()
        p.doc("Fails to compile when this code was generated for another runtime version: run sdkgen again.")
        p.line("private typealias _RequiresRuntime = HealthSignInCore.GeneratedCodeRuntimeVersion_2")
        var support = SwiftPrinter()
        binding.clientSupport(into: &support)
        if !support.lines.isEmpty {
            p.blank()
            p.block("extension \(family.clientName)") { p in p.append(support) }
        }
    }

    private static func servers(_ family: IRFamily, binding: any BindingEmitter, into p: inout SwiftPrinter) {
        var members = SwiftPrinter()
        let conformance = binding.serversConformance(into: &members) ?? "Sendable, Hashable"
        p.doc("The base URLs, one per server of protocol.json.")
        p.block("public struct Servers: \(conformance)") { p in
            for server in family.servers {
                p.doc(server.description)
                p.line("public var \(Emit.name(server.name)): Foundation.URL?")
            }
            p.blank()
            p.doc(
                "Creates the set of base URLs."
                    + (family.servers.contains { $0.defaultURL != nil }
                        ? " Servers with a default in protocol.json start with it." : ""))
            let parameters = family.servers.map { server -> String in
                let value = server.defaultURL.map { "Foundation.URL(string: \(SwiftLiteral.string($0)))" } ?? "nil"
                return "\(Emit.name(server.name)): Foundation.URL? = \(value)"
            }
            p.memberwiseInitializer("public init(", parameters, ")", names: family.servers.map { Emit.name($0.name) })
            if !members.lines.isEmpty { p.blank() }
            p.append(members)
        }
    }

    /// `Configuration`: the servers, the options every client shares, then the binding's own members. Besides its
    /// memberwise initializer it has one taking the options' parts, so a configuration is written in one call.
    private static func configuration(_ own: [ConfigurationMember], into p: inout SwiftPrinter) {
        let members: [ConfigurationMember] =
            [
                .init(doc: "The base URLs.", name: "servers", type: "Servers", value: ".init()"),
                .init(
                    doc: "The transport, URL policy, timeout and logger.", name: "options",
                    type: "HealthSignInCore.ClientOptions", value: ".init()"),
            ] + own
        let parts: [ConfigurationMember] = [
            .init(
                doc: "", name: "transport", type: "any HealthSignInCore.HTTPTransport",
                value: "HealthSignInCore.DefaultHTTPTransport()"),
            .init(doc: "", name: "urlPolicy", type: "HealthSignInCore.URLPolicy", value: ".init()"),
            .init(doc: "", name: "timeout", type: "Foundation.TimeInterval?", value: "nil"),
            .init(doc: "", name: "logger", type: "(any HealthSignInCore.LogSink)?", value: "nil"),
            .init(doc: "", name: "middlewares", type: "[any HealthSignInCore.HTTPClientMiddleware]", value: "[]"),
        ]
        p.doc("How the client reaches the server.")
        p.block("public struct Configuration: Sendable") { p in
            for member in members {
                p.doc(member.doc)
                p.line("public var \(member.name): \(member.type)")
            }
            p.blank()
            p.doc("Creates a configuration.")
            // `options` has no default here, so that `Configuration()` calls the initializer below.
            let parameters = members.map { "\($0.name): \($0.type)" + ($0.name == "options" ? "" : " = \($0.value)") }
            p.listBlock("public init(", parameters, ")") { p in
                for member in members { p.line("self.\(member.name) = \(member.name)") }
            }
            p.blank()
            p.doc("Creates a configuration from the parts of its options.")
            // In the order the options' parts had before they were grouped: transport and URL policy, then the
            // binding's members, then timeout, logger and middlewares.
            var ordered: [ConfigurationMember] = [members[0]]
            ordered += parts.prefix(2)
            ordered += own
            ordered += parts.suffix(3)
            let flat: [String] = ordered.map { "\($0.name): \($0.type) = \($0.value)" }
            p.listBlock("public init(", flat, ")") { p in
                let options =
                    "options: HealthSignInCore.ClientOptions(transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)"
                p.call("self.init(", ["servers: servers", options] + own.map { "\($0.name): \($0.name)" }, ")")
            }
        }
    }
}
