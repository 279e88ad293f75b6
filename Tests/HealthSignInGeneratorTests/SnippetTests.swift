import XCTest

@testable import HealthSignInGenerator

/// Each builder against a small schema: the exact Swift it emits.
final class SnippetTests: XCTestCase {
    // MARK: - Helpers

    private static let httpProtocol = """
        {"family": "Demo", "description": "A demo family.",
         "binding": {"http": {"authPolicies": ["none", "basic", "bearer", "apiKey", "bearerOrApiKey", "oauthClient"], "apiKeyHeader": "x-api-key", "headers": {"Accept": "application/json"}}},
         "servers": {"api": {"description": "The API.", "default": "https://api.example.com"}},
         "errors": {"DemoError": {"description": "An error body.", "body": {"$ref": "types.json#/$defs/ErrorBody"},
             "code": ["/code"], "message": ["/message"],
             "codes": [{"value": "expired", "name": "expired", "description": "Refresh.", "recovery": "refreshCredential"}, {"value": "gone", "name": "gone", "recovery": "discardGrant"}]}}}
        """
    private static let httpTypes = """
        {"$defs": {"ErrorBody": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}
        """

    /// Generates the files of family `Demo` and returns the one at `path` under `Demo/Generated/`.
    private func generate(_ files: [String: String], file path: String) throws -> String {
        let inputs = files.map { InMemoryFile(path: "Demo/" + $0.key, contents: $0.value) }
        do {
            let output = try GeneratorPipeline.run(inputs)
            return try XCTUnwrap(output.files.first { $0.path == "Demo/Generated/" + path }?.contents, "no \(path)")
        } catch let failure as GenerationFailed {
            XCTFail(failure.description)
            throw failure
        }
    }

    private func assertEmits(_ text: String, _ snippet: String, file: StaticString = #filePath, line: UInt = #line) {
        let normalized = snippet.hasSuffix("\n") ? snippet : snippet + "\n"
        XCTAssertTrue(text.contains(normalized), "expected:\n\(normalized)\nin:\n\(text)", file: file, line: line)
    }

    private func httpMethod(_ method: String) -> [String: String] {
        ["protocol.json": Self.httpProtocol, "types.json": Self.httpTypes, "Op.json": method]
    }

    // MARK: - Models

    func testStructWithOptionalArrayAndDefaultFields() throws {
        let fields = """
            {"type": "object", "required": ["id"], "properties": {
                 "id": {"type": "string", "format": "uuid", "description": "The id. More words."},
                 "count": {"type": "integer", "default": 3},
                 "tags": {"type": "array", "items": {"type": "string"}},
                 "note": {"type": "string"}}}
            """
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "json", "auth": "none", "response": "json"}},
                 "request": \(fields), "response": \(fields)}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    /// The id. More words.
                    public var id: Foundation.UUID
                    /// - Remark: Generated from Schemas/Demo/Op.json#/request/properties/count
                    public var count: Swift.Int?
                    /// - Remark: Generated from Schemas/Demo/Op.json#/request/properties/tags
                    public var tags: [Swift.String]
                    /// - Remark: Generated from Schemas/Demo/Op.json#/request/properties/note
                    public var note: Swift.String?
                    /// Creates a value from its properties.
                    public init(id: Foundation.UUID, count: Swift.Int? = 3, tags: [Swift.String] = [], note: Swift.String? = nil) {
                        (self.id, self.count, self.tags, self.note) = (id, count, tags, note)
                    }
            """)
        // The request is only written and the response only read.
        assertEmits(text, "    public struct Request: Sendable, Equatable, Encodable {\n")
        assertEmits(text, "    public struct Response: Sendable, Equatable, Decodable {\n")
        assertEmits(
            text,
            """
                    public init(from decoder: any Decoder) throws {
                        let container = try HealthSignInCore.JSONCoding.members(of: decoder, notNull: ["count", "tags", "note"])
                        self.id = try container.decodeText(Foundation.UUID.self, forKey: "id")
                        self.count = try container.decodeIfPresent(Swift.Int.self, forKey: "count")
                        self.tags = try container.decodeIfPresent([Swift.String].self, forKey: "tags") ?? []
                        self.note = try container.decodeIfPresent(Swift.String.self, forKey: "note")
                    }
            """)
        assertEmits(
            text,
            """
                        try container.encodeText(self.id, forKey: "id")
                        try container.encodeIfPresent(self.count, forKey: "count")
                        if !self.tags.isEmpty { try container.encode(self.tags, forKey: "tags") }
                        try container.encodeIfPresent(self.note, forKey: "note")
            """)
        XCTAssertEqual(text.components(separatedBy: "public init(from decoder").count, 2, "one decoder, the response's")
        XCTAssertEqual(
            text.components(separatedBy: "public func encode(to encoder").count, 2, "one encoder, the request's")
        assertEmits(
            text,
            """
                    var http = try core.request(.post, server: configuration.servers.api, serverName: "api", path: "/op")
                    try http.setJSONBody(request)
                    return try await core.json(sending: http, operation: "Op", errors: [])
            """)
    }

    func testNumbersAndBytes() throws {
        let fields = """
            {"type": "object", "required": ["small", "rough", "exact", "raw", "encoded"], "properties": {
                 "small": {"type": "integer", "format": "int32"},
                 "rough": {"type": "number", "format": "float"},
                 "exact": {"type": "number", "format": "double"},
                 "raw": {"type": "string", "format": "byte"},
                 "encoded": {"type": "string", "contentEncoding": "base64"}}}
            """
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "json", "auth": "none", "response": "json"}},
                 "request": \(fields), "response": \(fields)}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public init(
                        small: Swift.Int32, rough: Swift.Float, exact: Swift.Double, raw: Foundation.Data, encoded: Foundation.Data
                    ) {
            """)
        assertEmits(
            text,
            """
                        self.small = try container.decode(Swift.Int32.self, forKey: "small")
                        self.rough = try container.decode(Swift.Float.self, forKey: "rough")
                        self.exact = try container.decode(Swift.Double.self, forKey: "exact")
                        self.raw = try container.decodeText(Foundation.Data.self, forKey: "raw")
                        self.encoded = try container.decodeText(Foundation.Data.self, forKey: "encoded")
            """)
        assertEmits(
            text,
            """
                        try container.encodeText(self.raw, forKey: "raw")
            """)
    }

    func testNullableFieldsAreOptionalAndRequiredOnesAreWrittenAsNull() throws {
        let fields = """
            {"type": "object", "required": ["name", "body"], "properties": {
                 "name": {"type": ["string", "null"]},
                 "body": {"oneOf": [{"$ref": "types.json#/$defs/ErrorBody"}, {"type": "null"}]},
                 "count": {"type": ["null", "integer"]}}}
            """
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "json", "auth": "none", "response": "json"}},
                 "request": \(fields), "response": \(fields)}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public init(name: Swift.String? = nil, body: ErrorBody? = nil, count: Swift.Int? = nil) {
            """)
        assertEmits(
            text,
            """
                        try container.expectMembers("name", "body")
                        self.name = try container.decodeIfPresent(Swift.String.self, forKey: "name")
                        self.body = try container.decodeIfPresent(ErrorBody.self, forKey: "body")
                        self.count = try container.decodeIfPresent(Swift.Int.self, forKey: "count")
            """)
        assertEmits(
            text,
            """
                        if let value = self.name {
                            try container.encode(value, forKey: "name")
                        } else {
                            try container.encodeNil(forKey: "name")
                        }
                        if let value = self.body {
                            try container.encode(value, forKey: "body")
                        } else {
                            try container.encodeNil(forKey: "body")
                        }
                        try container.encodeIfPresent(self.count, forKey: "count")
            """)
    }

    func testRequestConstraintsAreCheckedBeforeSending() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "json", "auth": "none"}},
                 "request": {"type": "object", "required": ["code"], "properties": {
                     "code": {"type": "string", "minLength": 2, "maxLength": 8, "pattern": "^[A-Z]+$"},
                     "size": {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5},
                     "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
                     "body": {"$ref": "#/$defs/Inner"}}},
                 "$defs": {"Inner": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 1}}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public func validate(at path: Swift.String = "") throws {
                        try HealthSignInCore.RequestValidation.minLength(self.code, 2, at: path + "/code")
                        try HealthSignInCore.RequestValidation.maxLength(self.code, 8, at: path + "/code")
                        try HealthSignInCore.RequestValidation.pattern(self.code, "^[A-Z]+$", at: path + "/code")
                        if let value = self.size {
                            try HealthSignInCore.RequestValidation.maximum(value, "1.5", at: path + "/size")
                            try HealthSignInCore.RequestValidation.exclusiveMinimum(value, "0", at: path + "/size")
                        }
                        try HealthSignInCore.RequestValidation.maxItems(self.tags.count, 3, at: path + "/tags")
                        try HealthSignInCore.RequestValidation.validate(self.body, at: path + "/body")
                    }
            """)
        assertEmits(
            text,
            """
                    try request.validate()
                    var http = try core.request(.post, server: configuration.servers.api, serverName: "api", path: "/op")
            """)
    }

    func testAllOfMergesTheProperties() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "auth": "none", "response": "json"}},
                 "response": {"allOf": [
                     {"$ref": "types.json#/$defs/ErrorBody"},
                     {"type": "object", "required": ["extra"], "properties": {"extra": {"type": "integer"}}}],
                   "description": "An error body and more."}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public init(code: Swift.String, message: Swift.String? = nil, extra: Swift.Int) {
            """)
        assertEmits(
            text,
            """
                        self.code = try container.decode(Swift.String.self, forKey: "code")
                        self.message = try container.decodeIfPresent(Swift.String.self, forKey: "message")
                        self.extra = try container.decode(Swift.Int.self, forKey: "extra")
            """)
    }

    func testASchemaWithoutATypeHoldsAnyJSONValue() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "auth": "none", "response": "json"}},
                 "response": {"type": "object", "required": ["data"], "properties": {
                     "data": {"description": "Anything."}, "extra": {}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public init(data: HealthSignInCore.JSONValue, extra: HealthSignInCore.JSONValue? = nil) {
            """)
        assertEmits(
            text,
            """
                        self.data = try container.decode(HealthSignInCore.JSONValue.self, forKey: "data")
            """)
    }

    func testARequiredObjectThatNeedsNothingDefaultsToItsEmptyValue() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "json", "auth": "none"}},
                 "request": {"type": "object", "required": ["outer", "strict"], "properties": {
                     "outer": {"type": "object", "required": ["inner"], "properties": {
                         "inner": {"type": "object", "properties": {"flag": {"type": "boolean"}}}}},
                     "strict": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public init(outer: Op.Request.Outer = .init(), strict: Op.Request.Strict) {
                        (self.outer, self.strict) = (outer, strict)
                    }
            """)
        assertEmits(
            text,
            """
                    public init(inner: Op.Request.Outer.Inner = .init()) { self.inner = inner }
            """)
        assertEmits(
            text,
            """
                public func op(_ request: Op.Request) async throws {
            """)
    }

    func testAdditionalPropertiesMakeAMap() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "auth": "none", "response": "json"}},
                 "response": {"type": "object", "required": ["labels"], "properties": {
                     "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                     "counts": {"additionalProperties": {"type": "integer"}},
                     "anything": {"type": "object", "additionalProperties": true}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public init(
                        labels: [Swift.String: Swift.String], counts: [Swift.String: Swift.Int]? = nil,
                        anything: [Swift.String: HealthSignInCore.JSONValue]? = nil
                    ) {
            """)
        assertEmits(
            text,
            """
                        self.labels = try container.decode([Swift.String: Swift.String].self, forKey: "labels")
            """)
    }

    func testMembersBeyondThePropertiesAreKept() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "auth": "none", "response": "json"}},
                 "response": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": {"type": "integer"}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public var additionalProperties: [Swift.String: Swift.Int]
            """)
        assertEmits(
            text,
            """
                    public init(id: Swift.String? = nil, additionalProperties: [Swift.String: Swift.Int] = [:]) {
            """)
        assertEmits(
            text,
            """
                        let container = try HealthSignInCore.JSONCoding.members(of: decoder, notNull: ["id"])
                        self.id = try container.decodeIfPresent(Swift.String.self, forKey: "id")
                        var additionalProperties: [Swift.String: Swift.Int] = [:]
                        for key in try HealthSignInCore.JSONCoding.undeclaredKeys(of: decoder, besides: ["id"]) {
                            additionalProperties[key.stringValue] = try container.decode(Swift.Int.self, forKey: key)
                        }
                        self.additionalProperties = additionalProperties
            """)
    }

    func testLongParameterListsFillTheLineWidth() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "json", "auth": "none"}},
                 "request": {"type": "object", "properties": {
                     "first-long-property-name": {"type": "string", "description": "One."},
                     "second-long-property-name": {"type": "string", "description": "Two."},
                     "third-long-property-name": {"type": "string", "description": "Three."}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    /// Creates a value from its properties.
                    public init(
                        firstLongPropertyName: Swift.String? = nil, secondLongPropertyName: Swift.String? = nil,
                        thirdLongPropertyName: Swift.String? = nil
                    ) {
            """)
    }

    func testOpenEnum() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.", "binding": {"http": {"method": "GET", "server": "api", "auth": "none"}},
                 "response": {"type": "object", "properties": {"state": {"type": "string", "enum": ["Active", "read-only", ""]}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    public enum State: HealthSignInCore.OpenEnum {
                        /// `Active`
                        case active
                        /// `read-only`
                        case readOnly
                        /// ``
                        case unspecified
                        /// A value this version of the schema does not list.
                        case unknown(Swift.String)

                        private static let known: [Swift.String: Self] = [
                            "Active": .active,
                            "read-only": .readOnly,
                            "": .unspecified,
                        ]

                        /// The case for a wire value; values the schema does not list become ``unknown(_:)``.
                        public init(rawValue: Swift.String) {
                            self = Self.listedCase(rawValue, in: Self.known) ?? .unknown(rawValue)
                        }

                        /// Whether the value is one the schema lists; an unlisted one decodes, but `validate()` refuses it.
                        public var isListed: Swift.Bool { Self.listedCase(rawValue, in: Self.known) != nil }
            """)
    }

    func testJSONAliasesConstantsAndSingleValueArrays() throws {
        let fields = """
            {"type": "object", "required": ["kind"], "properties": {
                 "kind": {"const": "Thing"},
                 "code": {"type": "string", "aliases": ["Code", "CODE"]},
                 "items": {"type": "array", "items": {"type": "string", "format": "date-time"}},
                 "rest": {"type": "array", "items": {"type": "integer"}, "acceptSingle": true}}}
            """
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "auth": "none", "body": "json", "response": "json"}},
                 "request": \(fields), "response": \(fields)}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                        let container = try HealthSignInCore.JSONCoding.members(of: decoder, notNull: [
                            "code", "Code", "CODE", "items", "rest"])
                        try container.expectConstant("Thing", forKey: "kind", required: true)
                        self.code = try container.decodeIfPresent(
                            Swift.String.self, forKey: container.firstPresentKey("code", "Code", "CODE"))
                        self.items = try container.decodeTextArrayIfPresent(Foundation.Date.self, forKey: "items") ?? []
                        self.rest = try container.decodeArrayAcceptingSingleIfPresent(Swift.Int.self, forKey: "rest") ?? []
            """)
        assertEmits(
            text,
            """
                        try container.encode("Thing", forKey: "kind")
            """)
    }

    func testRedactionOfSensitiveFields() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.", "binding": {"http": {"method": "GET", "server": "api", "auth": "none"}},
                 "response": {"type": "object", "required": ["token"], "properties": {
                     "token": {"type": "string", "sensitive": true}, "hint": {"type": "string", "sensitive": true}, "user": {"type": "string"}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
            extension Op.Response: HealthSignInCore.RedactedDescription {
                /// The fields, with sensitive values as `<redacted>`: what the description and the mirror show.
                public var redactedFields: KeyValuePairs<Swift.String, Any> {
                    [
                        "token": HealthSignInCore.Redaction.placeholder,
                        "hint": HealthSignInCore.Redaction.hide(self.hint),
                        "user": self.user as Any,
                    ]
                }
            }
            """)
    }

    // MARK: - HTTP clients

    func testAuthPoliciesChooseTheCredentialParameter() throws {
        let expectations = [
            ("basic", "credentials: HealthSignInCore.BasicCredentials", "http.authorize(basic: credentials)"),
            ("bearer", "token: HealthSignInCore.BearerToken", "http.authorize(bearer: token)"),
            ("apiKey", "apiKey: HealthSignInCore.APIKey", "http.authorize(apiKey: apiKey, header: \"x-api-key\")"),
            (
                "bearerOrApiKey", "credential: HealthSignInCore.AccessCredential",
                "http.authorize(credential, apiKeyHeader: \"x-api-key\")"
            ),
            ("oauthClient", "client: HealthSignInCore.OAuthClientCredentials", "try http.authenticate(client: client)"),
        ]
        for (auth, parameter, call) in expectations {
            let text = try generate(
                httpMethod(
                    """
                    {"name": "Op", "description": "An operation.", "binding": {"http": {"method": "POST", "server": "api", "body": "form", "auth": "\(auth)"}},
                     "response": {"type": "object", "properties": {}}}
                    """), file: "Methods/Op.swift")
            assertEmits(text, "    public func op(\(parameter)) async throws -> Op.Response {")
            assertEmits(text, "        \(call)")
        }
    }

    func testFieldsGoWhereTheirLocationSays() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"http": {"method": "POST", "server": "api", "path": "/users/{user_id}/items", "body": "form", "auth": "none", "errors": ["DemoError"], "headers": {"Cache-Control": "no-store"}}},
                 "request": {"type": "object", "required": ["user_id", "kind"], "properties": {
                     "user_id": {"type": "string", "format": "uuid", "in": "path"},
                     "kind": {"const": "x"},
                     "page": {"type": "integer", "in": "query"},
                     "ids": {"type": "array", "items": {"type": "string"}, "in": "query"},
                     "X-Trace": {"type": "string", "in": "header", "x-swift-name": "trace"},
                     "note": {"type": "string"}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    var http = try core.request(
                        .post, server: configuration.servers.api, serverName: "api",
                        path: "/users/" + HealthSignInCore.PercentEncoding.pathSegment(request.userID.wireText) + "/items",
                        headers: ["Cache-Control": "no-store"])
                    Op.apply(request, to: &http)
                    _ = try await core.send(http, operation: "Op", errors: [ErrorFormats.demoError])
            """)
        assertEmits(
            text,
            """
                static func apply(_ request: Request, to http: inout HealthSignInCore.HTTPRequestBuilder) {
                    var form = HealthSignInCore.FormFields()
                    form.append("kind", "x")
                    http.query.append("page", request.page)
                    http.query.append("ids", each: request.ids)
                    if let header = request.trace { http.headers["X-Trace"] = header }
                    form.append("note", request.note)
                    http.form = form
                }
            """)
    }

    func testAnErrorWithoutACodeTableStillNamesItsCode() throws {
        let protocolFile = Self.httpProtocol.replacingOccurrences(
            of:
                #""codes": [{"value": "expired", "name": "expired", "description": "Refresh.", "recovery": "refreshCredential"}, {"value": "gone", "name": "gone", "recovery": "discardGrant"}]"#,
            with: #""codes": []"#)
        XCTAssertNotEqual(protocolFile, Self.httpProtocol)
        let text = try generate(
            [
                "protocol.json": protocolFile, "types.json": Self.httpTypes,
                "Op.json": """
                {"name": "Op", "description": "An operation.", "binding": {"http": {"method": "GET", "server": "api", "auth": "none"}}}
                """,
            ], file: "Errors/DemoError.swift")
        assertEmits(
            text,
            """
                /// The schema lists no codes.
                public var codes: [HealthSignInCore.NoServerErrorCode] { [] }
                /// The code as the server sent it.
                public var shownCodes: Swift.String { " \\(body.code)" }
            """)
    }

    func testErrorFormatAndCodes() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.", "binding": {"http": {"method": "GET", "server": "api", "auth": "none"}}}
                """), file: "Errors/DemoError.swift")
        assertEmits(
            text,
            """
            public struct DemoError: HealthSignInCore.ServerErrorResponse {
                /// The decoded error body.
                public let body: ErrorBody
                /// The response that carried it: its HTTP status, the method that failed, and its family's recovery.
                public let origin: HealthSignInCore.ServerErrorOrigin

                /// Creates an error.
                public init(body: ErrorBody, origin: HealthSignInCore.ServerErrorOrigin) {
                    (self.body, self.origin) = (body, origin)
                }

                /// The error code.
                public var code: DemoErrorCode { DemoErrorCode(rawValue: body.code) }
                /// The error code, as a list.
                public var codes: [DemoErrorCode] { [code] }
                /// The server's explanation, when it gave one.
                public var message: Swift.String? { body.message }
            }
            """)
        assertEmits(
            text,
            """
                private static let listed: [Self] = [
                    .expired,
                    .gone,
                ]

                private static let byRawValue: [Swift.String: Self] = Dictionary(
                    listed.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

                /// The case for a wire code.
                public init(rawValue: Swift.String) {
                    self = Self.listedCase(rawValue, in: Self.byRawValue) ?? .unknown(rawValue)
                }
            """)
        assertEmits(
            text,
            """
                private var row: (name: Swift.String, recovery: HealthSignInCore.ErrorRecovery)? {
                    switch self {
                    case .expired: return ("expired", .refreshCredential)
                    case .gone: return ("gone", .discardGrant)
                    case .unknown: return nil
                    }
                }

                /// The documented name, e.g. `expired`, or nil for an unknown code.
                public var name: Swift.String? { row?.name }

                /// What a caller should do about this code.
                public var recovery: HealthSignInCore.ErrorRecovery { row?.recovery ?? .none }
            """)
    }

    func testClientConfigurationCarriesServersAndDefaultHeaders() throws {
        let text = try generate(
            httpMethod(
                """
                {"name": "Op", "description": "An operation.", "binding": {"http": {"method": "GET", "server": "api", "auth": "none"}}}
                """), file: "DemoAPIClient.swift")
        assertEmits(
            text,
            """
                    public init(api: Foundation.URL? = Foundation.URL(string: "https://api.example.com")) { self.api = api }
            """)
        assertEmits(
            text,
            """
                    /// The servers at their protocol.json defaults.
                    public init() { self.init(api: Foundation.URL(string: "https://api.example.com")) }

                    /// The header fields every request sends, from protocol.json.
                    public static var defaultHeaders: HealthSignInCore.HTTPHeaderFields { ["Accept": "application/json"] }
                    /// The family's name, as log records show it.
                    public static var family: Swift.String { "Demo" }
            """)
        assertEmits(
            text,
            """
            public struct DemoAPIClient: HealthSignInCore.HTTPAPIClient {
                /// The base URLs, one per server of protocol.json.
                public struct Servers: HealthSignInCore.HTTPServerSet {
            """)
        assertEmits(
            text,
            """
                /// How the client reaches the server.
                public var configuration: Configuration

                /// Creates a client.
                public init(configuration: Configuration = .init()) { self.configuration = configuration }
            }
            """)
        XCTAssertFalse(text.contains("var core"), "the core comes with HTTPAPIClient")
    }

    // MARK: - HealthVault

    private static let hvProtocol = """
        {"family": "Demo", "description": "A demo XML family.",
         "binding": {"healthvault": {"authPolicies": ["appId", "castSignature", "session"], "statusError": "StatusError", "clientVersion": "demo/1"}},
         "servers": {"platform": {"description": "The platform."}},
         "errors": {"StatusError": {"description": "A status.", "body": {"$ref": "types.json#/$defs/Status"}, "encodings": ["xml"], "code": ["/code"], "codes": [{"value": 65, "name": "EXPIRED", "recovery": "refreshCredential"}]}}}
        """
    private static let hvTypes = """
        {"$defs": {"Status": {"type": "object", "required": ["code"], "properties": {"code": {"type": "integer"}}}}}
        """

    private func hvMethod(_ method: String) -> [String: String] {
        ["protocol.json": Self.hvProtocol, "types.json": Self.hvTypes, "Op.json": method]
    }

    func testXMLAttributesTextAndRepeatedElements() throws {
        let text = try generate(
            hvMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"healthvault": {"method": "Op", "version": 2, "auth": "session", "recordScoped": true, "responseNamespace": "urn:op2"}},
                 "request": {"type": "object", "properties": {"item": {"type": "array", "items": {"$ref": "#/$defs/Item"}}}},
                 "response": {"type": "object", "required": ["item"], "properties": {"item": {"type": "array", "items": {"$ref": "#/$defs/Item"}}}},
                 "$defs": {"Item": {"type": "object", "required": ["id"], "properties": {
                     "id": {"type": "integer", "xml": {"nodeType": "attribute"}},
                     "label": {"type": "string", "xml": {"nodeType": "attribute", "name": "display-name"}},
                     "name": {"type": "string", "xml": {"nodeType": "text"}}}}}}
                """), file: "Methods/Op.swift")
        // Item is both sent and received, so it has both directions; the response only its reader. The XML codec is
        // the runtime's SPI, so its conformances are in `@_spi(Generated)` extensions at file level.
        assertEmits(text, "    public struct Item: Sendable, Equatable {\n")
        assertEmits(text, "    public struct Response: Sendable, Equatable {\n")
        assertEmits(
            text,
            """
            @_spi(Generated) extension Op.Item: HealthSignInCore.XMLDecodable, HealthSignInCore.XMLEncodable {
                public init(xml element: HealthSignInCore.XMLElementView) throws {
                    var attributes = element.attributes
                    self.id = try attributes.required("id", Swift.Int.self)
                    self.label = try attributes.value("display-name", Swift.String.self)
                    self.name = element.hasText ? try element.scalar(Swift.String.self) : nil
                }

                public func writeXML(_ writer: inout HealthSignInCore.XMLWriter, context: HealthSignInCore.EncodingContext) throws {
                    try writer.attribute("id", self.id.wireText)
                    if let value = self.label { try writer.attribute("display-name", value) }
                    if let value = self.name { try writer.text(value) }
                }
            """)
        assertEmits(
            text,
            """
            @_spi(Generated) extension Op.Response: HealthSignInCore.XMLDecodable {
                public init(xml element: HealthSignInCore.XMLElementView) throws {
                    self.item = try element.children(named: "item").map(Op.Item.init(xml:))
                }
            """)
        assertEmits(
            text,
            """
                public func op(
                    _ request: Op.Request = .init(), recordID: Foundation.UUID,
                    session: HealthSignInCore.HealthVaultSessionCredential
                ) async throws -> Op.Response {
                    return try await core.send(
                        Op.Response.self, namespace: "urn:op2", method: "Op", version: 2, recordID: recordID,
                        auth: .session(session), info: .info(request, context: .empty))
                }
            """)
    }

    func testSignedSiblingIsWrittenOnceAndEmbeddedVerbatim() throws {
        let text = try generate(
            hvMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"healthvault": {"method": "Op", "version": 1, "auth": "castSignature", "responseNamespace": "urn:op"}},
                 "request": {"type": "object", "properties": {
                     "sig": {"type": "object", "signs": "body", "properties": {
                         "alg": {"const": "HMACSHA256", "xml": {"nodeType": "attribute"}},
                         "value": {"type": "string", "bind": "signature", "xml": {"nodeType": "text"}}}},
                     "body": {"type": "object", "properties": {"at": {"type": "string", "bind": "signingTime"}}}}}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                    let _bodyRegion = try HealthSignInCore.XMLWriter.fragment { fragment in
                        try fragment.element("body", writing: Op.Request.Body(), context: context)
                    }
                    let _sigContext = context.binding("signature", to: try context.signature(of: _bodyRegion))
                    try writer.element("sig", writing: Op.Request.Sig(), context: _sigContext)
                    writer.mark("body") { $0.raw(_bodyRegion) }
            """)
        assertEmits(
            text,
            """
                public func op(application: HealthSignInCore.HealthVaultApplicationCredential) async throws {
                    let now = configuration.clock.now()
                    let context = try application.castSignatureContext(signingTime: now)
                    _ = try await core.send(
                        method: "Op", version: 1, auth: .applicationID(application.applicationID), messageTime: now,
                        info: .info(Op.Request(), context: context))
                }
            """)
    }

    func testPagingFollowsTheLastItemsCursor() throws {
        let text = try generate(
            hvMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"healthvault": {"method": "Op", "version": 1, "auth": "session", "responseNamespace": "urn:op"}},
                 "request": {"type": "object", "properties": {"after": {"type": "string", "format": "uuid"}, "size": {"type": "integer"}}},
                 "response": {"type": "object", "required": ["more"], "properties": {
                     "person": {"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}}}},
                     "more": {"type": "boolean"}}},
                 "paging": {"cursor": "/after", "items": "/person", "itemCursor": "/id", "more": "/more"}}
                """), file: "Methods/Op.swift")
        assertEmits(
            text,
            """
                public static func nextPageRequest(after response: Response, for request: Request) -> Request? {
                    guard response.more else { return nil }
                    guard let cursor = response.person.last?.id else { return nil }
                    return Op.Request(after: cursor, size: request.size)
                }
            """)
        assertEmits(
            text,
            """
                public func opPages(
                    _ request: Op.Request = .init(), session: HealthSignInCore.HealthVaultSessionCredential
                ) -> HealthSignInCore.PageSequence<Op.Request, Op.Response> {
                    HealthSignInCore.PageSequence(
                        first: request, fetch: { try await self.op($0, session: session) },
                        next: { request, page in Op.nextPageRequest(after: page, for: request) })
                }
            """)
    }

    func testIntegerCodeEnumDescribesItself() throws {
        let text = try generate(
            hvMethod(
                """
                {"name": "Op", "description": "An operation.",
                 "binding": {"healthvault": {"method": "Op", "version": 1, "auth": "appId", "responseNamespace": "urn:op"}}}
                """), file: "Errors/StatusError.swift")
        assertEmits(
            text,
            """
            public enum StatusErrorCode: HealthSignInCore.ServerErrorCode, RawRepresentable {
                /// `65` EXPIRED
                case expired
                /// A code the schema does not list.
                case unknown(Swift.Int)
            """)
        assertEmits(text, "    public var description: Swift.String { \"\\(rawValue) (\\(name ?? \"unknown\"))\" }")
    }
}
