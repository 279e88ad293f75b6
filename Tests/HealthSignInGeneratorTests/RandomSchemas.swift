import Foundation
import HealthSignInTestSupport

@testable import HealthSignInGenerator

/// Random, valid schema families from a seed: nested objects, arrays of scalars and of objects, enums, optional and
/// required fields, sensitive strings, shared types by `$ref`, and, in XML families, attributes and text nodes.
///
/// Every family it makes is valid by construction, so the generator must accept it, and the Swift it generates must
/// compile and round-trip its sample values.
struct RandomSchemas {
    /// Which binding the family uses.
    enum Binding { case xml, json }

    private var random: SplitMix64
    private let binding: Binding
    private var usedTypeNames: Set<String> = []
    private var sharedTypes: [String: Any] = [:]

    /// The family's name, which is also its Swift module's name.
    var family: String { binding == .xml ? "RandomXML" : "RandomJSON" }

    init(seed: UInt64, binding: Binding) {
        random = SplitMix64(seed: seed)
        self.binding = binding
    }

    /// The family's files, as the generator reads them.
    mutating func files() -> [InMemoryFile] {
        var methods: [(String, [String: Any])] = []
        for index in 1...random.next(in: 2...4) {
            methods.append(method(named: "Method\(index)"))
        }
        var files = [
            file("protocol.json", protocolDocument()),
            file("types.json", ["$defs": sharedTypes.merging(statusTypes) { first, _ in first }]),
        ]
        files += methods.map { file($0.0 + ".json", $0.1) }
        return files
    }

    private func file(_ name: String, _ object: [String: Any]) -> InMemoryFile {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return InMemoryFile(path: family + "/" + name, contents: String(decoding: data, as: UTF8.self))
    }

    // MARK: - Family

    private var statusTypes: [String: Any] {
        binding == .xml
            ? [
                "Status": [
                    "type": "object", "required": ["code"],
                    "properties": ["code": ["type": "integer"], "message": ["type": "string"]],
                ]
            ]
            : [
                "ErrorBody": [
                    "type": "object", "required": ["code"],
                    "properties": ["code": ["type": "string"], "message": ["type": "string"]],
                ]
            ]
    }

    private func protocolDocument() -> [String: Any] {
        switch binding {
        case .xml:
            return [
                "family": family, "description": "A random XML family.",
                "binding": ["healthvault": ["authPolicies": ["session"], "statusError": "RandomStatusError"]],
                "servers": [
                    "platform": ["description": "The platform.", "default": "https://platform.example/wildcat.ashx"]
                ],
                "errors": [
                    "RandomStatusError": [
                        "description": "A status.", "body": ["$ref": "types.json#/$defs/Status"], "encodings": ["xml"],
                        "code": ["/code"], "message": ["/message"],
                    ]
                ],
            ]
        case .json:
            return [
                "family": family, "description": "A random JSON family.",
                "binding": ["http": ["authPolicies": ["bearer"], "headers": ["Accept": "application/json"]]],
                "servers": ["api": ["description": "The API.", "default": "https://api.example.com"]],
                "errors": [
                    "RandomError": [
                        "description": "An error.", "body": ["$ref": "types.json#/$defs/ErrorBody"],
                        "encodings": ["json"],
                        "code": ["/code"], "message": ["/message"],
                    ]
                ],
            ]
        }
    }

    private mutating func method(named name: String) -> (String, [String: Any]) {
        let binding: [String: Any]
        switch self.binding {
        case .xml:
            binding = [
                "healthvault": [
                    "method": name, "version": random.next(in: 1...3), "auth": "session",
                    "responseNamespace": "urn:random.\(name)",
                ]
            ]
        case .json:
            binding = [
                "http": [
                    "method": "POST", "server": "api", "path": "/\(name.lowercased())", "body": "json",
                    "auth": "bearer",
                    "response": "json", "errors": ["RandomError"],
                ]
            ]
        }
        return (
            name,
            [
                "name": name, "description": "Random method \(name).", "binding": binding,
                "request": object(depth: 0, allowText: false), "response": object(depth: 0, allowText: false),
            ]
        )
    }

    // MARK: - Schemas

    private static let words = [
        "alpha", "beta", "gamma", "delta", "echo", "fox", "golf", "hotel", "india", "juliet", "kilo", "lima",
    ]

    /// A wire name in the binding's style, e.g. `beta-kilo` in XML, `beta_kilo` in JSON.
    private mutating func wireName(avoiding used: inout Set<String>) -> String {
        while true {
            let first = Self.words[random.next(in: 0...Self.words.count - 1)]
            let second = Self.words[random.next(in: 0...Self.words.count - 1)]
            let name = random.chance(0.5) ? first : first + (binding == .xml ? "-" : "_") + second
            // Distinct first words keep the Swift names distinct too ("alpha-beta" and "alpha_beta" would collide).
            if used.insert(name.split(whereSeparator: { $0 == "-" || $0 == "_" }).joined()).inserted { return name }
        }
    }

    private mutating func typeName() -> String {
        while true {
            let name =
                Self.words[random.next(in: 0...Self.words.count - 1)].capitalized + "Item\(random.next(in: 1...99))"
            if usedTypeNames.insert(name).inserted { return name }
        }
    }

    /// An object with one to five properties; in XML sometimes a text node with attributes instead.
    private mutating func object(depth: Int, allowText: Bool) -> [String: Any] {
        var used: Set<String> = []
        var properties: [String: Any] = [:]
        if binding == .xml, allowText, random.chance(0.25) {
            properties[wireName(avoiding: &used)] = scalar(sensitive: false).merging(["xml": ["nodeType": "text"]]) {
                first, _ in first
            }
            for _ in 0..<random.next(in: 0...2) {
                properties[wireName(avoiding: &used)] = scalar(sensitive: false).merging([
                    "xml": ["nodeType": "attribute"]
                ]) { first, _ in first }
            }
            return ["type": "object", "description": "A text node.", "properties": properties]
        }
        for _ in 0..<random.next(in: 1...5) {
            properties[wireName(avoiding: &used)] = property(depth: depth)
        }
        let required = properties.keys.sorted().filter { _ in random.chance(0.4) }
        var schema: [String: Any] = ["type": "object", "description": "An object.", "properties": properties]
        if binding == .json, random.chance(0.15) { schema["additionalProperties"] = ["type": "string"] }
        if !required.isEmpty { schema["required"] = required }
        return schema
    }

    private mutating func property(depth: Int) -> [String: Any] {
        switch random.next(in: 0...9) {
        case 0...4:
            var schema = scalar(sensitive: true)
            if binding == .xml, random.chance(0.25) { schema["xml"] = ["nodeType": "attribute"] }
            if random.chance(0.2), let type = schema["type"] as? String {
                schema["type"] = random.chance(0.5) ? [type, "null"] : ["null", type]
            }
            return schema
        case 5 where depth < 2:
            return object(depth: depth + 1, allowText: true)
        case 6:
            let items =
                random.chance(0.5) || depth >= 2 ? scalar(sensitive: false) : object(depth: depth + 1, allowText: true)
            return ["type": "array", "description": "A list.", "items": items]
        case 8 where random.chance(0.3):
            return ["description": "Anything the server sends."]
        case 8 where binding == .json && random.chance(0.5):
            let values: [String: Any] = random.chance(0.5) ? ["type": "integer"] : object(depth: 2, allowText: false)
            return ["type": "object", "description": "By key.", "additionalProperties": values]
        case 7 where depth < 2:
            let name = typeName()
            sharedTypes[name] = object(depth: depth + 1, allowText: true)
            return ["$ref": "types.json#/$defs/\(name)"]
        default:
            return enumeration()
        }
    }

    private mutating func scalar(sensitive: Bool) -> [String: Any] {
        switch random.next(in: 0...13) {
        case 0, 1:
            var schema: [String: Any] = ["type": "string", "description": "Some text."]
            if sensitive, random.chance(0.4) { schema["sensitive"] = true }
            return schema
        case 2: return ["type": "string", "format": "uuid", "description": "An id."]
        case 3: return ["type": "string", "format": "date-time", "description": "A moment."]
        case 4: return ["type": "string", "format": "date", "description": "A day."]
        case 5: return ["type": "string", "format": "uri", "description": "A link."]
        case 6: return ["type": "integer", "description": "A count."]
        case 7: return ["type": "integer", "format": "int64", "description": "A large count."]
        case 8: return ["type": "number", "description": "A measure."]
        case 9: return ["type": "integer", "format": "int32", "description": "A small count."]
        case 10: return ["type": "number", "format": "float", "description": "A rough measure."]
        case 11: return ["type": "string", "format": "byte", "description": "Some bytes."]
        case 12: return ["type": "string", "contentEncoding": "base64", "description": "More bytes."]
        default: return ["type": "boolean", "description": "A flag."]
        }
    }

    private mutating func enumeration() -> [String: Any] {
        let values = ["Active", "read-only", "PENDING_REVIEW", "archived", "v2"]
        return [
            "type": "string", "description": "A state.",
            "enum": Array(values.prefix(random.next(in: 1...values.count))),
        ]
    }
}
