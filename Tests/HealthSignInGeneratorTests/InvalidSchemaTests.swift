import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// Every directory under `InvalidSchemas/` is a family with one mistake; generating it must fail with exactly the
/// diagnostics in its `expected.txt`, and never crash. A case may name the families to generate in `families.txt`
/// (one per line), as `sdkgen --family` does, give an `sdkgen-config.json`, as `sdkgen --config` does, and generate
/// one file per family into one module when it has a `single-file` file, as `sdkgen --single-file` does.
///
/// Every error the generator can report has a case: the second test reads each diagnostic message template in the
/// generator's source and requires some case's expected output to match it.
final class InvalidSchemaTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "InvalidSchemas")

    private static func cases() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    private static func expected(_ name: String) throws -> [String] {
        try String(
            contentsOf: corpus.appendingPathComponent(name).appendingPathComponent("expected.txt"), encoding: .utf8
        )
        .split(separator: "\n").map(String.init)
    }

    /// The families a case generates, from its optional `families.txt`; nil means all.
    private static func families(in directory: URL) -> Set<String>? {
        let file: URL = directory.appendingPathComponent("families.txt")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        return Set(text.split(separator: "\n").map(String.init))
    }

    func testEveryCaseFailsWithItsExpectedDiagnostics() throws {
        let cases = try Self.cases()
        XCTAssertGreaterThanOrEqual(cases.count, 40, "the corpus should cover every validation rule")
        for name in cases {
            let directory = Self.corpus.appendingPathComponent(name)
            let expected = try Self.expected(name)
            let families: Set<String>? = Self.families(in: directory)
            let files = try SchemaDirectory.read(directory)
            var config = GeneratorConfig()
            if let text = try? String(
                contentsOf: directory.appendingPathComponent("sdkgen-config.json"), encoding: .utf8)
            {
                let (decoded, diagnostics) = GeneratorConfig.decode(text, file: "sdkgen-config.json")
                guard let decoded else {
                    XCTAssertEqual(diagnostics.sorted.map(\.description), expected, name)
                    continue
                }
                config = decoded
            }
            do {
                let singleFile = FileManager.default.fileExists(
                    atPath: directory.appendingPathComponent("single-file").path)
                _ = try GeneratorPipeline.run(
                    files,
                    options: .init(displayRoot: "Schemas", families: families, config: config, singleFile: singleFile))
                XCTFail("\(name): generation succeeded, expected \(expected)")
            } catch let failure as GenerationFailed {
                XCTAssertEqual(failure.diagnostics.map(\.description), expected, name)
            }
        }
    }

    func testEveryDiagnosticOfTheGeneratorHasACase() throws {
        let reported = try Self.cases().flatMap(Self.expected)
        // The importers' diagnostics are about their definitions, not schemas; their own tests have the cases.
        let templates = try DiagnosticTemplates.all(in: Fixtures.repository.appendingPathComponent("Generator/Core"))
            .filter { !$0.isImporters }
        XCTAssertGreaterThan(templates.count, 100, "the generator's diagnostics were found")
        for template in templates where !reported.contains(where: template.matches) {
            XCTFail("no InvalidSchemas case reports \(template.site): \(template.text)")
        }
    }
}

/// The messages the generator passes to `diagnostics.error(…)` and `diagnostics.warning(…)` as string literals, each
/// with its interpolations as wildcards. Messages built in variables are not templates and are not listed.
struct DiagnosticTemplates {
    /// Where the call is, `File.swift:line`.
    let site: String
    /// The literal, interpolations shown as `…`.
    let text: String
    /// Whether the call is in an importer (`Generator/Core/Import`).
    var isImporters = false
    private let fixedParts: [String]

    /// Whether `line` could be this message.
    func matches(_ line: String) -> Bool {
        // The fixed parts must appear in order; interpolations may be anything between them.
        var rest = Substring(line)
        for part in fixedParts where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    static func all(in directory: URL) throws -> [DiagnosticTemplates] {
        var templates: [DiagnosticTemplates] = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let source = try String(contentsOf: file, encoding: .utf8)
            let isImporters = file.pathComponents.contains("Import")
            templates += parse(source, file: file.lastPathComponent).map { template in
                var template = template
                template.isImporters = isImporters
                return template
            }
        }
        return templates
    }

    private static func parse(_ source: String, file: String) -> [DiagnosticTemplates] {
        let characters = Array(source)
        var found: [DiagnosticTemplates] = []
        for marker in ["diagnostics.error(", "diagnostics.warning("] {
            var searchFrom = source.startIndex
            while let range = source.range(of: marker, range: searchFrom..<source.endIndex) {
                searchFrom = range.upperBound
                // The message may start on the next line, where a long call is broken.
                var start = source.distance(from: source.startIndex, to: range.upperBound)
                while start < characters.count, characters[start].isWhitespace { start += 1 }
                guard start < characters.count, characters[start] == "\"" else { continue }
                start += 1
                guard let parts = literal(characters, from: start) else { continue }
                let line = source[..<range.lowerBound].filter { $0 == "\n" }.count + 1
                found.append(
                    DiagnosticTemplates(site: "\(file):\(line)", text: parts.joined(separator: "…"), fixedParts: parts))
            }
        }
        return found
    }

    /// The fixed parts of the string literal starting at `index` (just after its opening quote), split at each
    /// interpolation; nil when the literal cannot be read.
    private static func literal(_ characters: [Character], from index: Int) -> [String]? {
        var parts = [""]
        var position = index
        while position < characters.count {
            let character = characters[position]
            if character == "\"" { return parts }
            if character == "\\", position + 1 < characters.count {
                let next = characters[position + 1]
                if next == "(" {
                    guard let end = interpolationEnd(characters, from: position + 2) else { return nil }
                    parts.append("")
                    position = end
                    continue
                }
                parts[parts.count - 1].append(next == "n" ? "\n" : next)
                position += 2
                continue
            }
            parts[parts.count - 1].append(character)
            position += 1
        }
        return nil
    }

    /// The index just after the `)` that closes an interpolation whose contents start at `index`.
    private static func interpolationEnd(_ characters: [Character], from index: Int) -> Int? {
        var depth = 1
        var position = index
        var inString = false
        while position < characters.count {
            let character = characters[position]
            if inString {
                if character == "\\" {
                    position += 2
                    continue
                }
                if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if character == "(" {
                depth += 1
            } else if character == ")" {
                depth -= 1
                if depth == 0 { return position + 1 }
            }
            position += 1
        }
        return nil
    }
}
