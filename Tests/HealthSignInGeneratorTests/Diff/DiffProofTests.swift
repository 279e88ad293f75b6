import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// Every rule's verdicts are proven, not asserted: each example's two versions are generated; code written against the
/// old API is type-checked against the new code (the compiler decides source), and random messages of both versions
/// are read by both versions' generated code (the runtime decides wire). The reported changes must agree with both.
final class DiffProofTests: XCTestCase {
    /// One side of the examples: their generated code, readers and IR.
    private struct Side {
        var generated: [String] = []
        var harness: [String] = []
        var families: [String: IRFamily] = [:]
    }

    func testEveryExampleAgreesWithTheCompilerAndTheRuntime() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = ProofSeed.diffProof.draw(environment: environment)
        // The access level is proven apart: one module sees every level.
        let rules = Self.ruleExamples(
            DiffExamples.all.filter { ![.accessNarrowed, .accessWidened, .moduleRenamed].contains($0.rule) },
            selection: environment["SDK_DIFF_EXAMPLES"], seed: seed)
        // Random schemas of the language, each with one random change: a mutant both versions of which generate;
        // and the mutants exploration once found misjudged, every run.
        let mutantCount = environment["SDK_DIFF_MUTANTS"].flatMap(Int.init) ?? 16
        let drawn = try DiffMutants.draw(seed: seed, count: mutantCount)
        let mutants = drawn.filter { mutant in (try? SchemaDiffTests.changes(mutant)) != nil }
        // Random changes of the shapes HL7's definitions become: choice elements, primitive extensions.
        let fhir = try DiffMutants.fhir(seed: seed, count: mutantCount / 4)
        let regressions = try DiffMutants.regressions
        let labels: String = rules.map(\.label).sorted().joined(separator: ", ")
        print(
            "DiffProofTests: \(rules.count) rule examples (\(labels)), \(mutants.count) random changes of "
                + "\(drawn.count) drawn, \(fhir.count) of a FHIR-shaped schema "
                + "(\(fhir.map(\.label).joined(separator: "; "))), \(regressions.count) regressions")
        let examples = rules + mutants + fhir + regressions
        // The process in the name too, so that two runs on one machine never share the files.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "diff-proof-\(seed)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let old = try Self.generate(examples, side: "old", in: directory)
        let new = try Self.generate(examples, side: "new", in: directory)

        // Source: the old API's usage against the old code (it must compile) and against the new.
        let usages = try Self.writeUsages(examples, of: old, in: directory)
        let againstOld = try typecheck(usages + old.generated)
        XCTAssertEqual(againstOld, [], "seed \(seed): code written against the old API must compile against it")
        let brokenSource = try typecheck(usages + new.generated)

        // Wire: both versions read every message of both.
        let messages = Self.messages(examples, old: old, new: new, seed: seed)
        let input = directory.appendingPathComponent("messages.txt")
        let lines: [String] = messages.map { "\($0.0)\t\(Data($0.1.utf8).base64EncodedString())" }
        try lines.joined(separator: "\n").write(to: input, atomically: true, encoding: .utf8)
        var readings: [String: [String: String]] = [:]
        for (side, sources) in [("old", old.generated + old.harness), ("new", new.generated + new.harness)] {
            guard let reading = try read(input, side: side, sources: sources, in: directory) else { return }
            readings[side] = reading
        }

        var disagreements: [String] = []
        var conservative: [String] = []
        for example in examples {
            let observedSource = brokenSource.contains(example.family)
            let (evidence, decided) = Self.wireBreak(
                family: example.family, messages: messages, old: readings["old"] ?? [:], new: readings["new"] ?? [:])
            try Self.judge(
                example, sourceBroken: observedSource, wire: (evidence, decided),
                disagreements: &disagreements, conservative: &conservative)
        }
        for text in conservative { print("DiffProofTests: conservative: \(text)") }
        print("DiffProofTests: \(disagreements.count) unsound and \(conservative.count) conservative verdicts")
        XCTAssertEqual(disagreements, [], "seed \(seed); the compiler refused \(brokenSource.sorted())")
    }

    /// Generates one side (`old` or `new`) of every example into its own folder, with a reader harness per family.
    private static func generate(_ examples: [DiffExample], side: String, in directory: URL) throws -> Side {
        let folder = directory.appendingPathComponent(side)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var result = Side()
        for example in examples {
            let set = side == "old" ? example.old : example.new
            guard !set.files.isEmpty else { continue }
            let output = try GeneratorPipeline.run(
                set.inMemoryFiles, options: .init(config: set.config, singleFile: true))
            for file in output.files {
                let path = folder.appendingPathComponent(file.path.replacingOccurrences(of: "/", with: "_"))
                try file.contents.write(to: path, atomically: true, encoding: .utf8)
                result.generated.append(path.path)
            }
            let resolved = try GeneratorPipeline.resolvedModule(set.inMemoryFiles, options: .init(config: set.config))
            guard let family = resolved.0.families.first else { continue }
            result.families[example.family] = family
            let harness = folder.appendingPathComponent("\(example.family)Harness.swift")
            try DiffHarness(family: family).program().write(to: harness, atomically: true, encoding: .utf8)
            result.harness.append(harness.path)
        }
        let support = folder.appendingPathComponent("DiffSupport.swift")
        let proven: [String] = examples.map(\.family).filter { result.families[$0] != nil }
        let supportText: String = DiffHarness.support + DiffHarness.dispatch(proven)
        try supportText.write(to: support, atomically: true, encoding: .utf8)
        result.harness.append(support.path)
        return result
    }

    /// Writes code that uses each example's old API; returns the files' paths.
    private static func writeUsages(_ examples: [DiffExample], of old: Side, in directory: URL) throws -> [String] {
        let folder = directory.appendingPathComponent("usage")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var usages: [String] = []
        for example in examples {
            guard let family = old.families[example.family] else { continue }
            let path = folder.appendingPathComponent("Usage_\(example.family).swift")
            let text: String =
                "import Foundation\n@_spi(Generated) import HealthSignInCore\n\n" + DiffHarness(family: family).usage()
            try text.write(to: path, atomically: true, encoding: .utf8)
            usages.append(path.path)
        }
        return usages
    }

    /// Random messages of both versions of every example, tagged `o` or `n` by the version that wrote them.
    private static func messages(_ examples: [DiffExample], old: Side, new: Side, seed: UInt64) -> [(String, String)] {
        var random = SplitMix64(seed: seed)
        var messages: [(String, String)] = []
        for example in examples {
            for (tag, family) in [("o", old.families[example.family]), ("n", new.families[example.family])] {
                guard let family else { continue }
                var instances = DiffInstances(family: family, random: random)
                messages += instances.messages(tag: tag, count: 64)
                random = instances.random
            }
        }
        return messages
    }

    /// Compiles one side's readers and has them read every message; nil (with a failure) when they do not compile.
    private func read(_ input: URL, side: String, sources: [String], in directory: URL) throws -> [String: String]? {
        let executable = directory.appendingPathComponent("read-\(side)")
        let compile = try SwiftCompiler.compile(
            module: "Diff\(side.capitalized)", sources: sources, executable: executable)
        XCTAssertEqual(compile.status, 0, "the \(side) readers do not compile:\n\(compile.output.suffix(6000))")
        guard compile.status == 0 else { return nil }
        let run = try Subprocess.run([executable.path, input.path])
        XCTAssertEqual(run.status, 0, String(run.output.suffix(3000)))
        return Self.parse(run.output)
    }

    /// Compares an example's reported changes with what the compiler and the runtime observed. A rule's example must
    /// agree both ways. A random change must never break what the diff calls compatible; the diff may call breaking a
    /// change no message or use happens to show (a looser maxLength that a pattern already bounds, a message no schema
    /// version accepts), which is only printed.
    private static func judge(
        _ example: DiffExample, sourceBroken observedSource: Bool, wire: (evidence: String?, decided: Bool),
        disagreements: inout [String], conservative: inout [String]
    ) throws {
        let changes = try SchemaDiffTests.changes(example)
        let expectedSource = changes.contains { $0.source == .breaking }
        let expectedWire = changes.contains { $0.wire == .breaking }
        let exact = example.rule != nil
        if observedSource != expectedSource {
            let text = "\(example.label): the compiler says source \(observedSource ? "breaking" : "compatible")"
            if exact || observedSource { disagreements.append(text) } else { conservative.append(text) }
        }
        if !wire.decided {
            if exact { disagreements.append("\(example.label): a part has no valid message, nothing decides") }
        } else if (wire.evidence != nil) != expectedWire {
            var text = "\(example.label): the runtime says wire \(wire.evidence != nil ? "breaking" : "compatible")"
            if let evidence = wire.evidence { text += ": \(evidence)" }
            if exact || wire.evidence != nil { disagreements.append(text) } else { conservative.append(text) }
        }
    }

    /// The rule examples a run proves, chosen by `SDK_DIFF_EXAMPLES`: a number of them drawn from `seed` (10 when it
    /// is not set), `all` (as `make stress` and `make proofs` do), or a comma-separated list of rule names.
    private static func ruleExamples(_ examples: [DiffExample], selection: String?, seed: UInt64) -> [DiffExample] {
        switch selection {
        case "all"?:
            return examples
        case let text? where Int(text) == nil:
            let names = Set(text.split(separator: ",").map { String($0) })
            return examples.filter { names.contains($0.label) }
        default:
            var draw = SplitMix64(seed: seed)
            return Array(examples.shuffled(using: &draw).prefix(selection.flatMap(Int.init) ?? 10))
        }
    }

    /// The families whose usage file has a compile error.
    private func typecheck(_ sources: [String]) throws -> Set<String> {
        let modules = Fixtures.repository.appendingPathComponent(".build/debug/Modules").path
        var arguments = [
            "swiftc", "-typecheck", "-continue-building-after-errors", "-module-name", "DiffUsage", "-swift-version",
            "6",
            "-I", modules,
        ]
        arguments += SwiftCompiler.systemLibraryArguments
        let run = try Subprocess.run(arguments + sources)
        var broken: Set<String> = []
        for line in run.output.split(separator: "\n") where line.contains(": error:") {
            guard let range = line.range(of: "Usage_") else { continue }
            broken.insert(String(line[range.upperBound...].prefix { $0 != "." }))
        }
        if run.status != 0, broken.isEmpty { broken.insert("?" + String(run.output.suffix(2000))) }
        return broken
    }

    /// The readings a program printed: key to reading.
    private static func parse(_ output: String) -> [String: String] {
        var readings: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let data = Data(base64Encoded: String(parts[1])) else { continue }
            readings[String(parts[0])] = String(decoding: data, as: UTF8.self)
        }
        return readings
    }

    /// A message of `family` that one version accepts and the other refuses or reads differently, if there is one,
    /// and whether every part (a method's request, response, error body) had a message valid under its writer.
    static func wireBreak(
        family: String, messages: [(String, String)], old: [String: String], new: [String: String]
    ) -> (String?, Bool) {
        var validParts: Set<String> = []
        var allParts: Set<String> = []
        var found: String?
        for (key, text) in messages where key.hasPrefix(family + "/") {
            let part = key.split(separator: "/").dropLast().joined(separator: "/")
            allParts.insert(part)
            let writtenByOld = key.split(separator: "/").last?.hasPrefix("o") == true
            let (writer, reader) = writtenByOld ? (old[key], new[key]) : (new[key], old[key])
            guard let writer, writer != "refused", writer != "missing", let reader else { continue }
            validParts.insert(part)
            // A method only the new version has is one no old client sends.
            if reader == "missing", !writtenByOld { continue }
            if found == nil, reader == "refused" || reader == "missing" || !agree(writer, reader) {
                let version = writtenByOld ? "old" : "new"
                found = "\(key) \(text): written by the \(version) version as \(writer), read as \(reader)"
            }
        }
        return (found, found != nil || validParts == allParts)
    }

    /// Whether two readings agree on everything both versions know: members only one of them has are not compared.
    private static func agree(_ a: String, _ b: String) -> Bool {
        guard let left = try? JSONSerialization.jsonObject(with: Data(a.utf8)) as? [String: Any],
            let right = try? JSONSerialization.jsonObject(with: Data(b.utf8)) as? [String: Any]
        else { return a == b }
        guard agree(left["view"] as Any, right["view"] as Any) else { return false }
        let sent = { (reading: [String: Any]) in (reading["sent"] as? String)?.components(separatedBy: "\n\n") ?? [] }
        let (x, y) = (sent(left), sent(right))
        guard x.first == y.first else { return false }
        let body = { (parts: [String]) -> Any in
            guard parts.count > 1, let data = parts[1].data(using: .utf8),
                let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            else { return parts.dropFirst().joined() }
            return value
        }
        return agree(body(x), body(y))
    }

    private static func agree(_ a: Any, _ b: Any) -> Bool {
        switch (a, b) {
        case (let x as [String: Any], let y as [String: Any]):
            return Set(x.keys).intersection(y.keys).allSatisfy { agree(x[$0] as Any, y[$0] as Any) }
        case (let x as [Any], let y as [Any]):
            return x.count == y.count && zip(x, y).allSatisfy { agree($0, $1) }
        default:
            return "\(a)" == "\(b)"
        }
    }
}

extension SchemaDiffTests {
    /// The changes an example reports.
    static func changes(_ example: DiffExample) throws -> [SchemaChange] {
        SchemaDiff.changes(
            old: try module(example.old), new: try module(example.new), oldConfig: example.old.config,
            newConfig: example.new.config)
    }

    /// The set's families resolved; none for a set without files (a family added or removed as a whole).
    static func module(_ set: ExampleSet) throws -> IRModule {
        guard !set.files.isEmpty else { return IRModule(families: []) }
        return try GeneratorPipeline.resolvedModule(set.inMemoryFiles, options: .init(config: set.config)).0
    }
}

/// The rules of the access level and the module's name, proven across modules: one module sees every level and has
/// one name, so the new code is built as a module of its own, named as the new schemas name it, and the old API's
/// usage imports the old module's name, from the same package or from another.
final class DiffAccessProofTests: XCTestCase {
    func testTheAccessLevelRulesAgreeWithTheCompiler() throws {
        let modules = Fixtures.repository.appendingPathComponent(".build/debug/Modules").path
        var common = ["-swift-version", "6", "-I", modules]
        common += SwiftCompiler.systemLibraryArguments
        let examples = DiffExamples.all.filter { [.accessNarrowed, .accessWidened, .moduleRenamed].contains($0.rule) }
        XCTAssertEqual(examples.count, 3)
        for example in examples {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-access-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let old = try SchemaDiffTests.module(example.old)
            let new = try SchemaDiffTests.module(example.new)
            guard let family = old.families.first, let library = new.families.first?.module else {
                return XCTFail("no family")
            }
            var sources: [String] = []
            let output = try GeneratorPipeline.run(
                example.new.inMemoryFiles, options: .init(config: example.new.config, singleFile: true))
            for file in output.files {
                let path = directory.appendingPathComponent(file.path.replacingOccurrences(of: "/", with: "_"))
                try file.contents.write(to: path, atomically: true, encoding: .utf8)
                sources.append(path.path)
            }
            let build = try Subprocess.run(
                ["swiftc", "-emit-module", "-parse-as-library", "-module-name", library, "-package-name", "Library"]
                    + common + ["-emit-module-path", directory.appendingPathComponent(library + ".swiftmodule").path]
                    + sources)
            XCTAssertEqual(build.status, 0, String(build.output.suffix(3000)))
            let usage = directory.appendingPathComponent("Usage.swift")
            // The old API is imported by the old module's name.
            try
                ("import Foundation\n@_spi(Generated) import HealthSignInCore\nimport \(family.module)\n\n"
                + DiffHarness(family: family).usage()).write(to: usage, atomically: true, encoding: .utf8)
            // Old code that was public is used from another package; old code that was package, from the same one.
            let package = example.old.config.accessModifier == .public ? "Other" : "Library"
            let check = try Subprocess.run(
                ["swiftc", "-typecheck", "-module-name", "Usage", "-package-name", package] + common
                    + ["-I", directory.path, usage.path])
            let changes = try SchemaDiffTests.changes(example)
            let expected = changes.contains { $0.source == .breaking }
            XCTAssertEqual(
                check.status != 0, expected,
                "\(example.label): the compiler says \(check.status != 0 ? "breaking" : "compatible")\n"
                    + String(check.output.suffix(2000)))
        }
    }
}
