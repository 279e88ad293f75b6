import Foundation

/// A schemas directory with `methods` synthetic methods: half in an XML family (the HealthVault binding), half in a
/// JSON family (the HTTP binding). Every request and response has six fields, among them a nested object and an
/// array of objects. `make bench` times the generator and the compiler on it; `make test` checks the size of what
/// the generator makes of it against ``GeneratedCodeBudget``.
public struct SyntheticSchemas: Sendable {
    /// How many methods the two families have together.
    public let methods: Int

    /// Creates the schemas of `methods` methods.
    public init(methods: Int) {
        self.methods = methods
    }

    /// Each schema file's path under the schemas directory (`SynthXML/protocol.json`) and its text, sorted by path.
    public func files() throws -> [(path: String, contents: String)] {
        let xmlCount = methods / 2
        let families = [
            Self.family(
                "SynthXML", protocol: Self.xmlProtocol, types: Self.xmlTypes,
                methods: (0..<xmlCount).map { Self.xmlMethod($0 + 1) }),
            Self.family(
                "SynthJSON", protocol: Self.jsonProtocol, types: Self.jsonTypes,
                methods: (0..<(methods - xmlCount)).map { Self.jsonMethod($0 + 1) }),
        ]
        return try families.joined().map { path, document in
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
            return (path, String(decoding: data, as: UTF8.self))
        }
        .sorted { $0.path < $1.path }
    }

    /// Writes the files under `root`, replacing what is there.
    public func write(to root: URL) throws {
        try? FileManager.default.removeItem(at: root)
        for (path, contents) in try files() {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
    }

    private static func family(
        _ name: String, protocol protocolFile: [String: Any], types: [String: Any], methods: [(String, [String: Any])]
    ) -> [(String, [String: Any])] {
        [("\(name)/protocol.json", protocolFile), ("\(name)/types.json", types)]
            + methods.map { ("\(name)/\($0.0).json", $0.1) }
    }

    // MARK: - Shapes

    private static func string(_ description: String, format: String? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "string", "description": description]
        if let format { schema["format"] = format }
        return schema
    }

    private static func object(_ description: String, _ properties: [String: Any], required: [String] = []) -> [String:
        Any]
    {
        var schema: [String: Any] = ["type": "object", "description": description, "properties": properties]
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    /// Six fields in the naming style `name(_:)` gives: a uuid, a string, an integer, a date-time, a nested object
    /// and an array of objects.
    private static func fields(_ name: (String) -> String) -> [String: Any] {
        [
            name("item-id"): string("The item.", format: "uuid"),
            name("label"): string("A label."),
            name("count"): ["type": "integer", "description": "How many."],
            name("updated"): string("When it changed.", format: "date-time"),
            name("owner"): object(
                "Who owns it.", [name("display-name"): string("The name."), name("email"): string("The address.")]),
            name("entry"): [
                "type": "array", "description": "The entries.",
                "items": object(
                    "An entry.", [name("key"): string("The key."), name("value"): string("The value.")],
                    required: [name("key")]),
            ],
        ]
    }

    private static func snake(_ name: String) -> String { name.replacingOccurrences(of: "-", with: "_") }

    // MARK: - XML family

    private static func xmlMethod(_ index: Int) -> (String, [String: Any]) {
        let name = String(format: "XMLMethod%04d", index)
        return (
            name,
            [
                "name": name,
                "description": "Synthetic XML method \(index).",
                "binding": [
                    "healthvault": [
                        "method": name, "version": 1, "auth": "session",
                        "responseNamespace": "urn:synth.methods.response.\(name)",
                    ]
                ],
                "request": object(
                    "The request.", ["query": object("What to look up.", fields { $0 })], required: ["query"]),
                "response": object(
                    "The response.", ["results": object("What was found.", fields { $0 })], required: ["results"]),
            ]
        )
    }

    private static var xmlProtocol: [String: Any] {
        [
            "family": "SynthXML",
            "description": "A synthetic family on the HealthVault binding.",
            "binding": ["healthvault": ["authPolicies": ["session"], "statusError": "SynthXMLError"]],
            "servers": [
                "platform": [
                    "description": "The platform URL.", "default": "https://synth.example/platform/wildcat.ashx",
                ]
            ],
            "errors": [
                "SynthXMLError": [
                    "description": "A non-zero status.", "body": ["$ref": "types.json#/$defs/Status"],
                    "encodings": ["xml"],
                    "code": ["/code"], "message": ["/message"], "codeType": "SynthXMLStatusCode",
                    "codes": [["value": 0, "name": "OK"], ["value": 1, "name": "FAILED", "recovery": "retryLater"]],
                ]
            ],
        ]
    }

    private static var xmlTypes: [String: Any] {
        [
            "description": "Types shared by the synthetic XML methods.",
            "$defs": [
                "Status": object(
                    "The status of a response.",
                    [
                        "code": ["type": "integer", "description": "The status code."],
                        "message": string("The explanation."),
                    ], required: ["code"])
            ],
        ]
    }

    // MARK: - JSON family

    private static func jsonMethod(_ index: Int) -> (String, [String: Any]) {
        let name = String(format: "JSONMethod%04d", index)
        return (
            name,
            [
                "name": name,
                "description": "Synthetic JSON method \(index).",
                "binding": [
                    "http": [
                        "method": "POST", "server": "api", "path": "/v1/method\(index)", "body": "json",
                        "auth": "bearer",
                        "response": "json", "errors": ["SynthJSONError"],
                    ]
                ],
                "request": object("The request.", fields(snake)),
                "response": object("The response.", fields(snake)),
            ]
        )
    }

    private static var jsonProtocol: [String: Any] {
        [
            "family": "SynthJSON",
            "description": "A synthetic family on the HTTP binding.",
            "binding": ["http": ["authPolicies": ["bearer"], "headers": ["Accept": "application/json"]]],
            "servers": ["api": ["description": "The API.", "default": "https://api.synth.example"]],
            "errors": [
                "SynthJSONError": [
                    "description": "An error body.", "body": ["$ref": "types.json#/$defs/ErrorBody"],
                    "encodings": ["json"],
                    "code": ["/code"], "message": ["/message"],
                    "codes": [["value": "expired", "name": "expired", "recovery": "refreshCredential"]],
                ]
            ],
        ]
    }

    private static var jsonTypes: [String: Any] {
        [
            "description": "Types shared by the synthetic JSON methods.",
            "$defs": [
                "ErrorBody": object(
                    "An error.", ["code": string("The code."), "message": string("The explanation.")],
                    required: ["code"])
            ],
        ]
    }
}
