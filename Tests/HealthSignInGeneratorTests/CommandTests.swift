import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen` end to end on a scratch copy: write only what changed, delete orphans, and `--check` with a diff.
final class CommandTests: XCTestCase {
    private var scratch: URL!
    private var previousDirectory: String!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sdkgen-\(UUID().uuidString)")
        let schemas = scratch.appendingPathComponent("Schemas/Demo")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        try """
        {"family": "Demo", "description": "A demo.", "binding": {"http": {"authPolicies": ["none"]}},
         "servers": {"api": {"description": "The API."}}}
        """.write(to: schemas.appendingPathComponent("protocol.json"), atomically: true, encoding: .utf8)
        try """
        {"name": "Ping", "description": "Pings.", "binding": {"http": {"method": "GET", "server": "api", "path": "/ping", "auth": "none"}},
         "response": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}
        """.write(to: schemas.appendingPathComponent("Ping.json"), atomically: true, encoding: .utf8)
        previousDirectory = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(scratch.path))
    }

    override func tearDownWithError() throws {
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(previousDirectory))
        try? FileManager.default.removeItem(at: scratch)
    }

    private var complaints: [String] = []

    private func run(check: Bool, schemas: String = "Schemas", schemaReference: String? = nil) -> Int32 {
        var lines: [String] = []
        defer { complaints = lines }
        return Command.run(
            schemas: schemas, output: "Sources", testSamples: nil, families: nil, check: check, verbose: false,
            schemaReference: schemaReference,
            report: { _ in }, complain: { lines.append($0) }
        )
    }

    func testWriteThenCheckThenDriftThenOrphan() throws {
        let generated = scratch.appendingPathComponent("Sources/Demo/Generated/Methods/Ping.swift")
        XCTAssertEqual(run(check: true), 1, "nothing generated yet")
        XCTAssertEqual(run(check: false), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: generated.path))
        XCTAssertEqual(run(check: true), 0, "freshly generated output is up to date")

        // An unchanged file is not rewritten.
        let before = try FileManager.default.attributesOfItem(atPath: generated.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(run(check: false), 0)
        let after = try FileManager.default.attributesOfItem(atPath: generated.path)[.modificationDate] as? Date
        XCTAssertEqual(before, after)

        // Hand edits are drift: --check fails and writing restores them.
        try "// edited\n".write(to: generated, atomically: true, encoding: .utf8)
        XCTAssertEqual(run(check: true), 1)
        XCTAssertTrue(complaints.contains { $0.contains("-// edited") }, complaints.joined(separator: "\n"))
        XCTAssertEqual(
            complaints.last, "run without --check to update them: HealthSignInSDKGen --schemas Schemas --output Sources"
        )
        XCTAssertEqual(run(check: false), 0)
        XCTAssertNotEqual(try String(contentsOf: generated, encoding: .utf8), "// edited\n")

        // A generated file whose schema is gone is deleted.
        let orphan = scratch.appendingPathComponent("Sources/Demo/Generated/Methods/Gone.swift")
        try "// stale\n".write(to: orphan, atomically: true, encoding: .utf8)
        XCTAssertEqual(run(check: true), 1)
        XCTAssertEqual(run(check: false), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: orphan.path))
    }

    func testTheOutputDoesNotDependOnHowTheSchemasPathIsSpelled() throws {
        XCTAssertEqual(run(check: false), 0)
        for spelling in [scratch.appendingPathComponent("Schemas").path, "./Schemas", "Sources/../Schemas", "Schemas/"]
        {
            XCTAssertEqual(run(check: true, schemas: spelling), 0, "\(spelling): \(complaints.joined(separator: "\n"))")
        }
        let generated = try String(
            contentsOf: scratch.appendingPathComponent("Sources/Demo/Generated/Methods/Ping.swift"), encoding: .utf8)
        XCTAssertTrue(generated.contains("/// - Remark: Generated from Schemas/Demo/Ping.json#"), generated)
    }

    func testTheSchemaReferenceIsRenderedFromTheMetaSchemasAndChecked() throws {
        for name in ["method.schema.json", "protocol.schema.json"] {
            try FileManager.default.copyItem(
                at: Fixtures.repository.appendingPathComponent("Schemas/" + name),
                to: scratch.appendingPathComponent("Schemas/" + name)
            )
        }
        XCTAssertEqual(run(check: true, schemaReference: "Schemas/README.md"), 1, "no reference yet")
        XCTAssertEqual(run(check: false, schemaReference: "Schemas/README.md"), 0)
        let reference = try String(contentsOf: scratch.appendingPathComponent("Schemas/README.md"), encoding: .utf8)
        for keyword in [
            "`authPolicies`", "`responseNamespace`", "`sensitive`", "`nodeType`", "`itemCursor`", "`x-swift-name`",
        ] {
            XCTAssertTrue(reference.contains(keyword), "the reference lacks \(keyword)")
        }
        XCTAssertEqual(run(check: true, schemaReference: "Schemas/README.md"), 0)
        let metaSchema = scratch.appendingPathComponent("Schemas/method.schema.json")
        let edited = try String(contentsOf: metaSchema, encoding: .utf8).replacingOccurrences(
            of: "The wire method name", with: "The method's wire name")
        try edited.write(to: metaSchema, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            run(check: true, schemaReference: "Schemas/README.md"), 1, "the reference is stale after a meta-schema edit"
        )
        XCTAssertTrue(
            complaints.contains { $0.contains("+| `method` | string | yes | The method's wire name") },
            complaints.joined(separator: "\n"))
    }

    func testCheckReportsADiffAndTheFix() throws {
        XCTAssertEqual(run(check: false), 0)
        let writer = OutputWriter(sources: URL(fileURLWithPath: "Sources"), tests: URL(fileURLWithPath: "Tests"))
        let files = try SchemaDirectory.read(URL(fileURLWithPath: "Schemas"))
        var output = try GeneratorPipeline.run(files).files
        let index = try XCTUnwrap(output.firstIndex { $0.path.hasSuffix("Ping.swift") })
        output[index] = GeneratedFile(
            root: .sources, path: output[index].path, contents: output[index].contents + "// new line\n")
        let changes = try writer.plan(output, modules: ["Demo"], testSamples: false)
        XCTAssertEqual(changes.map(\.path), ["Sources/Demo/Generated/Methods/Ping.swift"])
        XCTAssertTrue(changes[0].diff.contains("+// new line"), changes[0].diff)
    }

    func testSchemaErrorsExitWithStatusTwoAndWriteNothing() throws {
        try "{".write(to: scratch.appendingPathComponent("Schemas/Demo/Ping.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(run(check: false), 2)
        XCTAssertEqual(
            complaints,
            [
                "Schemas/Demo/Ping.json:1:2: error: malformed JSON: unexpected end of file, expected a string key\n1 error in the schemas; nothing was generated"
            ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.appendingPathComponent("Sources").path))
    }
}
