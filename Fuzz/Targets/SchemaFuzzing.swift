import Foundation
import SDKGenerator

/// Reads the input as JSON, then as a method file of a small family that the whole generator runs on.
enum SchemaFuzzing {
    private static let protocolFile = InMemoryFile(path: "Fuzz/protocol.json", contents: """
        {"family": "Fuzz", "description": "A family for fuzzing.",
         "binding": {"http": {"authPolicies": ["none", "bearer", "apiKey", "oauthClient"], "apiKeyHeader": "x-key", "xmlPrimitives": "text"}},
         "servers": {"api": {"description": "The API.", "default": "https://api.example.com"}},
         "errors": {"FuzzError": {"description": "An error.", "body": {"$ref": "types.json#/$defs/ErrorBody"},
             "encodings": ["json"], "code": ["/code"], "message": ["/message"],
             "codes": [{"value": "expired", "name": "expired", "recovery": "refreshCredential"}]}}}
        """)
    private static let typesFile = InMemoryFile(path: "Fuzz/types.json", contents: """
        {"$defs": {"ErrorBody": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}}}}}
        """)

    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        var diagnostics = Diagnostics()
        _ = JSONParser.parse(text, file: "input.json", diagnostics: &diagnostics)
        let method = InMemoryFile(path: "Fuzz/Method.json", contents: text)
        _ = try? GeneratorPipeline.run([protocolFile, typesFile, method])
    }
}
