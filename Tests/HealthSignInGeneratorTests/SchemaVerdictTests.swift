import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// The generated code judges JSON as JSON Schema 2020-12 does: random small schemas of the whole language
/// (`Tests/Tools/schema_verdicts.py` draws them with their instances and Python `jsonschema`'s verdicts) are generated
/// as one family, compiled in one batch, and every instance is decoded and validated; the verdicts must agree.
///
/// `make test` draws from the repository's seed and `make stress` from a fresh one (``ProofSeed/schemaVerdicts``,
/// printed with the command that replays it); `SDK_SCHEMA_VERDICT_COUNT` sets how many schemas a run draws
/// (`make stress` draws many more).
final class SchemaVerdictTests: XCTestCase {
    private struct ScriptFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "schema_verdicts.py failed (is jsonschema installed? make venv):\n\(output)" }
    }

    private struct Case: Decodable {
        let schema: String
        let defs: String
        let instances: [String]
        let valid: [Bool]
    }

    func testGeneratedCodeAgreesWithJSONSchemaOnRandomSchemas() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = ProofSeed.schemaVerdicts.draw(environment: environment)
        let count = environment["SDK_SCHEMA_VERDICT_COUNT"].flatMap(Int.init) ?? 20
        print("SchemaVerdictTests: \(count) schemas")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("schema-verdicts-\(seed)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let cases = try Self.drawCases(seed: seed, count: count, into: directory)
        var accepted: [Int] = []
        for (index, testCase) in cases.enumerated() {
            do {
                _ = try GeneratorPipeline.run(Self.family([(index, testCase)]))
                accepted.append(index)
            } catch let failure as GenerationFailed {
                // A schema the language cannot express is refused, with where; nothing else may go wrong.
                XCTAssertTrue(
                    failure.diagnostics.allSatisfy { $0.description.contains("Case\(index).json") },
                    "seed \(seed) case \(index): \(failure)")
                print("SchemaVerdictTests: case \(index) refused: \(failure.diagnostics.map(\.description))")
            }
        }
        XCTAssertGreaterThanOrEqual(
            accepted.count * 10, cases.count * 9, "seed \(seed): most random schemas are in the accepted language")

        let output = try GeneratorPipeline.run(Self.family(accepted.map { ($0, cases[$0]) }))
        var sources: [String] = []
        for (number, file) in output.files.enumerated() where file.root != .tests {
            let path = directory.appendingPathComponent("\(number).swift")
            try file.contents.write(to: path, atomically: true, encoding: .utf8)
            sources.append(path.path)
        }
        let main = directory.appendingPathComponent("main.swift")
        let validated = accepted.filter { index in
            output.files.contains { $0.path.hasSuffix("/Case\(index).swift") && Self.responseValidates($0.contents) }
        }
        try Self.main(cases: accepted, validated: Set(validated)).write(to: main, atomically: true, encoding: .utf8)
        let instances = directory.appendingPathComponent("instances.json")
        try JSONEncoder().encode(accepted.map { cases[$0].instances }).write(to: instances)

        let executable = directory.appendingPathComponent("verdicts")
        let compile = try SwiftCompiler.compile(
            module: "Verdicts", sources: sources + [main.path], executable: executable)
        XCTAssertEqual(compile.status, 0, "seed \(seed) does not compile:\n\(compile.output.suffix(6000))")
        guard compile.status == 0 else { return }
        let run = try Subprocess.run([executable.path, instances.path])
        XCTAssertEqual(run.status, 0, run.output.suffix(2000).description)

        var compared = 0
        for line in run.output.split(separator: "\n") where line.hasPrefix("verdict\t") {
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count >= 4, let position = Int(fields[1]), let item = Int(fields[2]) else { continue }
            let index = accepted[position]
            let testCase = cases[index]
            let swiftValid = fields[3] == "valid"
            compared += 1
            XCTAssertEqual(
                swiftValid, testCase.valid[item],
                """
                seed \(seed) case \(index): the generated code says \(swiftValid ? "valid" : "invalid"), \
                JSON Schema says \(testCase.valid[item] ? "valid" : "invalid")
                schema: \(testCase.schema)  $defs: \(testCase.defs)
                instance: \(testCase.instances[item])
                \(fields.count > 4 ? String(fields[4]) : "")
                """)
        }
        XCTAssertEqual(compared, accepted.reduce(0) { $0 + cases[$1].instances.count }, "every instance was judged")
        let valid = accepted.reduce(0) { $0 + cases[$1].valid.filter { $0 }.count }
        print("SchemaVerdictTests: \(compared) instances of \(accepted.count) schemas compared, \(valid) valid")
        XCTAssertGreaterThan(valid, 0, "some instances are valid")
        XCTAssertGreaterThan(compared - valid, 0, "some instances are invalid")
    }

    /// Runs the drawing script with the emulator's virtual environment (where `make test` installs `jsonschema`).
    private static func drawCases(seed: UInt64, count: Int, into directory: URL) throws -> [Case] {
        let venv = Fixtures.repository.appendingPathComponent("Tests/Emulator/.venv/bin/python").path
        let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
        let out = directory.appendingPathComponent("cases.json")
        let script = Fixtures.repository.appendingPathComponent("Tests/Tools/schema_verdicts.py").path
        let run = try Subprocess.run([
            python, script, "--seed", "\(seed)", "--count", "\(count)", "--out", out.path,
        ])
        guard run.status == 0 else { throw ScriptFailed(output: run.output) }
        return try JSONDecoder().decode([Case].self, from: Data(contentsOf: out))
    }

    /// Family `Verdicts` with one GET method `Case<n>` per case, its response the case's schema as property `v`.
    private static func family(_ cases: [(Int, Case)]) -> [InMemoryFile] {
        let protocolFile = """
            {"family": "Verdicts", "description": "Random schemas.",
             "binding": {"http": {"authPolicies": ["none"]}},
             "servers": {"api": {"description": "The API.", "default": "https://api.example.com"}}}
            """
        return [InMemoryFile(path: "Verdicts/protocol.json", contents: protocolFile)]
            + cases.map { index, testCase in
                InMemoryFile(
                    path: "Verdicts/Case\(index).json",
                    contents: """
                        {"name": "Case\(index)", "description": "A random schema.",
                         "binding": {"http": {"method": "GET", "server": "api", "auth": "none", "response": "json"}},
                         "response": {"type": "object", "required": ["v"], "properties": {"v": \(testCase.schema)}},
                         "$defs": \(testCase.defs)}
                        """)
            }
    }

    /// Whether the generated method file gives its `Response` (whose members are indented 8 columns) `validate(at:)`.
    private static func responseValidates(_ source: String) -> Bool {
        source.contains("\n        public func validate(at path: Swift.String = \"\") throws {")
    }

    /// The program that reads the instances file and prints one `verdict<TAB>case<TAB>instance<TAB>valid|invalid`
    /// line per instance, with the error after an invalid one.
    private static func main(cases: [Int], validated: Set<Int>) -> String {
        let conformances = validated.sorted().map { "extension Case\($0).Response: Checked {}\n" }.joined()
        let readers = cases.map { "    { judge(Case\($0).Response.self, $0) },\n" }.joined()
        return """
            import Foundation
            @_spi(Generated) import HealthSignInCore

            protocol Checked { func validate(at path: Swift.String) throws }
            \(conformances)
            func judge<T: Decodable>(_ type: T.Type, _ text: String) -> String {
                do {
                    let value = try JSONCoding.decode(T.self, from: Data(text.utf8))
                    try (value as? any Checked)?.validate(at: "")
                    return "valid"
                } catch {
                    return "invalid\\t" + "\\(error)".replacingOccurrences(of: "\\n", with: " ")
                }
            }

            let readers: [(String) -> String] = [
            \(readers)]
            let file = URL(fileURLWithPath: CommandLine.arguments[1])
            let instances = try JSONDecoder().decode([[String]].self, from: Data(contentsOf: file))
            for (position, texts) in instances.enumerated() {
                for (item, text) in texts.enumerated() {
                    print("verdict\\t\\(position)\\t\\(item)\\t" + readers[position](text))
                }
            }

            """
    }
}
