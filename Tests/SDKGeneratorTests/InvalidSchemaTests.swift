import Foundation
import SDKGenerator
import TestSupport
import XCTest

/// Every directory under `InvalidSchemas/` is a family with one mistake; generating it must fail with exactly the
/// diagnostics in its `expected.txt`, and never crash.
final class InvalidSchemaTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("InvalidSchemas")

    func testEveryCaseFailsWithItsExpectedDiagnostics() throws {
        let cases = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertGreaterThanOrEqual(cases.count, 20, "the corpus should cover every validation rule")
        for name in cases {
            let directory = Self.corpus.appendingPathComponent(name)
            let expected = try String(contentsOf: directory.appendingPathComponent("expected.txt"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            let files = try SchemaDirectory.read(directory)
            do {
                _ = try GeneratorPipeline.run(files, options: .init(displayRoot: "Schemas"))
                XCTFail("\(name): generation succeeded, expected \(expected)")
            } catch let failure as GenerationFailed {
                XCTAssertEqual(failure.diagnostics.map(\.description), expected, name)
            }
        }
    }
}
