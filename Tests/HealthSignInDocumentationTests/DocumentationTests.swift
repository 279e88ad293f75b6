import Foundation
import HealthSignInTestSupport
import XCTest

/// The Swift in the README, the DocC articles and the doc comments is the code in `Snippets/`, which this target
/// compiles, or in a package under `Integrations/`, which `make integrations` compiles: every ```swift block of a
/// document must be a snippet (the snippet file's imports, a blank line, then the marked region), every one of a doc
/// comment a snippet's region, and every snippet must be shown somewhere.
final class DocumentationTests: XCTestCase {
    /// Snippets by name, as the documentation shows them.
    private static func snippets() throws -> [String: String] {
        try snippetParts().mapValues { $0.imports.isEmpty ? $0.region : $0.imports + "\n\n" + $0.region }
    }

    /// The Swift files under `Integrations/` (build folders aside): their packages are compiled by
    /// `make integrations`, so their marked regions are snippets too, and their doc comments are checked.
    private static func integrationFiles(under folder: String = "") throws -> [URL] {
        let root = Fixtures.repository.appendingPathComponent("Integrations")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var found: [URL] = []
        while let file = files?.nextObject() as? URL {
            let path = file.path.replacingOccurrences(of: root.path, with: "")
            if file.lastPathComponent.hasPrefix(".build") {
                files?.skipDescendants()
            } else if file.pathExtension == "swift", folder.isEmpty || path.contains(folder) {
                found.append(file)
            }
        }
        return found
    }

    /// Snippets by name: their file's imports and the marked region. They are in `Snippets/`, which this target
    /// compiles, and in the packages under `Integrations/`.
    private static func snippetParts() throws -> [String: (imports: String, region: String)] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snippets")
        var snippets: [String: (imports: String, region: String)] = [:]
        let own = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".swift") }
            .map { directory.appendingPathComponent($0) }
        for file in try own + integrationFiles() {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            let imports = lines.filter { $0.hasPrefix("import ") }
            var current: (name: String, indent: Int, lines: [String])?
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// snippet ") {
                    current = (String(trimmed.dropFirst("// snippet ".count)), line.prefix { $0 == " " }.count, [])
                } else if trimmed == "// end snippet", let snippet = current {
                    snippets[snippet.name] = (imports.joined(separator: "\n"), snippet.lines.joined(separator: "\n"))
                    current = nil
                } else if let indent = current?.indent {
                    current?.lines.append(String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
                }
            }
        }
        return snippets
    }

    /// Every ```swift block of the README and of the DocC articles, with where it is.
    private static func swiftBlocks() throws -> [(place: String, code: String)] {
        var documents = [Fixtures.repository.appendingPathComponent("README.md")]
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            if file.pathExtension == "md", file.path.contains(".docc/") { documents.append(file) }
        }
        var blocks: [(String, String)] = []
        for document in documents {
            var current: [String]?
            var start = 0
            for (index, line) in try String(contentsOf: document, encoding: .utf8).components(separatedBy: "\n")
                .enumerated()
            {
                if line == "```swift" {
                    current = []
                    start = index + 1
                } else if line == "```", let code = current {
                    let path = document.path.replacingOccurrences(of: Fixtures.repository.path + "/", with: "")
                    blocks.append(("\(path):\(start)", code.joined(separator: "\n")))
                    current = nil
                } else {
                    current?.append(line)
                }
            }
        }
        return blocks
    }

    /// Every ```swift block of a doc comment in `Sources` (generated code aside) and in the integrations' sources,
    /// without the comment's `/// `.
    private static func docCommentBlocks() throws -> [(place: String, code: String)] {
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        let files =
            (enumerator?.allObjects.compactMap { $0 as? URL } ?? []) + (try integrationFiles(under: "/Sources/"))
        var blocks: [(String, String)] = []
        for file in files {
            guard file.pathExtension == "swift", !file.path.contains("/Generated/") else { continue }
            var current: [String]?
            var start = 0
            for (index, line) in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                .enumerated()
            {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix("///") else { continue }
                let text =
                    trimmed.dropFirst(3).hasPrefix(" ") ? String(trimmed.dropFirst(4)) : String(trimmed.dropFirst(3))
                if text == "```swift" {
                    current = []
                    start = index + 2
                } else if text == "```", let code = current {
                    let path = file.path.replacingOccurrences(of: Fixtures.repository.path + "/", with: "")
                    blocks.append(("\(path):\(start)", code.joined(separator: "\n")))
                    current = nil
                } else {
                    current?.append(text)
                }
            }
        }
        return blocks
    }

    func testEverySwiftBlockIsACompiledSnippet() throws {
        let parts = try Self.snippetParts()
        let snippets = try Self.snippets()
        XCTAssertGreaterThanOrEqual(snippets.count, 7)
        let blocks = try Self.swiftBlocks()
        let docComments = try Self.docCommentBlocks()
        XCTAssertGreaterThanOrEqual(docComments.count, 30)
        let snippetsFolder = "Tests/HealthSignInDocumentationTests/Snippets or a package under Integrations/"
        for block in blocks where !snippets.values.contains(block.code) {
            XCTFail(
                "\(block.place): this Swift is not a snippet in \(snippetsFolder), so nothing compiles it:\n\(block.code)"
            )
        }
        for block in docComments where !parts.values.contains(where: { $0.region == block.code }) {
            XCTFail(
                "\(block.place): this Swift is not a snippet's region in \(snippetsFolder), so nothing compiles it:\n\(block.code)"
            )
        }
        for (name, code) in snippets where !blocks.contains(where: { $0.code == code }) {
            guard let region = parts[name]?.region, !docComments.contains(where: { $0.code == region }) else {
                continue
            }
            XCTFail("the snippet \(name) is shown nowhere:\n\(code)")
        }
    }

    /// What a snippet's code takes from outside the shown region: the parameters of the function it stands in, and
    /// the types its file declares outside every region.
    private static func hiddenNames() throws -> (parameters: [String: [String]], outsideTypes: [String: [String]]) {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snippets")
        var parameters: [String: [String]] = [:]
        var outsideTypes: [String: [String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".swift") {
            let lines = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8).components(
                separatedBy: "\n")
            var inRegion = false
            for (index, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// snippet ") {
                    inRegion = true
                    let snippet = String(trimmed.dropFirst("// snippet ".count))
                    let enclosing = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                    parameters[snippet] = enclosing.hasPrefix("func ") ? Self.parameterNames(enclosing) : []
                } else if trimmed == "// end snippet" {
                    inRegion = false
                } else if !inRegion, let type = Self.declaredType(line), !line.hasPrefix(" ") {
                    outsideTypes[name, default: []].append(type)
                }
            }
        }
        return (parameters, outsideTypes)
    }

    /// The local names of a one-line function declaration's parameters.
    private static func parameterNames(_ declaration: String) -> [String] {
        guard let open = declaration.firstIndex(of: "("), let close = declaration.lastIndex(of: ")"), open < close
        else {
            return []
        }
        var names: [String] = []
        var depth = 0
        var current = ""
        for character in declaration[declaration.index(after: open)..<close] {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if character == ",", depth == 0 {
                names.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        names.append(current)
        return names.compactMap { parameter in
            let label = parameter.split(separator: ":").first?.split(separator: " ").last
            return label.map(String.init)
        }.filter { !$0.isEmpty }
    }

    /// The type a top-level line declares, if it declares one.
    private static func declaredType(_ line: String) -> String? {
        let words = line.split(separator: " ").map(String.init)
        guard let keyword = words.firstIndex(where: { ["protocol", "struct", "class", "enum", "actor"].contains($0) }),
            keyword + 1 < words.count
        else { return nil }
        return String(words[keyword + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// Whether `code` declares `name` (a constant, a variable, a function, a type or a closure parameter).
    private static func declares(_ code: String, _ name: String) -> Bool {
        let pattern = "(let|var|func|class|struct|enum|protocol|actor|for|for await)\\s+\\(?" + name + "\\b"
        return code.range(of: pattern, options: .regularExpression) != nil
    }

    func testEveryNameASnippetUsesIsDeclaredWhereTheReaderSeesIt() throws {
        let (parameters, outsideTypes) = try Self.hiddenNames()
        for (file, types) in outsideTypes {
            XCTFail("\(file) declares \(types.joined(separator: ", ")) outside every snippet, so no reader sees it")
        }
        let snippets = try Self.snippets()
        var shownBefore: [String: String] = [:]
        for block in try Self.swiftBlocks() {
            let document = String(block.place.split(separator: ":")[0])
            let earlier = shownBefore[document, default: ""]
            defer { shownBefore[document, default: ""] += "\n" + block.code }
            guard let name = snippets.first(where: { $0.value == block.code })?.key else { continue }
            for parameter in parameters[name] ?? [] where !Self.declares(earlier + block.code, parameter) {
                XCTFail(
                    "\(block.place): the snippet \(name) uses `\(parameter)`, which \(document) declares nowhere above it"
                )
            }
        }
    }

    // MARK: - Doc comments and catalogs

    private static let libraries = [
        "HealthSignInHTTP", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTesting", "HealthSignInOAuth",
        "HealthSignInHealthVault", "HealthSignInKoppeltaal", "HealthSignInVital", "HealthSignInSMART",
        "HealthSignInKoppeltaal2", "HealthSignInFHIR",
    ]

    /// The symbol graphs of the libraries, extracted from the debug build's modules, with the directory of each
    /// library's graph files.
    private static let symbolGraphs = Result { () throws -> [String: (directory: URL, graph: SymbolGraph)] in
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("symbol-graphs-\(UUID().uuidString)")
        let modules = Fixtures.repository.appendingPathComponent(".build/debug/Modules")
        var graphs: [String: (directory: URL, graph: SymbolGraph)] = [:]
        for library in libraries {
            let directory = output.appendingPathComponent(library)
            graphs[library] = (directory, try SymbolGraph.extract(module: library, modules: modules, into: directory))
        }
        return graphs
    }

    /// The symbol graph of `library`.
    private static func graph(of library: String) throws -> SymbolGraph {
        try XCTUnwrap(try symbolGraphs.get()[library]?.graph)
    }

    func testEveryPublicDeclarationHasADocComment() throws {
        var checked = 0
        for library in Self.libraries {
            for symbol in try Self.graph(of: library).symbols {
                // Declarations in this repository; members the compiler synthesizes (Equatable, Codable) have no
                // source location.
                guard let location = symbol.location, location.uri.contains(Fixtures.repository.path) else { continue }
                checked += 1
                if !symbol.hasDocComment {
                    let file = location.uri.replacingOccurrences(of: "file://", with: "")
                        .replacingOccurrences(of: Fixtures.repository.path + "/", with: "")
                    XCTFail("\(file):\(location.line + 1): \(symbol.path.joined(separator: ".")) has no doc comment")
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000, "the libraries' declarations were found")
    }

    /// Public type names, and module names, of libraries an app or server imports beside this package: Foundation,
    /// the server stack (NIOHTTP1, which Vapor re-exports, and swift-http-types), the libraries health apps sign in
    /// with today (the SMART on FHIR client with the FHIR models and the OAuth 2 library it re-exports, Junction's
    /// VitalCore) and other common packages. None may be the name of a public type here, so each imports beside this
    /// package without qualifying names, and a module name is never shadowed by a type.
    private static let namesOfOtherModules: Set<String> = [
        // NIOHTTP1
        "HTTPHeaders", "HTTPMethod", "HTTPVersion", "HTTPResponseStatus", "HTTPRequestHead", "HTTPResponseHead",
        "HTTPPart", "HTTPServerRequestPart", "HTTPServerResponsePart", "HTTPClientRequestPart",
        "HTTPClientResponsePart",
        "HTTPRequestDecoder", "HTTPResponseDecoder", "HTTPRequestEncoder", "HTTPResponseEncoder", "HTTPDecoder",
        "HTTPParserError", "HTTPServerPipelineHandler", "HTTPServerProtocolErrorHandler", "HTTPServerUpgradeHandler",
        "HTTPServerProtocolUpgrader", "HTTPClientUpgradeHandler", "HTTPClientProtocolUpgrader",
        "HTTPResponseCompressor",
        "HTTPServerUpgradeErrors", "HTTPClientUpgradeErrors", "HTTPObjectAggregatorError", "HTTPObjectAggregatorEvent",
        "NIOHTTPServerRequestAggregator", "NIOHTTPClientResponseAggregator",
        // swift-http-types (HTTPTypes, HTTPTypesFoundation)
        "HTTPField", "HTTPFields", "HTTPRequest", "HTTPResponse",
        // Foundation
        "URL", "URLRequest", "URLResponse", "HTTPURLResponse", "HTTPCookie", "HTTPCookieStorage", "URLSession",
        "URLSessionConfiguration", "URLSessionTask", "URLSessionDataTask", "URLComponents", "URLQueryItem",
        "URLCredential", "URLProtectionSpace", "URLError", "URLCache", "URLAuthenticationChallenge", "Data", "Date",
        "DateComponents", "DateFormatter", "DateInterval", "Calendar", "TimeZone", "Locale", "UUID", "JSONEncoder",
        "JSONDecoder", "JSONSerialization", "PropertyListEncoder", "PropertyListDecoder", "XMLParser", "XMLDocument",
        "XMLElement", "XMLNode", "XMLDTD", "XMLDTDNode", "Host", "Process", "Pipe", "FileHandle", "FileManager",
        "Bundle",
        "Notification", "NotificationCenter", "NSError", "NSObject", "NSString", "Thread", "Operation",
        "OperationQueue", "RunLoop", "Timer", "Measurement", "Unit", "Decimal", "CharacterSet", "IndexSet", "IndexPath",
        "AttributedString", "Scanner", "NumberFormatter", "Progress", "ProcessInfo", "UserDefaults", "Stream",
        "InputStream", "OutputStream", "Port", "Predicate", "Expression", "LocalizedError", "CustomNSError",
        "RecoverableError", "DataProtocol", "ContiguousBytes", "PersonNameComponents", "NSLock", "NSRecursiveLock",
        "NSCondition", "Formatter", "ISO8601DateFormatter", "ByteCountFormatter", "Morphology",
        // The SMART on FHIR client (module SMART); the FHIR models it re-exports are below
        "Client", "Server", "FHIRBaseServer", "SMARTAuthProperties", "PatientList", "FHIRError", "FHIRSearch",
        "FHIROperation",
        // The OAuth 2 library the SMART client re-exports (module OAuth2)
        "OAuth2Error", "OAuth2CodeGrant", "OAuth2ClientCredentials", "OAuth2Base", "OAuth2Response", "OAuth2JSON",
        "OAuth2Logger", "OAuth2LogLevel", "OAuth2Authorizer", "OAuth2DataLoader", "OAuth2ClientConfig",
        "OAuth2Requestable", "OAuth2AuthConfig", "Keychain",
        // Junction's SDK (module VitalCore)
        "VitalClient", "Environment", "Provider", "Status", "Source", "VitalLogger", "CreateUserRequest",
        "CreateUserResponse", "CreateSignInTokenResponse", "NetworkError", "TimeoutError", "UserConnection",
        // swift-openapi-runtime and swift-openapi-urlsession
        "ClientMiddleware", "ClientTransport", "ClientError", "ServerMiddleware", "ServerTransport", "ServerError",
        "Configuration", "Converter", "HTTPBody", "URLSessionTransport",
        // swift-log
        "Logger", "LogHandler", "LoggingSystem", "LogEvent",
        // swift-crypto
        "SHA256", "SHA384", "HMAC", "SymmetricKey", "P256", "P384", "Insecure", "CryptoKitError", "Digest",
        "HashFunction",
        // grpc-swift
        "RetryPolicy", "Metadata", "RPCError", "ClientRequest", "ClientResponse", "ServerRequest", "ServerResponse",
        "CallOptions", "HedgingPolicy",
        // jwt-kit
        "JWK", "JWKS", "JWTAlgorithm", "JWTError", "JWTPayload", "RSAKey",
        // AsyncHTTPClient
        "HTTPClient", "HTTPClientRequest", "HTTPClientResponse", "HTTPClientError",
        // Stencil and GraphQL (Token), OpenCombine (Record), the MCP SDK (LogLevel, PKCE), console-kit (LogRecord),
        // WasmKit (WallClock)
        "Token", "Record", "LogLevel", "PKCE", "LogRecord", "WallClock",
        // Module names of the libraries above
        "SMART", "FHIR", "Models", "OAuth2", "VitalCore", "VitalHealthKit", "VitalDevices", "VitalLogging", "Crypto",
        "Logging", "NIO", "NIOCore", "NIOHTTP1", "HTTPTypes", "OpenAPIRuntime", "OpenAPIURLSession",
        "AsyncHTTPClient", "GRPCCore", "JWTKit",
    ]

    /// FHIR's own names, as the FHIR models the SMART on FHIR client re-exports spell them. `HealthSignInFHIR`
    /// declares them too: an app takes its FHIR models from one library, and the other products leave them free.
    private static let fhirModelNames: Set<String> = [
        "Coding", "CodeableConcept", "Extension", "OperationOutcome", "OperationOutcomeIssue", "Location",
        "IssueSeverity", "IssueType", "Patient", "Identifier", "Reference", "Resource", "Element",
    ]

    func testNoPublicTypeHasANameAnotherCommonLibraryExports() throws {
        var clashes: [String] = []
        var checked = 0
        for library in Self.libraries {
            let names = try Self.graph(of: library).topLevelTypeNames
            checked += names.count
            let taken =
                library == "HealthSignInFHIR"
                ? Self.namesOfOtherModules : Self.namesOfOtherModules.union(Self.fhirModelNames)
            clashes += names.intersection(taken).sorted().map { "\(library).\($0)" }
        }
        XCTAssertGreaterThan(checked, 100, "the libraries' public types were found")
        XCTAssertEqual(clashes, [])
    }

    /// An app that imports several products names every type without qualifying it: no two libraries declare a
    /// public type of the same name.
    func testNoTwoLibrariesDeclareOnePublicTypeName() throws {
        var owners: [String: [String]] = [:]
        for library in Self.libraries {
            for name in try Self.graph(of: library).topLevelTypeNames { owners[name, default: []].append(library) }
        }
        XCTAssertGreaterThan(owners.count, 150, "the libraries' public types were found")
        let shared = owners.filter { $0.value.count > 1 }.map { "\($0.key): \($0.value.joined(separator: ", "))" }
        XCTAssertEqual(shared.sorted(), [])
    }

    /// The runtime's public types, each with why it is public. A type the package's own modules only share is
    /// `package`; the test doubles are in `HealthSignInTesting`; what generated code alone uses is `@_spi(Generated)`.
    /// A new public type must be added here, with its reason, so the surface never grows by accident.
    private static let runtimePublicTypes: [String: [String]] = [
        "clients, which apps configure": [
            "ClientOptions", "RequestRetryPolicy", "HTTPClientConfiguration", "HTTPServerSet", "HTTPAPIClient",
        ],
        "credentials apps pass to clients and flows": [
            "APIKey", "AccessCredential", "BasicCredentials", "BearerToken", "OAuthClientCredentials",
            "HealthVaultApplicationCredential", "HealthVaultSessionCredential", "ClientAssertion",
            "ClientAssertionSigner", "PKCEPair",
        ],
        "what a typed client of a resource server takes from a session or a backend, across products": [
            "ResourceServerAccess", "ResourceServerAccessProvider",
        ],
        "errors apps catch": [
            "ProtocolError", "UnexpectedResponseError", "ResponseDecodingError", "SchemaValidationError",
            "PagingError", "JSONValueError", "XMLFragmentError", "JOSEError", "ServerErrorResponse",
            "ServerErrorOrigin", "ServerErrorCode", "NoServerErrorCode",
        ],
        "values generated models hold and apps read": [
            "JSONValue", "JSONNumber", "JSONObject", "XMLFragment", "LocalDate", "OpenEnum", "WireScalar",
            "DateTimeText", "FormField", "FormFields", "PageSequence", "PagedItems", "XMLTree", "XMLElementView",
            "XMLLimits", "HealthVaultEnvelopeSettings", "Indirect", "SchemaValidating",
        ],
        "JOSE, for apps that verify tokens themselves": ["JWS", "JWSAlgorithm", "JSONWebKey", "JSONWebKeySet"],
        "browsers for authorization pages, which apps choose or implement": [
            "AuthorizationBrowser", "AuthorizationCallback", "AuthorizationBrowserError",
            "TerminalAuthorizationBrowser",
        ],
        "logging and redaction": [
            "LogSink", "ClosureLogSink", "LogEntry", "LogMessage", "RedactedDescription",
        ],
        "time, randomness and hashing, which apps may replace or use": [
            "TimeSource", "SystemClock", "RandomSource", "SystemRandomSource", "CryptoPrimitives",
        ],
    ]

    /// The credential layer's public types, each with why it is public.
    private static let credentialsPublicTypes: [String: [String]] = [
        "credential storage apps choose or implement": [
            "CredentialStore", "CredentialStores", "CredentialStoreLock", "CredentialStoreError",
            "FileCredentialStore", "InMemoryCredentialStore", "FileLock", "LockDirectory", "CredentialChangeFeed",
            "CredentialChangeLog", "CredentialChangeMark", "CredentialSealing", "CredentialSealingError",
            "SealedCredentialStore",
        ],
        "the credential lifecycle, which a family of the app's own builds on": [
            "CredentialSession", "CredentialPolicy", "CredentialRefusal", "CredentialTransition", "CredentialLease",
            "CredentialEvent", "CredentialChange", "CredentialLifecycleError", "PartialRefresh",
            "CredentialRegistration", "CredentialKey",
        ],
    ]

    /// The HTTP layer's public types, each with why it is public.
    private static let httpPublicTypes: [String: [String]] = [
        "transports and messages, which apps configure, call or inspect": [
            "HTTPTransport", "DefaultHTTPTransport", "CurlHTTPTransport", "ProxySetting", "URLSessionHTTPTransport",
            "URLSessionHTTPTransportDelegate", "AuthenticationChallenge", "HTTPRequestMessage", "HTTPResponseMessage",
            "HTTPRequestMethod", "HTTPHeaderFields", "HTTPHeaderField", "HTTPClientMiddleware", "OperationID",
            "OperationAttempt", "URLPolicy",
        ],
        "errors apps catch": [
            "SDKError", "ErrorRecovery", "TransportError", "ConfigurationError", "RequestEncodingError",
        ],
        "what a server answers for an SDK error": ["SDKErrorResponse"],
        "redaction, which apps' own descriptions use": ["Redaction"],
        "what a transport for another HTTP client reads its requests with": ["TransportDeadline"],
    ]

    func testTheRuntimesPublicTypesAreTheListedOnes() throws {
        for (library, groups, count) in [
            ("HealthSignInCore", Self.runtimePublicTypes, 65), ("HealthSignInHTTP", Self.httpPublicTypes, 24),
            ("HealthSignInCredentials", Self.credentialsPublicTypes, 25),
        ] {
            let names = try Self.graph(of: library).topLevelTypeNames
            let listed = groups.values.flatMap { $0 }
            XCTAssertEqual(listed.count, Set(listed).count, "\(library): a type is listed twice")
            XCTAssertEqual(names.sorted(), listed.sorted(), library)
            XCTAssertEqual(names.count, count, library)
        }
        let doubles = try Self.graph(of: "HealthSignInTesting").topLevelTypeNames
        XCTAssertEqual(
            doubles.sorted(),
            [
                "HTTPTransportConformance", "HealthVaultTestServer", "Koppeltaal2TestServer", "KoppeltaalTestServer",
                "ManualClock",
                "RecordingTransport",
                "RedirectFollowingBrowser", "SMARTTestServer", "SeededRandomSource", "TestServer", "TestServerFault",
                "TestServerFaults", "TestServerLedger", "TestServerNetwork", "TestServerOperation",
                "TestServerTransport",
                "TestUserBrowser",
                "TestUserDecision",
                "VitalTestServer",
            ])
    }

    /// The landing pages of the runtime, its HTTP layer and its credential layer mention every public type: their
    /// public surface is what users touch, and the rest is the runtime's `@_spi(Generated)` interface for generated
    /// code.
    func testTheRuntimePageMentionsEveryPublicType() throws {
        for library in ["HealthSignInCore", "HealthSignInHTTP", "HealthSignInCredentials"] {
            let names = try Self.graph(of: library).topLevelTypeNames
            let page = Fixtures.repository.appendingPathComponent("Sources/\(library)/\(library).docc/\(library).md")
            let text = try String(contentsOf: page, encoding: .utf8)
            XCTAssertGreaterThan(names.count, 20, library)
            XCTAssertEqual(names.filter { !text.contains("``\($0)``") }.sorted(), [], library)
            XCTAssertFalse(names.contains("HTTPClientCore"), "the client cores are for generated code only")
        }
    }

    /// `make docs` builds every library's reference with warnings as errors; this runs the same script.
    func testEveryCatalogBuildsWithoutWarnings() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Subprocess.run(
            [Fixtures.repository.appendingPathComponent("Tests/Tools/build-docs").path, output.path])
        XCTAssertEqual(result.status, 0, result.output.suffix(3000).description)
        for library in Self.libraries {
            let page = output.appendingPathComponent("\(library)/documentation/\(library.lowercased())/index.html")
            XCTAssertTrue(FileManager.default.fileExists(atPath: page.path), "\(library): no \(page.path)")
        }
    }
}
