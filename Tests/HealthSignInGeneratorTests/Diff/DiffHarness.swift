import Foundation

@testable import HealthSignInGenerator

/// The Swift that proves a family's diff verdicts, emitted from one version's IR.
///
/// - ``program()``: the version's messages (every method's request and response, full and minimal, and every error
///   body), and how the version reads a message: decode, `validate()`, encode again (keys sorted), and for a request
///   the HTTP request the version's client sends for it. Two versions read each other's messages; any difference
///   is a wire break.
/// - ``usage()``: code written against the version's API (every initializer with every argument, every property read
///   at its type, every client method called, every enum, union and error code switched over exhaustively), which
///   the other version's code must compile for the source to be compatible.
struct DiffHarness {
    let family: IRFamily

    private var name: String { family.name }
    private var types: IRTypeTable { family.typeTable }
    private var sampler: SampleEmitter {
        SampleEmitter(family: family, xml: XMLCodecEmitter(types: types, primitives: .text))
    }

    private func sample(_ type: IRTypeName, full: Bool) -> String {
        sampler.sample(.named(type), full: full, depth: 0, counter: SampleEmitter.Counter(), visiting: [])
    }

    private var models: [IRType] {
        types.names.compactMap { types[$0] }.filter { $0.module == nil && ($0.isObject || $0.isUnion) }
    }

    private var httpMethods: [(IRMethod, IRHTTPMethod)] {
        family.methods.compactMap { method in
            if case .http(let http) = method.binding { return (method, http) }
            return nil
        }
    }

    /// Whether `type` has `validate(at:)`.
    private func validates(_ name: IRTypeName) -> Bool {
        guard let type = types[name] else { return false }
        return (type.isObject || type.isUnion) && ValidationEmitter(types: types).needsValidation(type)
    }

    // MARK: - The program

    /// This version's readers: for every method's request, response and error formats, how a JSON message is read
    /// (decoded, validated, shown by Swift names; a request also sent), keyed `<family>/<method>/<part>`.
    func program() -> String {
        var p = SwiftPrinter()
        p.line("import Foundation")
        p.line("@_spi(Generated) import HealthSignInCore")
        p.line("")
        sampler.complements(of: models, into: &p)
        // A request sent as a query, headers or a form has no JSON coding at all: read its messages as JSON too.
        for type in models where type.json.isEmpty && type.xml.isEmpty {
            JSONCodecEmitter(types: types).conformanceExtension(of: type, directions: [.decode], into: &p)
        }
        for type in models where validates(type.qualifiedName) {
            p.line("extension \(type.qualifiedName): DiffChecked {}")
        }
        views(into: &p)
        p.line("")
        p.block("enum \(name)Harness") { p in
            p.block("static func read(_ part: Swift.String, _ text: Swift.String) async -> Swift.String?") { p in
                p.switchBlock("part") { p in
                    for (method, http) in httpMethods {
                        if let request = method.request, let type = types[request], !type.isFixed {
                            p.line("case \(SwiftLiteral.string(method.name + "/request")):")
                            p.indented { p in
                                p.line("return await diffRead(\(request).self, text) { value in")
                                p.indented { p in
                                    p.line(
                                        "let client = \(family.clientName)(configuration: .init(servers: \(servers()), transport: DiffTransport()))"
                                    )
                                    p.line(
                                        "return try await DiffTransport.recorded { _ = try await client.\(Emit.name(method.clientMethodName))(\(callArguments(method, http, value: "value"))) }"
                                    )
                                }
                                p.line("}")
                            }
                        }
                        if let response = method.response, types[response].map({ $0.isObject || $0.isUnion }) == true {
                            p.line("case \(SwiftLiteral.string(method.name + "/response")):")
                            p.indented { p in p.line("return await diffRead(\(response).self, text, send: nil)") }
                        }
                        for (index, formatName) in http.errors.enumerated() {
                            guard let format = family.errors.first(where: { $0.name == formatName }),
                                case .named(let body) = format.body
                            else { continue }
                            p.line("case \(SwiftLiteral.string("\(method.name)/error/\(index)")):")
                            p.indented { p in
                                p.line("return await diffRead(\(body).self, text) { body in")
                                p.indented { p in
                                    p.line(
                                        "let error = \(format.swiftName)(body: body, httpStatus: 400, operation: \"diff\")"
                                    )
                                    let code = format.codeType == nil ? "\"\"" : "error.code.rawValue"
                                    p.line(
                                        "return \"code: \\(\(code)), message: \\(error.message ?? \"none\")\""
                                    )
                                }
                                p.line("}")
                            }
                        }
                    }
                    p.line("default: return nil")
                }
            }
        }
        return p.lines.joined(separator: "\n") + "\n"
    }

    /// `DiffViewable` for every model: objects by Swift property names, unions by case, enums by raw value.
    private func views(into p: inout SwiftPrinter) {
        for type in types.names.compactMap({ types[$0] }) where type.module == nil {
            switch type.kind {
            case .object(let properties):
                p.block("extension \(type.qualifiedName): DiffViewable") { p in
                    p.block("var diffView: Any") { p in
                        var members = properties.filter(\.isStored).map {
                            "\(SwiftLiteral.string($0.swiftName)): diffViewOf(self.\(Emit.name($0.swiftName)) as Any)"
                        }
                        if type.extraMembers != nil {
                            members.append("\"additionalProperties\": diffViewOf(self.additionalProperties as Any)")
                        }
                        p.line(
                            "let members: [Swift.String: Any] = ["
                                + (members.isEmpty ? ":" : members.joined(separator: ", ")) + "]")
                        p.line("return members")
                    }
                }
            case .union(let union):
                p.block("extension \(type.qualifiedName): DiffViewable") { p in
                    p.block("var diffView: Any") { p in
                        p.switchBlock("self") { p in
                            for variant in union.variants {
                                p.line(
                                    "case .\(Emit.name(variant.caseName))(let value): return [\(SwiftLiteral.string(variant.caseName)): diffViewOf(value as Any)]"
                                )
                            }
                        }
                    }
                }
            case .enumeration:
                p.line("extension \(type.qualifiedName): DiffViewable { var diffView: Any { rawValue } }")
            case .alias:
                continue
            }
        }
    }

    /// Every server set to its default URL.
    private func servers() -> String {
        let arguments = family.servers.map { server in
            "\(Emit.name(server.name)): Foundation.URL(string: \(SwiftLiteral.string(server.defaultURL ?? "https://\(server.name).example.com")))"
        }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    /// The arguments of a call of `method` with `value` and a stand-in credential.
    private func callArguments(_ method: IRMethod, _ http: IRHTTPMethod, value: String) -> String {
        var arguments: [String] = []
        if let request = method.request, let type = types[request], !type.isFixed { arguments.append(value) }
        switch http.auth {
        case .none: break
        case .basic:
            arguments.append("credentials: HealthSignInCore.BasicCredentials(username: \"user\", password: \"pass\")")
        case .bearer: arguments.append("token: HealthSignInCore.BearerToken(\"token\")")
        case .apiKey: arguments.append("apiKey: HealthSignInCore.APIKey(\"key\")")
        case .bearerOrApiKey: arguments.append("credential: .bearer(HealthSignInCore.BearerToken(\"token\"))")
        case .oauthClient: arguments.append("client: HealthSignInCore.OAuthClientCredentials(clientID: \"client\")")
        }
        return arguments.joined(separator: ", ")
    }

    // MARK: - The usage

    func usage() -> String {
        var p = SwiftPrinter()
        p.block("func use\(name)(_ client: \(family.clientName)) async throws") { p in
            p.line("_ = \(family.clientName).Servers\(servers())")
            for (method, http) in httpMethods where method.paging != nil {
                let value = method.request.map { sample($0, full: true) } ?? ""
                p.line(
                    "_ = client.\(Emit.name(method.clientMethodName))Pages(\(callArguments(method, http, value: value)))"
                )
            }
            for (method, http) in httpMethods {
                let call =
                    "try await client.\(Emit.name(method.clientMethodName))(\(callArguments(method, http, value: method.request.map { sample($0, full: true) } ?? "")))"
                if let response = method.response {
                    p.line("let _: \(response) = \(call)")
                } else {
                    p.line("_ = \(call)")
                }
            }
            for type in models {
                guard case .object(let properties) = type.kind else { continue }
                p.block("do") { p in
                    p.line("let value = \(sample(type.qualifiedName, full: true))")
                    p.line("_ = \(sample(type.qualifiedName, full: false))")
                    for property in properties where property.isStored {
                        let member = "value.\(Emit.name(property.swiftName))"
                        p.line("let _: \(property.swiftType) = \(member)")
                        // Only an optional binds with `if let`: a property that became required breaks this line.
                        if property.isOptional { p.line("if let _ = \(member) {}") }
                    }
                    if let extra = type.extraMembers {
                        p.line("let _: [Swift.String: \(extra.swiftType)] = value.additionalProperties")
                    }
                }
            }
        }
        for type in types.names.compactMap({ types[$0] }) where type.module == nil {
            switch type.kind {
            case .enumeration(let cases):
                p.block(
                    "func switch\(type.qualifiedName.qualified.replacingOccurrences(of: ".", with: ""))(_ value: \(type.qualifiedName)) -> Swift.Int"
                ) { p in
                    p.switchBlock("value") { p in
                        for (index, item) in cases.enumerated() {
                            p.line("case .\(Emit.name(item.swiftName)): return \(index)")
                        }
                        p.line("case .unknown: return -1")
                    }
                }
            case .union(let union):
                p.block(
                    "func switch\(type.qualifiedName.qualified.replacingOccurrences(of: ".", with: ""))(_ value: \(type.qualifiedName)) -> Swift.Int"
                ) { p in
                    p.switchBlock("value") { p in
                        for (index, variant) in union.variants.enumerated() {
                            p.line("case .\(Emit.name(variant.caseName))(let part): _ = part; return \(index)")
                        }
                    }
                }
            default: continue
            }
        }
        for format in family.errors where format.module == nil {
            guard let codes = format.codeType else { continue }
            p.block("func switch\(name)\(codes.name)(_ value: \(codes.name)) -> Swift.Int") { p in
                p.switchBlock("value") { p in
                    for (index, code) in codes.codes.enumerated() {
                        p.line("case .\(Emit.name(code.swiftName)): return \(index)")
                    }
                    p.line("case .unknown: return -1")
                }
            }
            p.line("func use\(format.name)(_ error: \(format.name)) -> \(codes.name) { error.code }")
        }
        for format in family.errors where format.module == nil && format.codeType == nil {
            p.line("func use\(format.name)(_ error: \(format.name)) -> Swift.Int { error.httpStatus }")
        }
        return p.lines.joined(separator: "\n") + "\n"
    }

    // MARK: - What every program shares

    /// The declarations the programs share: the checked protocol, the recording transport, reading and writing.
    static let support = """
        import Foundation
        @_spi(Generated) import HealthSignInCore

        protocol DiffChecked { func validate(at path: Swift.String) throws }

        /// Answers every request with an empty JSON object and keeps the last request: its line, its header fields
        /// (names lowercased, sorted) and its body.
        final class DiffTransport: HealthSignInCore.HTTPTransport, @unchecked Sendable {
            nonisolated(unsafe) static var last: Swift.String = ""
            func send(_ request: HealthSignInCore.HTTPRequestMessage) async throws -> HealthSignInCore.HTTPResponseMessage {
                let headers = request.headers.fields.map { $0.name.lowercased() + ": " + $0.value }.sorted()
                let body = request.body.map { Swift.String(decoding: $0, as: UTF8.self) } ?? ""
                DiffTransport.last = ([request.method.rawValue + " " + request.url.absoluteString] + headers + ["", body])
                    .joined(separator: "\\n")
                return HealthSignInCore.HTTPResponseMessage(status: 200, headers: ["Content-Type": "application/json"], body: Foundation.Data("{}".utf8))
            }
            static func recorded(_ call: () async throws -> Void) async throws -> Swift.String {
                last = ""
                try? await call()
                return last
            }
        }

        func diffText<T: Encodable>(_ value: T) throws -> Swift.String {
            Swift.String(decoding: try HealthSignInCore.JSONCoding.encode(value), as: UTF8.self)
        }

        protocol DiffViewable { var diffView: Any { get } }

        /// A value as Swift shows it: generated types by their members, optionals unwrapped, scalars as text.
        func diffViewOf(_ value: Any) -> Any {
            if let viewable = value as? DiffViewable { return viewable.diffView }
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                return mirror.children.first.map { diffViewOf($0.value) } ?? NSNull()
            }
            if let json = value as? HealthSignInCore.JSONValue { return (try? diffText(json)) ?? "" }
            if let array = value as? [Any] { return array.map(diffViewOf) }
            if let map = value as? [Swift.String: Any] { return map.mapValues(diffViewOf) }
            return Swift.String(describing: value)
        }

        /// How this version reads `text` as `T`: refused, or its view (and what sending it does, for a request).
        func diffRead<T: Decodable>(_ type: T.Type, _ text: Swift.String, send: ((T) async throws -> Swift.String)?) async -> Swift.String {
            do {
                let value = try HealthSignInCore.JSONCoding.decode(T.self, from: Foundation.Data(text.utf8))
                try (value as? any DiffChecked)?.validate(at: "")
                var reading: [Swift.String: Any] = ["view": diffViewOf(value)]
                if let send { reading["sent"] = try await send(value) }
                let data = try JSONSerialization.data(withJSONObject: reading, options: [.sortedKeys])
                return Swift.String(decoding: data, as: UTF8.self)
            } catch {
                return "refused"
            }
        }

        @main
        struct DiffMain {
            static func main() async throws {
                let arguments = CommandLine.arguments
                guard arguments.count == 2 else { return }
                let lines = try Swift.String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\\n")
                for line in lines {
                    let parts = line.split(separator: "\\t", maxSplits: 1)
                    guard parts.count == 2, let data = Foundation.Data(base64Encoded: Swift.String(parts[1])) else { continue }
                    let result = await readMessage(Swift.String(parts[0]), Swift.String(decoding: data, as: UTF8.self))
                    print(Swift.String(parts[0]) + "\\t" + Foundation.Data((result ?? "missing").utf8).base64EncodedString())
                }
            }
        }

        """

    /// The function that hands a message to its family's readers: keys are `<family>/<method>/<part>/<n>`.
    static func dispatch(_ families: [String]) -> String {
        """
        func readMessage(_ key: Swift.String, _ text: Swift.String) async -> Swift.String? {
            let parts = key.split(separator: "/").map(Swift.String.init)
            guard parts.count >= 4 else { return nil }
            let part = parts.dropFirst().dropLast().joined(separator: "/")
            switch parts[0] {
        \(families.map { "    case \"\($0)\": return await \($0)Harness.read(part, text)" }.joined(separator: "\n"))
            default: return nil
            }
        }

        """
    }
}
