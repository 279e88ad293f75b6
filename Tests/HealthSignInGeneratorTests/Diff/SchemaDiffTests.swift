import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen diff` finds each rule's example, prints exactly the documented formats, and exits as documented.
final class SchemaDiffTests: XCTestCase {
    private func changes(_ example: DiffExample) throws -> [SchemaChange] {
        let old = try GeneratorPipeline.resolvedModule(
            example.old.inMemoryFiles, options: .init(config: example.old.config)
        ).0
        let new = try GeneratorPipeline.resolvedModule(
            example.new.inMemoryFiles, options: .init(config: example.new.config)
        ).0
        return SchemaDiff.changes(old: old, new: new, oldConfig: example.old.config, newConfig: example.new.config)
    }

    func testEveryExampleIsReportedByItsRule() throws {
        let examples = DiffExamples.all
        XCTAssertGreaterThan(examples.count, 50)
        for example in examples {
            guard let rule = example.rule else { continue }
            let found: [SchemaChange]
            do {
                found = try changes(example)
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
