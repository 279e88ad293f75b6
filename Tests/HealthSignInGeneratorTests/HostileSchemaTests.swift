import Foundation
import HealthSignInFuzzTargets
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// Schemas are input from outside: a payload of Swift code in any text field of a family (descriptions, enum values,
/// error codes, server descriptions, paths, names, keys) must either be refused with a located diagnostic or end up
/// inside a comment or a string literal. Nothing it contains may become a declaration, and the generated files must
/// still parse.
final class HostileSchemaTests: XCTestCase {
    /// Ends a `///` line in every way Swift or an editor would, closes braces and literals, opens declarations, and
    /// makes a line too wide to print.
    static let payload =
        // First, a word too long for any line with an argument list in it: a long line is broken only in code.
        String(repeating: "w", count: 120) + "(INJECTED_I,INJECTED_J) "
        + "x\r}}} public struct INJECTED_A {}\n public let INJECTED_B = 1\u{2028} func INJECTED_C() {}\u{2029}"
        + "\u{202E} \" + INJECTED_D + \" */ INJECTED_E \\(INJECTED_F) \u{85} INJECTED_G \u{0B}\u{0C} INJECTED_H #\"\"\"#"

    /// Text fields of each shipped family, one at a time (descriptions, which only reach comments, all at once):
    /// refused with a located diagnostic, or generated with the payload only in comments and literals. Then the
    /// family with a payload in every description and every tried field that generated, through `swiftc -parse`.
    ///
    /// Each run tries a seeded sample of each family's fields (`SDK_HOSTILE_SAMPLE` fields, 120 by default; `all` for
    /// every one, as `make stress` does), drawn from ``ProofSeed/hostileSchemas``.
    func testAPayloadInAnyTextFieldNeverBecomesCode() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = ProofSeed.hostileSchemas.draw(environment: environment)
        let sample =
            environment["SDK_HOSTILE_SAMPLE"] == "all"
            ? Int.max : environment["SDK_HOSTILE_SAMPLE"].flatMap(Int.init) ?? 120
        print(
            "HostileSchemaTests: \(sample == Int.max ? "all" : "\(sample)") fields per family"
        )
        var random = SplitMix64(seed: seed)
        var tally = Tally()
        for family in ["HealthVault", "Koppeltaal", "OAuth2", "SMART", "Vital"] {
            try tryFields(of: family, sample: sample, random: &random, tally: &tally)
        }
        XCTAssertGreaterThan(tally.generated, 50, "too few fields generated to prove anything")
        XCTAssertGreaterThan(tally.refused, 0)
        print(
            "HostileSchemaTests: of \(tally.fields) fields, \(tally.generated + tally.refused) tried: "
                + "\(tally.generated) generated safely, \(tally.refused) refused with diagnostics")
    }

    /// How many fields there were, and how many of those tried generated or were refused.
    private struct Tally {
        var fields = 0
        var generated = 0
        var refused = 0
    }

    /// Tries the payload in `sample` of the family's text fields, one at a time, then in all that generated at once.
    private func tryFields(
        of family: String, sample: Int, random: inout SplitMix64, tally: inout Tally
    ) throws {
        let files = try Self.shippedFiles(family)
        // The families it refers to are read beside it, unchanged, and only it is generated.
        let standsAlone = ["OAuth2", "HealthVault"].contains(family)
        let others: [InMemoryFile] = standsAlone ? [] : try Self.shippedFiles("OAuth2")
        let options = GeneratorPipeline.Options(families: [family])
        let documents = try files.map { try JSONSerialization.jsonObject(with: Data($0.contents.utf8)) }
        var every: [(Int, [HostileJSON.Step])] = []
        for (index, document) in documents.enumerated() {
            for path in HostileJSON.textPaths(in: document) where path.last?.description != "/description" {
                every.append((index, path))
            }
        }
        tally.fields += every.count
        let chosen = Set(Array(every.indices).shuffled(using: &random).prefix(sample))
        let trials = every.indices.filter(chosen.contains).map { every[$0] }
        // Each trial is a pure run of the pipeline, so they can share the cores.
        let outcomes = Outcomes()
        let inputs: [[InMemoryFile]] = trials.map { index, path in
            var mutated = files
            let document = HostileJSON.inject(Self.payload, at: path, in: documents[index])
            mutated[index] = InMemoryFile(path: files[index].path, contents: HostileJSON.text(document))
            return mutated
        }
        DispatchQueue.concurrentPerform(iterations: inputs.count) { number in
            outcomes.set(number, Result { try GeneratorPipeline.run(inputs[number] + others, options: options) })
        }
        var accepted = documents
        for (number, (index, path)) in trials.enumerated() {
            let place = "\(files[index].path) \(path.map(\.description).joined())"
            switch outcomes.get(number) {
            case .success(let output)?:
                tally.generated += 1
                Self.assertNoCode(in: output, place)
                accepted[index] = HostileJSON.inject(Self.payload, at: path, in: accepted[index])
            case .failure(let failure as GenerationFailed)?:
                tally.refused += 1
                let errors = failure.diagnostics.filter { $0.severity == .error }
                XCTAssertFalse(errors.isEmpty, "\(place): refused without an error")
                for error in errors where error.location == nil {
                    XCTFail("\(place): a diagnostic without a location: \(error)")
                }
            case let other:
                XCTFail("\(place): \(String(describing: other))")
            }
        }
        try assertEverythingAtOnceParses(family, files: files, documents: accepted, others: others)
    }

    /// The family with the payload in every description and every field that generated on its own.
    private func assertEverythingAtOnceParses(
        _ family: String, files: [InMemoryFile], documents: [Any], others: [InMemoryFile]
    ) throws {
        let everything = files.indices.map { index in
            let document = HostileJSON.textPaths(in: documents[index]).filter { $0.last?.description == "/description" }
                .reduce(documents[index]) { HostileJSON.inject(Self.payload, at: $1, in: $0) }
            return InMemoryFile(path: files[index].path, contents: HostileJSON.text(document))
        }
        let output = try GeneratorPipeline.run(everything + others, options: .init(families: [family]))
        Self.assertNoCode(in: output, "\(family) with every payload")
        let text = output.files.map(\.contents).joined()
        XCTAssertGreaterThan(
            text.components(separatedBy: "INJECTED_A").count, 20, "\(family): too few payloads reached the output")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hostile-\(family)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (number, file) in output.files.enumerated() where file.path.hasSuffix(".swift") {
            let path = directory.appendingPathComponent("\(number).swift").path
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let parse = try Subprocess.run(["swiftc", "-parse"] + paths)
        XCTAssertEqual(parse.status, 0, "\(family): \(parse.output.prefix(3000))")
    }

    private static func assertNoCode(in output: GeneratorPipeline.Output, _ place: String) {
        for file in output.files where SwiftSource.codeOutsideCommentsAndLiterals(file.contents).contains("INJECTED") {
            XCTFail("\(place): the payload became code in \(file.path)")
            return
        }
    }

    /// The fuzz target's text mode starts from a family that generates, so fuzzed text reaches the output.
    func testTheFuzzTextModeGeneratesWithPlainText() {
        let generated = (0..<40).filter { FuzzTarget.schemaTextGenerates(Data([UInt8($0)]) + Data(" plain".utf8)) }
        XCTAssertGreaterThan(generated.count, 5, "the text mode's method file is refused for almost every field")
    }

    static func shippedFiles(_ family: String) throws -> [InMemoryFile] {
        let directory = Fixtures.repository.appendingPathComponent("Schemas/\(family)")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().filter {
            $0.hasSuffix(".json")
        }.map {
            InMemoryFile(
                path: "\(family)/\($0)",
                contents: try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))
        }
    }
}

/// The trials' outcomes, filled from several threads.
private final class Outcomes: @unchecked Sendable {
    // @unchecked: `results` is only touched while `lock` is held.
    private let lock = NSLock()
    private var results: [Int: Result<GeneratorPipeline.Output, any Error>] = [:]

    func set(_ number: Int, _ result: Result<GeneratorPipeline.Output, any Error>) {
        lock.withLock { results[number] = result }
    }

    func get(_ number: Int) -> Result<GeneratorPipeline.Output, any Error>? { lock.withLock { results[number] } }
}
