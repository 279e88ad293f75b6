import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// The meta-schemas describe exactly what sdkgen accepts, and every shipped schema conforms to them.
final class MetaSchemaTests: XCTestCase {
    private func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Fixtures.repository.appendingPathComponent(path))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func keys(_ object: [String: Any], _ path: [String]) throws -> Set<String> {
        var current: Any = object
        for key in path { current = try XCTUnwrap((current as? [String: Any])?[key], path.joined(separator: "/")) }
        return Set(try XCTUnwrap(current as? [String: Any]).keys)
    }

    func testTheSchemaKeywordsAreTheOnesTheGeneratorReads() throws {
        let meta = try json("Schemas/method.schema.json")
        XCTAssertEqual(try keys(meta, ["$defs", "schema", "properties"]), Set(SchemaKeywords.schema))
        XCTAssertEqual(try keys(meta, ["properties"]), Set(SchemaKeywords.method))
        XCTAssertEqual(
            try keys(meta, ["$defs", "healthvaultBinding", "properties"]), Set(SchemaKeywords.healthvaultBinding))
        XCTAssertEqual(try keys(meta, ["$defs", "httpBinding", "properties"]), Set(SchemaKeywords.httpBinding))
        XCTAssertEqual(try keys(meta, ["$defs", "xml", "properties"]), Set(SchemaKeywords.xml))
        XCTAssertEqual(try keys(meta, ["$defs", "paging", "properties"]), Set(SchemaKeywords.paging))
        let protocolMeta = try json("Schemas/protocol.schema.json")
        XCTAssertEqual(try keys(protocolMeta, ["properties"]), Set(SchemaKeywords.protocolFile))
        XCTAssertEqual(try keys(protocolMeta, ["$defs", "errorFormat", "properties"]), Set(SchemaKeywords.errorFormat))
        XCTAssertEqual(try keys(protocolMeta, ["$defs", "code", "properties"]), Set(SchemaKeywords.code))
    }

    func testEveryKeywordIsDescribed() throws {
        for file in ["Schemas/method.schema.json", "Schemas/protocol.schema.json"] {
            let root = try json(file)
            let definitions = root["$defs"] as? [String: Any] ?? [:]
            var missing: [String] = []
            /// Walks schema positions only, so keyword names such as `properties` are not mistaken for schemas.
            func visit(_ schema: Any, _ path: String) {
                guard let schema = schema as? [String: Any] else { return }
                for (key, property) in schema["properties"] as? [String: Any] ?? [:] {
                    if !isDescribed(property) { missing.append(path + "/properties/" + key) }
                    visit(property, path + "/properties/" + key)
                }
                for (key, definition) in schema["$defs"] as? [String: Any] ?? [:] {
                    visit(definition, path + "/$defs/" + key)
                }
                for key in ["items", "additionalProperties"] {
                    if let child = schema[key] { visit(child, path + "/" + key) }
                }
            }
            /// A keyword is described directly, or through the definition its `$ref` names.
            func isDescribed(_ property: Any) -> Bool {
                guard let property = property as? [String: Any] else { return false }
                if property["description"] != nil { return true }
                if let ref = property["$ref"] as? String, ref.hasPrefix("#/$defs/"),
                    let target = definitions[String(ref.dropFirst("#/$defs/".count))] as? [String: Any]
                {
                    return target["description"] != nil
                }
                return false
            }
            visit(root, "")
            XCTAssertEqual(missing.sorted(), [], "\(file): keywords without a description")
        }
    }

    func testShippedSchemasLoadWithoutDiagnostics() throws {
        let files = try SchemaDirectory.read(Fixtures.repository.appendingPathComponent("Schemas"))
        let output = try GeneratorPipeline.run(files)
        XCTAssertEqual(output.diagnostics.map(\.description), [])
    }

    /// An independent check with Python's `jsonschema` (Draft 2020-12) from the emulator's virtual environment.
    func testShippedSchemasConformToTheMetaSchemasPerJSONSchema() throws {
        let python = Fixtures.repository.appendingPathComponent("Tests/Emulator/.venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            XCTFail(
                "Tests/Emulator/.venv is missing; run `make venv` (make test does it) to validate schemas with jsonschema"
            )
            return
        }
        let result = try Subprocess.run([
            python.path, Fixtures.repository.appendingPathComponent("Tests/Tools/validate_schemas.py").path,
            Fixtures.repository.appendingPathComponent("Schemas").path,
            Fixtures.repository.appendingPathComponent(
                "Tests/Fixtures/ConsumerPackage/Sources/DemoKit/sdkgen-config.json"
            )
            .path,
        ])
        XCTAssertEqual(result.status, 0, result.output)
        let output = result.output
        let familyFiles = try SchemaDirectory.read(Fixtures.repository.appendingPathComponent("Schemas")).count
        XCTAssertTrue(output.contains("\(familyFiles) schema files and 1 configuration files conform"), output)
    }
}
