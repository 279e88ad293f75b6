import Foundation
import HealthSignInTestSupport

/// A module's public symbols, as `swift symbolgraph-extract` reads them from a build's modules.
struct SymbolGraph: Sendable {
    /// What the tests read of a symbol.
    struct Symbol: Sendable {
        /// The names from the module down, e.g. `["XMLFragment", "text"]`.
        let path: [String]
        /// The kind's identifier, e.g. `swift.struct`.
        let kind: String
        /// How DocC titles it, e.g. `demoGreeting(for:transport:)`.
        let title: String
        /// The source file's URI and the 0-based line, when the symbol has a declaration in source.
        let location: (uri: String, line: Int)?
        /// Whether it has a doc comment.
        let hasDocComment: Bool
    }

    /// Every symbol, from the module's graph and its extension graphs.
    let symbols: [Symbol]

    /// Extracts the public symbols of `module` from the `.swiftmodule`s in `modules` into the graph files of
    /// `output` (which DocC reads too), and reads them.
    static func extract(module: String, modules: URL, into output: URL) throws -> SymbolGraph {
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var arguments = [
            "swift", "symbolgraph-extract", "-module-name", module, "-I", modules.path, "-target", try targetTriple,
            "-output-dir", output.path, "-minimum-access-level", "public",
        ]
        arguments += SwiftCompiler.systemLibraryArguments
        let result = try Subprocess.run(arguments)
        guard result.status == 0 else { throw SymbolGraphError("symbolgraph-extract \(module): \(result.output)") }
        var symbols: [Symbol] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            for symbol in graph?["symbols"] as? [[String: Any]] ?? [] {
                let location = symbol["location"] as? [String: Any]
                let line = (location?["position"] as? [String: Any])?["line"] as? Int
                symbols.append(
                    Symbol(
                        path: symbol["pathComponents"] as? [String] ?? [],
                        kind: (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "",
                        title: (symbol["names"] as? [String: Any])?["title"] as? String ?? "",
                        location: (location?["uri"] as? String).map { ($0, line ?? 0) },
                        hasDocComment: symbol["docComment"] != nil))
            }
        }
        return SymbolGraph(symbols: symbols)
    }

    /// The names of the module's top-level types (structs, enums, classes, protocols and type aliases).
    var topLevelTypeNames: Set<String> {
        let kinds: Set<String> = ["swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias"]
        return Set(symbols.filter { $0.path.count == 1 && kinds.contains($0.kind) }.map { $0.path[0] })
    }

    /// The target the toolchain compiles for, e.g. `x86_64-unknown-linux-gnu`.
    private static var targetTriple: String {
        get throws {
            let result = try Subprocess.run(["swift", "-print-target-info"])
            let info = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            guard let target = info?["target"] as? [String: Any], let triple = target["triple"] as? String else {
                throw SymbolGraphError("swift -print-target-info gave no triple: \(result.output)")
            }
            return triple
        }
    }
}

/// Extracting a symbol graph failed; the message says how.
struct SymbolGraphError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
