import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// Regenerating the repository's schemas in memory must give exactly the committed `Generated/` trees.
final class ReferenceTreeTests: XCTestCase {
    func testCommittedGeneratedCodeMatchesTheSchemas() throws {
        let repository = Fixtures.repository
        let files = try SchemaDirectory.read(repository.appendingPathComponent("Schemas"))
        let output = try GeneratorPipeline.run(files, options: .init(displayRoot: "Schemas", testSamples: true))
        XCTAssertEqual(
            output.families, ["FHIR", "HealthVault", "Koppeltaal", "Koppeltaal2", "OAuth2", "SMART", "Vital"])
        XCTAssertTrue(output.diagnostics.isEmpty, output.diagnostics.map(\.description).joined(separator: "\n"))
        // The FHIR family's protocol.json turns the sample round trips off; every other family has them.
        let sampleTests = output.files.filter { $0.root == .tests }.map(\.path)
        XCTAssertEqual(
            sampleTests.sorted(),
            ["HealthVault", "Koppeltaal", "Koppeltaal2", "OAuth", "SMART", "Vital"].map {
                "HealthSignIn\($0)Tests/Generated/GeneratedRoundTripTests.swift"
            }.sorted())

        var expectedPaths = Set<String>()
        for file in output.files {
            let root = file.root == .sources ? "Sources" : "Tests"
            let path = root + "/" + file.path
            expectedPaths.insert(path)
            let url = repository.appendingPathComponent(path)
            guard let committed = try? String(contentsOf: url, encoding: .utf8) else {
                XCTFail("\(path) is generated but not committed; run make generate")
                continue
            }
            let diff = UnifiedDiff.diff(old: committed, new: file.contents, oldName: path, newName: "regenerated")
            XCTAssertTrue(diff.isEmpty, "\(path) differs from what the schemas generate; run make generate\n\(diff)")
        }
        for family in output.families {
            for directory in ["Sources/\(family)/Generated", "Tests/\(family)Tests/Generated"] {
                let url = repository.appendingPathComponent(directory)
                let enumerator = FileManager.default.enumerator(atPath: url.path)
                while let relative = enumerator?.nextObject() as? String {
                    guard relative.hasSuffix(".swift") else { continue }
                    XCTAssertTrue(
                        expectedPaths.contains(directory + "/" + relative),
                        "\(directory)/\(relative) is no longer generated; run make generate")
                }
            }
        }
    }

    func testGenerationIsDeterministic() throws {
        let files = try SchemaDirectory.read(Fixtures.repository.appendingPathComponent("Schemas"))
        let first = try GeneratorPipeline.run(files, options: .init(testSamples: true)).files
        let second = try GeneratorPipeline.run(files.reversed(), options: .init(testSamples: true)).files
        XCTAssertEqual(first, second)
    }
}
