import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// Families under `Corpus/` that use every construct of the schema language, one per binding and one for what JSON
/// Schema's keywords mean exactly, generated, compiled with the runtime and run by their own `<Family>.main.swift`:
/// fixtures round-trip byte for byte, values read as the schemas say, invalid requests are refused unsent, and XML
/// content a request carries is signed as it is.
final class CorpusTests: XCTestCase {
    private static let corpus = Fixtures.repository.appendingPathComponent("Tests/HealthSignInGeneratorTests/Corpus")

    func testTheJSONCorpusRoundTripsAndValidates() throws {
        let output = try run("CorpusJSON", fixture: "record.json")
        XCTAssertTrue(output.hasSuffix("ok\n"), output)
    }

    func testTheSemanticsCorpusMeansWhatJSONSchemaSays() throws {
        let output = try run("CorpusSemantics")
        XCTAssertTrue(output.hasSuffix("ok\n"), output)
    }

    func testTheXMLCorpusRoundTripsAndSignsItsContentAsReceived() throws {
        let output = try run("CorpusXML", fixture: "things.xml")
        let body = try XCTUnwrap(output.components(separatedBy: "body:").last)
        let infoStart = try XCTUnwrap(body.range(of: "<info>"))
        let infoEnd = try XCTUnwrap(body.range(of: "</info>", options: .backwards))
        let info = String(body[infoStart.lowerBound..<infoEnd.upperBound])
        let expected =
            #"<hash-data algName="SHA256">"# + (try IndependentDigest.sha256Base64(Data(info.utf8))) + "</hash-data>"
        XCTAssertTrue(body.contains(expected), "the info hash is not SHA-256 of the info as sent:\n\(body)")
    }

    /// Generates `family`, compiles it with its main file, runs it on the fixture and returns what it printed.
    private func run(_ family: String, fixture: String? = nil) throws -> String {
        let schemas = Self.corpus.appendingPathComponent(family)
        let files = try FileManager.default.contentsOfDirectory(atPath: schemas.path).sorted().map {
            InMemoryFile(
                path: "\(family)/\($0)",
                contents: try String(contentsOf: schemas.appendingPathComponent($0), encoding: .utf8))
        }
        let output = try GeneratorPipeline.run(files)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "corpus-\(family)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var sources: [String] = []
        for (index, file) in output.files.enumerated() where file.path.hasSuffix(".swift") {
            let path = directory.appendingPathComponent("\(index).swift").path
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
            sources.append(path)
        }
        let main = directory.appendingPathComponent("main.swift")
        try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent("\(family).main.swift"), to: main)
        let executable = directory.appendingPathComponent(family)
        let compile = try SwiftCompiler.compile(module: family, sources: sources + [main.path], executable: executable)
        XCTAssertEqual(compile.status, 0, compile.output.suffix(4000).description)
        guard compile.status == 0 else { return compile.output }
        let result = try Subprocess.run(
            [executable.path] + [fixture].compactMap { $0 }.map { Self.corpus.appendingPathComponent($0).path })
        XCTAssertEqual(result.status, 0, result.output)
        return result.output
    }
}
