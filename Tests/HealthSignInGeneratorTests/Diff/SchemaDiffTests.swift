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

    /// The table in `Schemas/README.md` is rendered from the rules: each has a description and an example, and every
    /// keyword its description names is one the schema language has (or another rule, or a JSON literal).
    func testEveryRuleOfTheTableIsDescribedInTheSchemaLanguagesOwnWords() throws {
        var keywords: Set<String> = ["null", "true", "false"]
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] { keywords.formUnion(properties.keys) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        for name in ["method", "protocol", "config"] {
            let url = Fixtures.repository.appendingPathComponent("Schemas/\(name).schema.json")
            collect(try JSONSerialization.jsonObject(with: try Data(contentsOf: url)))
        }
        XCTAssertTrue(keywords.isSuperset(of: ["aliases", "x-swift-name", "oneOf", "additionalProperties"]))
        let rules = Set(DiffRule.allCases.map(\.rawValue))
        for rule in DiffRule.allCases {
            XCTAssertNotEqual(rule.summary, rule.rawValue, "\(rule.rawValue) has no description")
            XCTAssertFalse(rule.example.isEmpty, "\(rule.rawValue) has no example")
            let quoted = rule.summary.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            for word in quoted
            where word.first.map({ $0.isLowercase || $0 == "$" }) == true
                && word.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "$" })
            {
                XCTAssertTrue(
                    keywords.contains(word) || rules.contains(word),
                    "\(rule.rawValue) names `\(word)`, which the schema language does not have")
            }
        }
    }
}
