/// Emits a family's client struct: its servers, its configuration, and the helpers every method calls.
enum ClientEmitter {
    /// Emits the client file's declarations.
    ///
    /// ```swift
    /// public struct VitalClient: Sendable {
    ///     public struct Servers: Sendable, Hashable { public var api: Foundation.URL?; … }
    ///     public struct Configuration: Sendable { public var servers: Servers; public var transport: any SDKRuntime.HTTPTransport; … }
    ///     public var configuration: Configuration
    ///     public init(configuration: Configuration = .init()) { … }
    /// }
    /// ```
    static func emit(_ family: IRFamily, into p: inout SwiftPrinter) {
        p.doc(
            "A client for \(family.name): \(family.description)",
            remarks: ["Each method of the family is an `async throws` method on this client, taking exactly the credentials its schema's auth policy needs.", Emit.remark(Provenance(file: family.directory + "/protocol.json", pointer: ""))]
        )
        p.block("public struct \(family.clientName): Sendable") { p in
            servers(family, into: &p)
            p.blank()
            configuration(family, into: &p)
            p.blank()
            p.doc("How the client reaches the server.")
            p.line("public var configuration: Configuration")
            p.blank()
            p.doc("Creates a client.")
            p.block("public init(configuration: Configuration = .init())") { p in
                p.line("self.configuration = configuration")
            }
        }
        p.blank()
        p.doc("Fails to compile when this code was generated for another runtime version: run sdkgen again.")
        p.line("private typealias _RequiresRuntime = SDKRuntime.GeneratedCodeRuntimeVersion_1")
        p.blank()
        switch family.binding {
        case .healthvault(let settings): healthVaultHelpers(family, settings: settings, into: &p)
        case .http(let settings): httpHelpers(family, settings: settings, into: &p)
        }
    }

    private static func servers(_ family: IRFamily, into p: inout SwiftPrinter) {
        p.doc("The base URLs, one per server of protocol.json.")
        p.block("public struct Servers: Sendable, Hashable") { p in
            for server in family.servers {
                p.doc(server.description)
                p.line("public var \(Emit.name(server.name)): Foundation.URL?")
                p.blank()
            }
            p.doc("Creates the set of base URLs." + (family.servers.contains { $0.defaultURL != nil } ? " Servers with a default in protocol.json start with it." : ""))
            let parameters = family.servers.map { server -> String in
                let value = server.defaultURL.map { "Foundation.URL(string: \(SwiftLiteral.string($0)))" } ?? "nil"
                return "\(Emit.name(server.name)): Foundation.URL? = \(value)"
            }
            p.block("public init(\(parameters.joined(separator: ", ")))") { p in
                for server in family.servers { p.line("self.\(Emit.name(server.name)) = \(Emit.name(server.name))") }
            }
        }
    }

    private static func configuration(_ family: IRFamily, into p: inout SwiftPrinter) {
        var members: [(doc: String, name: String, type: String, value: String)] = [
            ("The base URLs.", "servers", "Servers", ".init()"),
            ("Sends requests; replace it to use another HTTP stack or a test double.", "transport", "any SDKRuntime.HTTPTransport", "SDKRuntime.URLSessionTransport()"),
            ("Which URLs requests may go to: https only, unless plain http to this machine is allowed (for tests).", "urlPolicy", "SDKRuntime.URLPolicy", ".init()"),
        ]
        switch family.binding {
        case .healthvault(let settings):
            let language = settings.language.map(SwiftLiteral.string) ?? "nil"
            let country = settings.country.map(SwiftLiteral.string) ?? "nil"
            members += [
                ("The clock for `msg-time` and signing times.", "clock", "any SDKRuntime.WallClock", "SDKRuntime.SystemClock()"),
                ("What every request header carries.", "envelope", "SDKRuntime.HealthVaultEnvelopeSettings",
                 ".init(clientVersion: \(SwiftLiteral.string(settings.clientVersion)), language: \(language), country: \(country), messageTTL: \(settings.messageTTL))"),
                ("Which reads are sent again after a temporary failure; none by default.", "retry", "SDKRuntime.RetryPolicy", ".none"),
            ]
        case .http(let settings):
            members.append(("Header fields every request sends.", "headers", "SDKRuntime.HTTPHeaders", Emit.headersLiteral(settings.headers)))
        }
        members += [
            ("How long a request may take, or nil for the transport's default.", "timeout", "Foundation.TimeInterval?", "nil"),
            ("Receives redacted log records, or nil for none.", "logger", "(any SDKRuntime.LogSink)?", "nil"),
        ]
        p.doc("How the client reaches the server.")
        p.block("public struct Configuration: Sendable") { p in
            for member in members {
                p.doc(member.doc)
                p.line("public var \(member.name): \(member.type)")
                p.blank()
            }
            p.doc("Creates a configuration.")
            p.listBlock("public init(", members.map { "\($0.name): \($0.type) = \($0.value)" }, ")") { p in
                for member in members { p.line("self.\(member.name) = \(member.name)") }
            }
        }
    }

    // MARK: - HealthVault

    private static func healthVaultHelpers(_ family: IRFamily, settings: IRHealthVaultSettings, into p: inout SwiftPrinter) {
        let statusBody = family.errors.first { $0.name == settings.statusError }?.body.swiftType ?? "Status"
        p.block("extension \(family.clientName)") { p in
            p.doc("An `<info>` element holding `request`'s content.")
            p.block("static func info(_ request: some SDKRuntime.XMLEncodable, context: SDKRuntime.EncodingContext) throws -> SDKRuntime.XMLWriter") { p in
                p.line("var writer = SDKRuntime.XMLWriter()")
                p.line("try writer.element(\"info\", writing: request, context: context)")
                p.line("return writer")
            }
            p.blank()
            p.doc("An empty `<info />` element, for methods without parameters.")
            p.block("static func emptyInfo() -> SDKRuntime.XMLWriter") { p in
                p.line("var writer = SDKRuntime.XMLWriter()")
                p.line("writer.startElement(\"info\")")
                p.line("writer.endElement()")
                p.line("return writer")
            }
            p.blank()
            p.doc("Signs and sends one request, and returns the parsed response.\n\n- Throws: ``\(settings.statusError)`` for a non-zero status, `UnexpectedResponseError` for an HTTP failure without a HealthVault status, `ResponseDecodingError` for a malformed response, and the transport's errors.")
            p.block("func send(method: Swift.String, version: Swift.Int, recordID: Foundation.UUID? = nil, auth: SDKRuntime.HealthVaultRequestAuth, messageTime: Foundation.Date, info: SDKRuntime.XMLWriter, idempotent: Swift.Bool = false) async throws -> SDKRuntime.HealthVaultResponseEnvelope") { p in
                p.block("guard let url = configuration.servers.platform else") { p in
                    p.line("throw SDKRuntime.ConfigurationError.missingServer(\"platform\")")
                }
                p.line("try configuration.urlPolicy.check(url)")
                p.line("let envelope = try SDKRuntime.HealthVaultRequestEnvelope.encode(")
                p.line("    method: method, version: version, recordID: recordID, auth: auth,")
                p.line("    settings: configuration.envelope, messageTime: messageTime, info: info")
                p.line(")")
                p.line("let request = SDKRuntime.HTTPRequest(")
                p.line("    method: .post, url: url, headers: [\"Content-Type\": \"text/xml; charset=utf-8\"],")
                p.line("    body: Foundation.Data(envelope.bytes), timeout: configuration.timeout")
                p.line(")")
                p.block("return try await configuration.retry.run(idempotent: idempotent, now: configuration.clock.now)") { p in
                    p.line("configuration.logger.log(.debug, \(SwiftLiteral.string(family.name)), \"\\(public: method) v\\(public: version) → \\(SDKRuntime.Redaction.url(url))\")")
                    p.line("let response = try await configuration.transport.send(request)")
                    p.line("configuration.logger.log(.debug, \(SwiftLiteral.string(family.name)), \"\\(public: method) ← HTTP \\(public: response.status)\")")
                    p.line("let parsed: SDKRuntime.HealthVaultResponseEnvelope")
                    p.block("do") { p in
                        p.line("parsed = try SDKRuntime.HealthVaultResponseEnvelope(body: response.body)")
                    }
                    p.block("catch") { p in
                        p.line("if !response.isSuccess { throw SDKRuntime.UnexpectedResponseError(operation: method, response: response) }")
                        p.line("throw error")
                    }
                    p.block("guard parsed.statusCode == 0 else") { p in
                        p.line("throw \(settings.statusError)(body: try \(statusBody)(xml: parsed.status), httpStatus: response.status, operation: method)")
                    }
                    p.block("guard response.isSuccess else") { p in
                        p.line("throw SDKRuntime.UnexpectedResponseError(operation: method, response: response, reason: \"status 0 in an HTTP \\(response.status) response\")")
                    }
                    p.line("return parsed")
                }
            }
        }
    }

    // MARK: - HTTP

    private static func httpHelpers(_ family: IRFamily, settings: IRHTTPSettings, into p: inout SwiftPrinter) {
        p.block("extension \(family.clientName)") { p in
            p.doc("The error formats of protocol.json a method may answer with.")
            p.block("enum ErrorFormat: Sendable") { p in
                for error in family.errors { p.line("case \(Emit.name(Naming.lowerCamel(error.name)))") }
            }
            p.blank()
            p.doc("Starts a request to `path` under a server, with the family's default headers and then `headers`.")
            p.block("func makeRequest(_ method: SDKRuntime.HTTPMethod, server: Foundation.URL?, serverName: Swift.String, path: Swift.String, headers: SDKRuntime.HTTPHeaders = [:]) throws -> SDKRuntime.HTTPRequestBuilder") { p in
                p.line("var builder = try SDKRuntime.HTTPRequestBuilder(method: method, server: server, serverName: serverName, path: path)")
                p.line("for field in configuration.headers { builder.headers[field.name] = field.value }")
                p.line("for field in headers { builder.headers[field.name] = field.value }")
                p.line("return builder")
            }
            p.blank()
            p.doc("Sends a request; a non-2xx response becomes the first of `errors` whose shape it has, or `UnexpectedResponseError`.")
            p.block("func send(_ builder: SDKRuntime.HTTPRequestBuilder, operation: Swift.String, errors: [ErrorFormat]) async throws -> SDKRuntime.HTTPResponse") { p in
                p.line("let request = try builder.build(timeout: configuration.timeout)")
                p.line("try configuration.urlPolicy.check(request.url)")
                p.line("configuration.logger.log(.debug, \(SwiftLiteral.string(family.name)), \"\\(public: operation) → \\(public: request.method) \\(SDKRuntime.Redaction.url(request.url))\")")
                p.line("let response = try await configuration.transport.send(request)")
                p.line("configuration.logger.log(.debug, \(SwiftLiteral.string(family.name)), \"\\(public: operation) ← HTTP \\(public: response.status)\")")
                p.line("guard response.isSuccess else { throw Self.error(for: response, operation: operation, formats: errors) }")
                p.line("return response")
            }
            p.blank()
            p.doc("The typed error for a non-2xx response: the first format in `formats` whose body the response has.")
            p.block("static func error(for response: SDKRuntime.HTTPResponse, operation: Swift.String, formats: [ErrorFormat]) -> any Error") { p in
                if family.errors.contains(where: \.json) { p.line("let isJSON = SDKRuntime.HTTPResponseBody.looksLikeJSON(response.body)") }
                if family.errors.contains(where: { $0.xml && $0.root != nil }) { p.line("let isXML = SDKRuntime.HTTPResponseBody.isXML(response)") }
                p.block("for format in formats") { p in
                    p.switchBlock("format") { p in
                        for error in family.errors {
                            p.line("case .\(Emit.name(Naming.lowerCamel(error.name))):")
                            if !error.json && error.root == nil { p.line("    break") }
                            let body = error.body.swiftType
                            if error.xml, let root = error.root {
                                p.line("    if isXML, let body = try? SDKRuntime.HTTPResponseBody.xml(\(body).self, from: response, rootElements: [\(SwiftLiteral.string(root))]) {")
                                p.line("        return \(error.name)(body: body, httpStatus: response.status, operation: operation)")
                                p.line("    }")
                            }
                            if error.json {
                                p.line("    if isJSON, let body = try? SDKRuntime.JSONCoding.decode(\(body).self, from: response.body) {")
                                p.line("        return \(error.name)(body: body, httpStatus: response.status, operation: operation)")
                                p.line("    }")
                            }
                        }
                    }
                }
                p.line("return SDKRuntime.UnexpectedResponseError(operation: operation, response: response)")
            }
        }
    }
}
