import Foundation
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen diff` from the R4 family to R4B and R5, each imported from HL7's definitions
/// (`Tests/Fixtures/FHIR/Releases`): the releases load, and what HL7 changed is what the command reports.
final class FHIRReleaseDiffTests: XCTestCase {
    private struct Change: Decodable {
        let file: String
        let pointer: String
        let rule: String
        let source: String
        let wire: String
        let message: String
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL

    /// The changes from `Schemas/FHIR` to the family imported from `release`, as `sdkgen diff --format json`
    /// prints them.
    private func changes(to release: String) throws -> [Change] {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: base) }
        let family = base.appendingPathComponent("FHIR")
        try FileManager.default.createDirectory(at: family, withIntermediateDirectories: true)
        let schemas = Self.repository.appendingPathComponent("Schemas/FHIR")
        for name in try FileManager.default.contentsOfDirectory(atPath: schemas.path) where name.hasSuffix(".json") {
            try FileManager.default.copyItem(
                at: schemas.appendingPathComponent(name), to: family.appendingPathComponent(name))
        }
        var output = ""
        var complaints = ""
        let status = DiffCommand.run(
            base: base.path,
            schemas: Self.repository.appendingPathComponent("Tests/Fixtures/FHIR/Releases/\(release)").path,
            config: nil, baseConfig: nil, format: .json, failOn: .none, print: { output += $0 },
            complain: { complaints += $0 })
        XCTAssertEqual(status, 0, complaints)
        XCTAssertEqual(complaints, "")
        struct Report: Decodable { let changes: [Change] }
        return try JSONDecoder().decode(Report.self, from: Data(output.utf8)).changes
    }

    /// The cases of the `Resource` union that `rule` reports (`… the variant .citation …`).
    private func union(_ changes: [Change], _ rule: String) -> Set<String> {
        Set(
            changes.filter { $0.pointer == "/$defs/Resource" && $0.rule == rule }.compactMap { change in
                change.message.components(separatedBy: "variant .").dropFirst().first.map {
                    String($0.prefix { $0.isLetter || $0.isNumber })
                }
            })
    }

    func testR4ToR4BReportsTheResourcesHL7RemovedAndAdded() throws {
        let changes = try changes(to: "R4B")
        XCTAssertEqual(changes.count, 424)
        XCTAssertEqual(changes.filter { $0.source == "breaking" }.count, 275)
        XCTAssertEqual(changes.filter { $0.wire == "breaking" }.count, 141)
        // R4B's own list: the MedicinalProduct family, the Substance details and the evidence syntheses are
        // replaced by new resources. A dropped resource is never paired with an added one as a rename, even where
        // the union's order puts one in the other's place.
        XCTAssertEqual(
            union(changes, "one-of-variant-removed"),
            [
                "effectEvidenceSynthesis", "medicinalProduct", "medicinalProductAuthorization",
                "medicinalProductContraindication", "medicinalProductIndication", "medicinalProductIngredient",
                "medicinalProductInteraction", "medicinalProductManufactured", "medicinalProductPackaged",
                "medicinalProductPharmaceutical", "medicinalProductUndesirableEffect", "riskEvidenceSynthesis",
                "substanceNucleicAcid", "substancePolymer", "substanceProtein", "substanceReferenceInformation",
                "substanceSourceMaterial", "substanceSpecification",
            ])
        XCTAssertEqual(
            union(changes, "one-of-variant-added"),
            [
                "administrableProductDefinition", "citation", "clinicalUseDefinition", "evidenceReport", "ingredient",
                "manufacturedItemDefinition", "medicinalProductDefinition", "nutritionProduct",
                "packagedProductDefinition", "regulatedAuthorization", "subscriptionStatus", "subscriptionTopic",
                "substanceDefinition",
            ])
        XCTAssertEqual(changes.filter { $0.rule == "one-of-case-renamed" }.map(\.message), [])
        // Composition.confidentiality loses its required binding: a String now, where it was an enum.
        let confidentiality = try XCTUnwrap(
            changes.first { $0.pointer == "/$defs/Composition/properties/confidentiality" })
        XCTAssertEqual(confidentiality.rule, "property-type-changed")
        XCTAssertEqual([confidentiality.source, confidentiality.wire], ["breaking", "breaking"])
        XCTAssertTrue(confidentiality.file.hasSuffix("Releases/R4B/FHIR/types.json"), confidentiality.file)
    }

    func testR5LoadsAndItsDiffIsCounted() throws {
        let changes = try changes(to: "R5")
        XCTAssertEqual(changes.count, 3_286)
        XCTAssertEqual(changes.filter { $0.source == "breaking" }.count, 1_545)
        XCTAssertEqual(changes.filter { $0.wire == "breaking" }.count, 710)
        XCTAssertEqual(union(changes, "one-of-variant-removed").count, 20)
        XCTAssertEqual(union(changes, "one-of-variant-added").count, 32)
        // R5's 64-bit integer is a JSON string, and InventoryItem.description (an element, not a string) takes the
        // Swift name every FHIR description takes.
        let size = try XCTUnwrap(changes.first { $0.pointer == "/$defs/Attachment/properties/size" })
        XCTAssertEqual(size.rule, "property-type-changed")
        XCTAssertTrue(size.message.contains("Swift.String"), size.message)
        XCTAssertTrue(
            changes.contains { $0.pointer == "/$defs/InventoryItem" && $0.rule == "type-added" },
            "InventoryItem is new in R5")
    }
}
