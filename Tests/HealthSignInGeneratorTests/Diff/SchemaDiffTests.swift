import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen diff` finds each rule's example, prints exactly the documented formats, and exits as documented.
final class SchemaDiffTests: XCTestCase {
    func testEveryExampleIsReportedByItsRule() throws {
        let examples = DiffExamples.all
        XCTAssertGreaterThan(examples.count, 50)
        for example in examples {
            guard let rule = example.rule else { continue }
            let found: [SchemaChange]
            do {
                found = try Self.changes(example)
            } catch {
                XCTFail("\(example.label): \(error)")
                continue
            }
            XCTAssertTrue(
                found.contains { $0.rule == rule },
                "\(example.label): found \(found.map { "\($0.rule.rawValue): \($0.message)" })")
            let others = found.filter { $0.rule != rule && !example.alsoReports.contains($0.rule) }
            XCTAssertEqual(
                others.map { "\($0.rule.rawValue): \($0.message)" }, [],
                "\(example.label) reports other changes")
        }
    }

    func testTheSameSchemasHaveNoChanges() throws {
        let base = DiffExamples.base("Same")
        let module = try GeneratorPipeline.resolvedModule(base.inMemoryFiles).0
        XCTAssertEqual(SchemaDiff.changes(old: module, new: module).count, 0)
    }
}

extension SchemaDiffTests {
    func testTheUsageOfAPagingMethodCallsItsPages() throws {
        let example = try XCTUnwrap(DiffExamples.all.first { $0.rule == .pagingRemoved })
        let family = try XCTUnwrap(try Self.module(example.old).families.first)
        XCTAssertTrue(DiffHarness(family: family).usage().contains("Pages("), DiffHarness(family: family).usage())
    }
}

extension SchemaDiffTests {
    /// The rules whose example the proofs cannot build yet, and why; every other rule has one.
    static let rulesWithoutExample: [DiffRule: String] = [
        .envelopeChanged: "the HealthVault envelope: the proofs read JSON messages of http families",
        .healthVaultMethodChanged: "a HealthVault method: the proofs read JSON messages of http families",
        .xmlShapeChanged: "XML shapes: the proofs read JSON messages of http families",
        .pagingChanged: "which request follows a page: the proofs send one request per message",
        .propertiesReordered: "the examples write their keys sorted, so no order survives them",
    ]

    func testEveryRuleHasAnExampleButTheListedOnes() {
        let examples = Set(DiffExamples.all.compactMap(\.rule))
        let missing = Set(DiffRule.allCases).subtracting(examples)
        XCTAssertEqual(missing, Set(Self.rulesWithoutExample.keys))
    }
}
