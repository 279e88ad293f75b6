import Foundation
import HealthSignInGenerator

/// Reads the input as JSON, then as a method file of a small family that the whole generator runs on.
enum SchemaFuzzing {
    static let protocolFile = InMemoryFile(
        path: "Fuzz/protocol.json",
        contents: """
            {"family": "Fuzz", "description": "A family for fuzzing.",
             "binding": {"http": {"authPolicies": ["none", "bearer", "apiKey", "oauthClient"], "apiKeyHeader": "x-key", "xmlPrimitives": "text"}},
             "servers": {"api": {"description": "The API.", "default": "https://api.example.com"}},
             "errors": {"FuzzError": {"description": "An error.", "body": {"$ref": "types.json#/$defs/ErrorBody"},
                 "encodings": ["json"], "code": ["/code"], "message": ["/message"],
                 "codes": [{"value": "expired", "name": "expired", "recovery": "refreshCredential"}]}}}
            """)
    static let typesFile = InMemoryFile(
        path: "Fuzz/types.json",
        contents: """
            {"$defs": {"ErrorBody": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}
            """)

    /// A method file whose every text field the text mode may fill.
    static let methodText = """
        {"name": "Method", "description": "A method.",
         "binding": {"http": {"method": "POST", "server": "api", "path": "/things", "body": "json", "auth": "bearer",
             "response": "json", "errors": ["FuzzError"]}},
         "request": {"type": "object", "description": "The request.", "required": ["id"], "properties": {
             "id": {"type": "string", "description": "The id."},
             "kind": {"type": "string", "enum": ["alpha", "beta"], "description": "The kind."},
             "items": {"type": "array", "items": {"$ref": "types.json#/$defs/ErrorBody"}}}},
         "response": {"type": "object", "description": "The response.", "properties": {
             "token": {"type": "string", "sensitive": true, "description": "A token."},
             "choice": {"oneOf": [{"$ref": "types.json#/$defs/ErrorBody"}, {"type": "string"}], "description": "One of."}}}}
        """
    private static var methodDocument: Any { (try? JSONSerialization.jsonObject(with: Data(methodText.utf8))) ?? [:] }
    private static let textPaths = HostileJSON.textPaths(in: methodDocument)

    /// Marks where fuzzed text ends: if it ever stands in code, the text escaped its comment or literal.
    private static let marker = "INJECTED_FUZZ"

    /// The text mode: the first byte picks a text field of a fixed method file, the rest (as UTF-8) is added to it,
    /// followed by a marker. The family must be refused or generated with the marker only in comments and literals.
    ///
    /// - Returns: whether the family generated.
    @discardableResult
    static func runText(_ data: Data) -> Bool {
        guard let selector = data.first, !textPaths.isEmpty else { return false }
        let text = String(decoding: data.dropFirst(), as: UTF8.self) + marker
        let path = textPaths[Int(selector) % textPaths.count]
        let document = HostileJSON.inject(text, at: path, in: methodDocument)
        let method = InMemoryFile(path: "Fuzz/Method.json", contents: HostileJSON.text(document))
        guard let output = try? GeneratorPipeline.run([protocolFile, typesFile, method]) else { return false }
        for file in output.files where SwiftSource.codeOutsideCommentsAndLiterals(file.contents).contains(marker) {
            fatalError("schema text became code in \(file.path) (field \(path.map(\.description).joined()))")
        }
        return true
    }

    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        var diagnostics = Diagnostics()
        _ = JSONParser.parse(text, file: "input.json", diagnostics: &diagnostics)
        let method = InMemoryFile(path: "Fuzz/Method.json", contents: text)
        _ = try? GeneratorPipeline.run([protocolFile, typesFile, method])
    }
}

/// Reads the input as an `sdkgen-config.json`; one that is accepted generates the small family with it, in both
/// layouts, and no name or import it sets may put anything but an identifier into the code.
enum ConfigFuzzing {
    static func run(_ data: Data) {
        let (config, _) = GeneratorConfig.decode(String(decoding: data, as: UTF8.self), file: "sdkgen-config.json")
        guard let config else { return }
        let files = [
            SchemaFuzzing.protocolFile, SchemaFuzzing.typesFile,
            InMemoryFile(path: "Fuzz/Method.json", contents: SchemaFuzzing.methodText),
        ]
        for singleFile in [false, true] {
            guard let output = try? GeneratorPipeline.run(files, options: .init(config: config, singleFile: singleFile))
            else { continue }
            for name in config.additionalImports + Array(config.typeNames.values) + Array(config.methodNames.values)
            where !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                fatalError("the configuration let \(name) into \(output.files.first?.path ?? "the code")")
            }
        }
    }
}
