import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// Properties of the generator over random valid families (``RandomSchemas``): it always accepts them, its output is
/// deterministic, and the Swift it generates compiles and round-trips every model's samples.
final class RandomSchemaTests: XCTestCase {
    /// Many families through the pipeline: no diagnostics, the same files twice.
    func testRandomValidFamiliesGenerateDeterministically() throws {
        var features: [String: Int] = [:]
        let markers = [
            "attribute": #""nodeType" : "attribute""#, "text node": #""nodeType" : "text""#,
            "sensitive field": #""sensitive" : true"#,
            "shared type": #""$ref""#, "enum": #""enum""#, "array": #""type" : "array""#,
            "required field": #""required""#,
            "bytes": #""format" : "byte""#, "base64 text": #""contentEncoding" : "base64""#,
            "float": #""format" : "float""#,
            "int32": #""format" : "int32""#, "nullable": #""null""#,
            "any value": #""Anything the server sends.""#, "map": #""additionalProperties""#,
        ]
        defer {
            for (feature, _) in markers {
                XCTAssertGreaterThan(features[feature] ?? 0, 0, "no random family had a \(feature)")
            }
        }
        for seed in UInt64(1)...60 {
            for binding in [RandomSchemas.Binding.xml, .json] {
                var schemas = RandomSchemas(seed: seed, binding: binding)
                let files = schemas.files()
                let text = files.map(\.contents).joined()
                for (feature, marker) in markers where text.contains(marker) { features[feature, default: 0] += 1 }
                let first: GeneratorPipeline.Output
                do {
                    first = try GeneratorPipeline.run(files, options: .init(testSamples: true))
                } catch let failure as GenerationFailed {
                    return XCTFail(
                        "seed \(seed) \(binding): \(failure.diagnostics.map(\.description).joined(separator: "\n"))\n\(files.map(\.contents).joined(separator: "\n"))"
                    )
                }
                XCTAssertEqual(first.diagnostics.map(\.description), [], "seed \(seed) \(binding)")
                let second = try GeneratorPipeline.run(files, options: .init(testSamples: true))
                XCTAssertEqual(
                    first.files.map(\.contents), second.files.map(\.contents),
                    "seed \(seed) \(binding): output differs between runs")
            }
        }
    }

    /// One random family of each binding, drawn from ``ProofSeed/randomSchemas``: its models and generated
    /// round-trip tests are compiled against the debug build of the runtime and run.
    func testARandomSampleCompilesAndRoundTrips() throws {
        let seed = ProofSeed.randomSchemas.draw()
        for binding in [RandomSchemas.Binding.xml, .json] {
            var schemas = RandomSchemas(seed: seed, binding: binding)
            let output = try GeneratorPipeline.run(schemas.files(), options: .init(testSamples: true))
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "random-\(schemas.family)-\(seed)")
            defer { try? FileManager.default.removeItem(at: directory) }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var sources: [String] = []
            var testNames: [String] = []
            for (index, file) in output.files.enumerated() {
                var contents = file.contents
                if file.root == .tests {
                    // Models and tests are compiled as one module, so the tests do not import it.
                    contents = contents.replacingOccurrences(of: "import \(schemas.family)\n", with: "")
                    testNames += Self.testNames(in: contents)
                }
                let path = directory.appendingPathComponent("\(index).swift").path
                try contents.write(toFile: path, atomically: true, encoding: .utf8)
                sources.append(path)
            }
            let main = Self.testMain(testNames)
            try main.write(to: directory.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
            let executable = directory.appendingPathComponent("roundtrip")
            let compile = try SwiftCompiler.compile(
                module: schemas.family, sources: sources + [directory.appendingPathComponent("main.swift").path],
                executable: executable
            )
            XCTAssertEqual(
                compile.status, 0, "seed \(seed) \(binding) does not compile:\n\(compile.output.suffix(4000))")
            guard compile.status == 0 else { continue }
            let tests = try Subprocess.run([executable.path])
            XCTAssertEqual(
                tests.status, 0, "seed \(seed) \(binding): round trips failed:\n\(tests.output.suffix(4000))")
            XCTAssertTrue(
                tests.output.contains("Executed \(testNames.count) tests, with 0 failures"),
                "seed \(seed) \(binding):\n\(tests.output.suffix(2000))")
        }
    }

    /// The `func test…()` methods declared in `source`, as `Case.test` references, case by case.
    private static func testNames(in source: String) -> [String] {
        var testCase = ""
        return source.split(separator: "\n").compactMap { (line: Substring) -> String? in
            let trimmed: String = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("final class "), trimmed.hasSuffix(": XCTestCase {") {
                testCase = String(trimmed.dropFirst(12).prefix { $0 != ":" })
            }
            guard trimmed.hasPrefix("func test") else { return nil }
            return testCase + "." + String(trimmed.dropFirst(5).prefix { $0 != "(" })
        }
    }

    /// A `main.swift` that runs the generated round-trip tests `names` (each `Case.test`), one entry per case.
    private static func testMain(_ names: [String]) -> String {
        var order: [String] = []
        var tests: [String: [String]] = [:]
        for name in names {
            let testCase = String(name.prefix { $0 != "." })
            if tests[testCase] == nil { order.append(testCase) }
            let method = String(name.dropFirst(testCase.count + 1))
            tests[testCase, default: []].append("    (\"\(method)\", \(name)),\n")
        }
        let cases: [String] = order.map { (testCase: String) -> String in
            "testCase([\n\((tests[testCase] ?? []).joined())])"
        }
        return "import XCTest\nXCTMain([\n" + cases.joined(separator: ",\n") + "\n])\n"
    }
}
