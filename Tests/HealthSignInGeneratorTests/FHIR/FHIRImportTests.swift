import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen import-fhir` on HL7's R4 core package kept in the repository, and on small packages written here.
final class FHIRImportTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL
    static let r4Core = repository.appendingPathComponent("Schemas/FHIR/HL7/hl7.fhir.r4.core-4.0.1")

    /// The package's files as the command reads them.
    private static func packageFiles(_ directory: URL) throws -> [InMemoryFile] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().filter { $0.hasSuffix(".json") }
            .map { name in
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                return InMemoryFile(path: name, contents: String(decoding: data, as: UTF8.self))
            }
    }

    /// The package read once: reading 13 MB of definitions is most of an import's time.
    private static let r4Definitions = Result {
        try FHIRPackageReader.read(packageFiles(r4Core), displayRoot: "r4")
    }

    private static func importR4() throws -> (types: [String: JSONValue], files: [InMemoryFile]) {
        let (definitions, readDiagnostics) = try r4Definitions.get()
        XCTAssertEqual(readDiagnostics.all.map(\.description), [])
        let (files, buildDiagnostics) = FHIRSchemaBuilder.build(definitions)
        XCTAssertEqual(buildDiagnostics.all.map(\.description), [])
        let types = try XCTUnwrap(files.first { $0.path == "FHIR/types.json" })
        let parsed = try JSONValue.parse(Data(types.contents.utf8))
        return (try XCTUnwrap(parsed["$defs"]?.objectValue).reduce(into: [:]) { $0[$1.key] = $1.value }, files)
    }

    /// Checks every file in `folder` against the SHA-256 `manifest` lists for it, and returns the files listed.
    private func assertMatchesManifest(_ folder: URL, _ manifest: URL) throws -> Set<String> {
        var listed: [String: String] = [:]
        for line in try String(contentsOf: manifest, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            XCTAssertEqual(parts.count, 2, String(line))
            if parts.count == 2 { listed[String(parts[1])] = String(parts[0]) }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let digest = CryptoPrimitives.sha256(data).map { String(format: "%02x", $0) }.joined()
            XCTAssertEqual(digest, listed[name], name)
        }
        return Set(listed.keys)
    }

    func testTheKeptDefinitionsAndExamplesAreHL7sByteForByte() throws {
        let definitions = try assertMatchesManifest(
            Self.r4Core, Self.r4Core.deletingLastPathComponent().appendingPathComponent("hl7.fhir.r4.core-4.0.1.sha256")
        )
        XCTAssertEqual(definitions, Set(try FileManager.default.contentsOfDirectory(atPath: Self.r4Core.path)))
        XCTAssertEqual(definitions.count, 648)
        let fixtures = Self.repository.appendingPathComponent("Tests/Fixtures/FHIR")
        let examples = try assertMatchesManifest(
            fixtures.appendingPathComponent("hl7.fhir.r4.examples-4.0.1"),
            fixtures.appendingPathComponent("hl7.fhir.r4.examples-4.0.1.sha256"))
        XCTAssertEqual(examples.count, 5_299, "the whole package is listed, including what is not kept")
    }

    func testEveryR4ResourceAndDataTypeBecomesAType() throws {
        let (types, _) = try Self.importR4()
        let union = try XCTUnwrap(types["Resource"]?["oneOf"]?.arrayValue).compactMap {
            $0["$ref"]?.stringValue?.replacingOccurrences(of: "#/$defs/", with: "")
        }
        // HL7's own JSON schema for 4.0.1 lists the same 146 concrete resources in its ResourceList.
        XCTAssertEqual(union.count, 146)
        XCTAssertEqual(union, union.sorted())
        for name in ["Patient", "Observation", "Bundle", "Parameters", "OperationOutcome", "Binary"] {
            XCTAssertTrue(union.contains(name), name)
            XCTAssertEqual(types[name]?["properties"]?["resourceType"]?["const"]?.stringValue, name)
        }
        XCTAssertFalse(union.contains("DomainResource"))
        for name in ["Element", "Extension", "Identifier", "Reference", "Quantity", "Meta", "Narrative", "Dosage"] {
            XCTAssertEqual(types[name]?["type"]?.stringValue, "object", name)
        }
        for name in ["BackboneElement", "DomainResource", "decimal", "string"] { XCTAssertNil(types[name], name) }
        XCTAssertEqual(
            types.count, 871,
            "146 resources, 39 data types and Element, 473 backbone types, 211 code lists and the union")
    }

    func testFHIRsJSONRulesBecomeProperties() throws {
        let (types, _) = try Self.importR4()
        let patient = try XCTUnwrap(types["Patient"]?["properties"])
        // A required binding that can be listed is an open enum of its codes.
        XCTAssertEqual(patient["gender"]?["$ref"]?.stringValue, "#/$defs/AdministrativeGender")
        XCTAssertEqual(
            types["AdministrativeGender"]?["enum"]?.arrayValue?.compactMap(\.stringValue),
            ["male", "female", "other", "unknown"])
        // A primitive has a sibling holding its id and extensions.
        XCTAssertEqual(patient["birthDate"]?["type"]?.stringValue, "string")
        XCTAssertEqual(patient["_birthDate"]?["$ref"]?.stringValue, "#/$defs/Element")
        XCTAssertEqual(patient["_birthDate"]?["x-swift-name"]?.stringValue, "birthDateElement")
        // A choice element is one property per type.
        XCTAssertEqual(patient["deceasedBoolean"]?["type"]?.stringValue, "boolean")
        XCTAssertEqual(patient["deceasedDateTime"]?["type"]?.stringValue, "string")
        XCTAssertNotNil(patient["_deceasedDateTime"])
        XCTAssertNil(patient["deceased"])
        // Repeating elements are arrays; backbone elements are types named after their path.
        XCTAssertEqual(patient["contact"]?["type"]?.stringValue, "array")
        XCTAssertEqual(patient["contact"]?["items"]?["$ref"]?.stringValue, "#/$defs/PatientContact")
        XCTAssertEqual(patient["contained"]?["items"]?["$ref"]?.stringValue, "#/$defs/Resource")
        XCTAssertEqual(types["PatientContact"]?["additionalProperties"], .bool(true))
        // A content reference refers to the type of the element it repeats.
        XCTAssertEqual(
            types["QuestionnaireItem"]?["properties"]?["item"]?["items"]?["$ref"]?.stringValue,
            "#/$defs/QuestionnaireItem")
        // A decimal keeps its text; a resource's required elements are required.
        XCTAssertEqual(types["Quantity"]?["properties"]?["value"]?["format"]?.stringValue, "decimal")
        XCTAssertEqual(
            types["Observation"]?["required"]?.arrayValue?.compactMap(\.stringValue),
            ["resourceType", "status", "code"])
        XCTAssertEqual(
            types["Account"]?["properties"]?["description"]?["x-swift-name"]?.stringValue, "descriptionText")
        // A CodeableConcept keeps its shape under a required binding; no enum is made for it.
        XCTAssertEqual(
            types["Condition"]?["properties"]?["clinicalStatus"]?["$ref"]?.stringValue, "#/$defs/CodeableConcept")
        XCTAssertNil(types["ConditionClinicalStatusCodes"])
        XCTAssertEqual(types["Bundle"]?["properties"]?["entry"]?["items"]?["$ref"]?.stringValue, "#/$defs/BundleEntry")
        XCTAssertEqual(
            types["BundleEntry"]?["properties"]?["resource"]?["$ref"]?.stringValue, "#/$defs/Resource")
    }

    func testTheImportIsTheSameBytesEveryTime() throws {
        let (_, first) = try Self.importR4()
        let (_, second) = try Self.importR4()
        XCTAssertEqual(first, second)
        XCTAssertEqual(
            first.map(\.path),
            [
                "FHIR/BatchOrTransaction.json", "FHIR/Capabilities.json", "FHIR/Read.json", "FHIR/VRead.json",
                "FHIR/protocol.json", "FHIR/types.json",
            ])
    }

    /// `Schemas/FHIR` is what the command writes from the kept package today, so `make generate` builds the FHIR
    /// product from HL7's definitions and not from an edited copy.
    func testTheCommittedFamilyIsTheImportOfTheKeptPackage() throws {
        let (_, files) = try Self.importR4()
        for file in files {
            let committed = try String(
                contentsOf: Self.repository.appendingPathComponent("Schemas").appendingPathComponent(file.path),
                encoding: .utf8)
            XCTAssertTrue(
                committed == file.contents,
                "Schemas/\(file.path) is stale: run swift run HealthSignInSDKGen import-fhir --definitions "
                    + "Schemas/FHIR/HL7/hl7.fhir.r4.core-4.0.1")
        }
        let committed = try FileManager.default.contentsOfDirectory(
            atPath: Self.repository.appendingPathComponent("Schemas/FHIR").path)
        XCTAssertEqual(
            Set(committed.filter { $0.hasSuffix(".json") }.map { "FHIR/" + $0 }), Set(files.map(\.path)))
    }

    /// The imported family is one sdkgen generates, without a warning: exact decimals, a sibling `Element` for each
    /// primitive, the `Resource` union, cycles stored out of line.
    func testTheR4FamilyGenerates() throws {
        let (types, files) = try Self.importR4()
        let output = try GeneratorPipeline.run(files)
        XCTAssertEqual(output.families, ["FHIR"])
        XCTAssertEqual(output.diagnostics.map(\.description), [])
        let typeFiles = output.files.filter { $0.path.hasPrefix("HealthSignInFHIR/Generated/Types/") }
        XCTAssertEqual(typeFiles.count, types.count, "one file per type")
        func source(_ name: String) throws -> String {
            try XCTUnwrap(typeFiles.first { $0.path.hasSuffix("/\(name).swift") }?.contents, name)
        }
        let quantity = try source("Quantity")
        XCTAssertTrue(quantity.contains("public var value: HealthSignInCore.JSONNumber?"), quantity)
        XCTAssertTrue(quantity.contains("public var valueElement: Element?"), quantity)
        let resource = try source("Resource")
        XCTAssertTrue(resource.contains("    indirect case patient(Patient)\n"), resource.prefix(3000).description)
        let indirect = typeFiles.flatMap { file in
            file.contents.split(separator: "\n").filter { $0.contains("@HealthSignInCore.Indirect public var") }.map {
                file.path.split(separator: "/").last.map(String.init)! + ": " + $0.trimmingCharacters(in: .whitespaces)
            }
        }
        // One cycle is broken by value: Reference holds an Identifier, which holds a Reference.
        XCTAssertEqual(indirect, ["Reference.swift: @HealthSignInCore.Indirect public var identifier: Identifier?"])

        // The REST methods read and write every type, so every struct and union has both JSON codecs.
        let declarations = typeFiles.flatMap { file in
            file.contents.split(separator: "\n").filter {
                $0.hasPrefix("public struct ") || $0.hasPrefix("public enum ")
            }
        }
        XCTAssertEqual(declarations.count, types.count)
        let withoutCodecs = declarations.filter { line in
            !line.contains("HealthSignInCore.OpenEnum")
                && !line.contains(": Sendable, Equatable, Decodable, Encodable")
        }
        XCTAssertEqual(withoutCodecs, [])
        let methods = output.files.filter { $0.path.hasPrefix("HealthSignInFHIR/Generated/Methods/") }.map(\.path)
        XCTAssertEqual(
            methods,
            ["BatchOrTransaction", "Capabilities", "Read", "VRead"].map {
                "HealthSignInFHIR/Generated/Methods/\($0).swift"
            })
        let error = try XCTUnwrap(output.files.first { $0.path.hasSuffix("/Errors/FHIROperationOutcomeError.swift") })
        XCTAssertTrue(
            error.contents.contains("FHIROperationOutcomeErrorCode(rawValue: element.code.rawValue)"), error.contents)
        XCTAssertTrue(error.contents.contains("    case unknownIdentity\n"), error.contents)
    }

    // MARK: Packages written here

    private func importPackage(_ files: [String: String]) -> ([InMemoryFile], [String]) {
        let (definitions, readDiagnostics) = FHIRPackageReader.read(
            files.map { InMemoryFile(path: $0.key, contents: $0.value) }, displayRoot: "pkg")
        let (documents, buildDiagnostics) = FHIRSchemaBuilder.build(definitions, family: "Mini", module: "Mini")
        var diagnostics = readDiagnostics
        diagnostics.append(contentsOf: buildDiagnostics)
        return (documents, diagnostics.sorted.map(\.description))
    }

    private func structure(_ type: String, kind: String = "complex-type", _ elements: String) -> String {
        """
        {"resourceType": "StructureDefinition", "type": "\(type)", "kind": "\(kind)", "abstract": false,
         "derivation": "specialization", "description": "The \(type) type. More words.",
         "snapshot": {"element": [{"path": "\(type)", "min": 0, "max": "*"}, \(elements)]}}
        """
    }

    func testASmallPackageBecomesExactlyThisSchema() throws {
        let (documents, diagnostics) = importPackage([
            "Thing.json": structure(
                "Thing", kind: "resource",
                """
                {"path": "Thing.id", "min": 0, "max": "1", "type": [{"code": "http://hl7.org/fhirpath/System.String",
                  "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/structuredefinition-fhir-type",
                  "valueUrl": "id"}]}]},
                {"path": "Thing.size[x]", "short": "How big", "min": 0, "max": "1",
                 "type": [{"code": "decimal"}, {"code": "Part"}]},
                {"path": "Thing.part", "min": 1, "max": "*", "type": [{"code": "BackboneElement"}]},
                {"path": "Thing.part.tag", "min": 0, "max": "*", "type": [{"code": "code"}],
                 "binding": {"strength": "required", "valueSet": "http://example.org/vs|1"}},
                {"path": "Thing.part.part", "min": 0, "max": "*", "contentReference": "#Thing.part"},
                {"path": "Thing.gone", "min": 0, "max": "0", "type": [{"code": "string"}]}
                """),
            "Part.json": structure(
                "Part", #"{"path": "Part.label", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "Element.json": structure(
                "Element", #"{"path": "Element.id", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "vs.json": #"""
            {"resourceType": "ValueSet", "url": "http://example.org/vs", "name": "tag kinds",
             "compose": {"include": [{"system": "http://example.org/cs"}, {"concept": [{"code": "z"}]}]}}
            """#,
            "cs.json": #"""
            {"resourceType": "CodeSystem", "url": "http://example.org/cs", "content": "complete",
             "concept": [{"code": "a", "concept": [{"code": "a1"}]}, {"code": "b"}]}
            """#,
        ])
        XCTAssertEqual(diagnostics, [])
        // Without Bundle, CapabilityStatement and OperationOutcome, only the reads are methods, and they have no error.
        XCTAssertEqual(
            documents.map(\.path), ["Mini/Read.json", "Mini/VRead.json", "Mini/protocol.json", "Mini/types.json"])
        XCTAssertFalse(documents.contains { $0.contents.contains("OperationOutcome") })
        let types = try XCTUnwrap(documents.first { $0.path == "Mini/types.json" }?.contents)
        XCTAssertEqual(
            types,
            """
            {
              "$schema": "../method.schema.json#/$defs/typesFile",
              "description": "Every resource and data type of FHIR, from HL7's StructureDefinitions.",
              "$defs": {
                "Element": {
                  "description": "The Element type.",
                  "type": "object",
                  "properties": {
                    "id": {"description": "Element.id.", "type": "string"},
                    "_id": {"description": "The id and extensions of id.", "$ref": "#/$defs/Element", "x-swift-name": "idElement"}
                  },
                  "additionalProperties": true
                },
                "Part": {
                  "description": "The Part type.",
                  "type": "object",
                  "properties": {
                    "label": {"description": "Part.label.", "type": "string"},
                    "_label": {
                      "description": "The id and extensions of label.",
                      "$ref": "#/$defs/Element",
                      "x-swift-name": "labelElement"
                    }
                  },
                  "additionalProperties": true
                },
                "Thing": {
                  "description": "The Thing type.",
                  "type": "object",
                  "required": ["resourceType", "part"],
                  "properties": {
                    "resourceType": {"const": "Thing"},
                    "id": {"description": "Thing.id.", "type": "string"},
                    "_id": {"description": "The id and extensions of id.", "$ref": "#/$defs/Element", "x-swift-name": "idElement"},
                    "sizeDecimal": {"description": "How big (as decimal).", "type": "number", "format": "decimal"},
                    "_sizeDecimal": {
                      "description": "The id and extensions of sizeDecimal.",
                      "$ref": "#/$defs/Element",
                      "x-swift-name": "sizeDecimalElement"
                    },
                    "sizePart": {"description": "How big (as Part).", "$ref": "#/$defs/Part"},
                    "part": {"description": "Thing.part.", "type": "array", "items": {"$ref": "#/$defs/ThingPart"}}
                  },
                  "additionalProperties": true
                },
                "ThingPart": {
                  "description": "Thing.part.",
                  "type": "object",
                  "properties": {
                    "tag": {"description": "Thing.part.tag.", "type": "array", "items": {"$ref": "#/$defs/TagKinds"}},
                    "_tag": {
                      "description": "The id and extensions of tag.",
                      "type": "array",
                      "items": {"$ref": "#/$defs/Element"},
                      "x-swift-name": "tagElement"
                    },
                    "part": {"description": "Thing.part.part.", "type": "array", "items": {"$ref": "#/$defs/ThingPart"}}
                  },
                  "additionalProperties": true
                },
                "Resource": {
                  "description": "Any resource, told apart by its resourceType.",
                  "oneOf": [{"$ref": "#/$defs/Thing"}],
                  "discriminator": {"propertyName": "resourceType"}
                },
                "TagKinds": {
                  "description": "The codes of the value set http://example.org/vs.",
                  "type": "string",
                  "enum": ["a", "a1", "b", "z"]
                }
              }
            }

            """)
    }

    func testTheCommandRemovesTheSchemaFilesItNoLongerWritesAndKeepsFolders() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let package = root.appendingPathComponent("package")
        let family = root.appendingPathComponent("Schemas/Mini")
        try FileManager.default.createDirectory(at: package, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: family.appendingPathComponent("HL7"), withIntermediateDirectories: true)
        try structure("Element", #"{"path": "Element.id", "min": 0, "max": "1", "type": [{"code": "string"}]}"#)
            .write(to: package.appendingPathComponent("Element.json"), atomically: true, encoding: .utf8)
        for kept in ["HL7/definitions.json", "README.md"] {
            try "{}".write(to: family.appendingPathComponent(kept), atomically: true, encoding: .utf8)
        }
        // A method an earlier import wrote, under a name the import no longer gives it.
        try "{}".write(to: family.appendingPathComponent("Transaction.json"), atomically: true, encoding: .utf8)
        func run(check: Bool) -> (status: Int32, output: [String]) {
            var output: [String] = []
            let status = FHIRImportCommand.run(
                definitions: package.path, schemas: root.appendingPathComponent("Schemas").path, family: "Mini",
                module: "Mini", check: check, report: { output.append($0) }, complain: { output.append($0) })
            return (status, output)
        }
        XCTAssertEqual(run(check: true).status, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: family.appendingPathComponent("Transaction.json").path))
        XCTAssertEqual(run(check: false).status, 0)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: family.path).sorted(),
            ["HL7", "README.md", "Read.json", "VRead.json", "protocol.json", "types.json"])
        XCTAssertEqual(run(check: true).status, 0, "the import is now up to date")
    }

    func testAMalformedPackageIsLocatedDiagnosticsNotACrash() throws {
        let (documents, diagnostics) = importPackage([
            "a.json": "{\"resourceType\": \"StructureDefinition\"",
            "b.json": structure("Bad", #"{"path": "Other.x", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "c.json": structure("Worse", #"{"path": "Worse.x", "min": -1, "max": "1", "type": [{"code": "string"}]}"#),
            "d.json": structure("Odd", #"{"path": "Odd.x", "min": 0, "max": "lots", "type": [{"code": "../x"}]}"#),
            "e.json": structure("Lost", #"{"path": "Lost.x", "min": 0, "max": "1", "type": [{"code": "Nowhere"}]}"#),
            "f.json": structure("Loop", ##"{"path": "Loop.x", "min": 0, "max": "1", "contentReference": "#Other.y"}"##),
            "g.json": structure("Twice", #"{"path": "Twice.x", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "h.json": structure("Twice", #"{"path": "Twice.y", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "i.json": structure("Empty", #"{"path": "Empty.x", "min": 0, "max": "1"}"#),
            "j.json": structure(
                "Clash",
                #"{"path": "Clash.part", "min": 0, "max": "1", "type": [{"code": "BackboneElement"}]},"#
                    + #"{"path": "Clash.part.x", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "k.json": structure(
                "ClashPart", #"{"path": "ClashPart.y", "min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "l.json": structure("Not a name", #"{"path": "X.y", "min": 0, "max": "1"}"#),
            "m.json": #"{"resourceType": "StructureDefinition", "type": "Bare", "kind": "complex-type"}"#,
            "n.json": #"""
            {"resourceType": "StructureDefinition", "type": "Headless", "kind": "complex-type",
             "snapshot": {"element": [{"path": "Headless.x", "min": 0, "max": "1", "type": [{"code": "string"}]}]}}
            """#,
            "o.json": structure("Pathless", #"{"min": 0, "max": "1", "type": [{"code": "string"}]}"#),
            "p.json": structure(
                "Codeless", #"{"path": "Codeless.x", "min": 0, "max": "1", "type": [{"profile": []}]}"#),
            "q.json": structure("Dotted", #"{"path": "Dotted.x", "min": 0, "max": "1", "type": [{"code": "../x"}]}"#),
        ])
        XCTAssertEqual(
            diagnostics,
            [
                "pkg/a.json:1:39: error: malformed JSON: unexpected end of file, expected ',' or '}'",
                "pkg/b.json:3:66: error: the element path Other.x is not Bad followed by element names, expected a path such as Bad.name [at /snapshot/element/1]",
                "pkg/c.json:3:95: error: min is -1, expected an integer from 0 to 1000 [at /snapshot/element/1/min]",
                "pkg/d.json:3:101: error: max is lots, expected * or a non-negative integer [at /snapshot/element/1/max]",
                "pkg/e.json:3:67: error: the element Lost.x has the type Nowhere, which the package does not define as a concrete type, expected a data type or resource [at /snapshot/element/1]",
                "pkg/f.json:3:67: error: contentReference #Other.y does not name an element of Loop, expected #Loop.path [at /snapshot/element/1]",
                "pkg/h.json:1:1: error: the type Twice is defined again, expected one definition (the first is in pkg/g.json) [at /]",
                "pkg/i.json:3:68: error: the element Empty.x has no type, expected a type code, children or a content reference [at /snapshot/element/1]",
                "pkg/k.json:3:27: error: the element ClashPart becomes the type ClashPart, as Clash.part does, expected one element per type name [at /snapshot/element/0]",
                "pkg/l.json:1:1: error: the StructureDefinition's type is missing or not a FHIR type name, expected a name such as Patient [at /]",
                "pkg/m.json:1:1: error: Bare has no snapshot elements, expected snapshot.element with the type's elements [at /]",
                "pkg/n.json:2:26: error: the first snapshot element of Headless is not Headless, expected the type's own element first [at /snapshot/element]",
                "pkg/o.json:3:71: error: an element has no path, expected a string path [at /snapshot/element/1]",
                "pkg/p.json:3:125: error: a type has no code, expected a string code [at /snapshot/element/1/type/0]",
                "pkg/q.json:3:121: error: the type code ../x is not a FHIR type name, expected a name such as HumanName or string [at /snapshot/element/1/type/0]",
            ])
        let templates = try DiagnosticTemplates.all(
            in: Fixtures.repository.appendingPathComponent("Generator/Core/Import"))
        XCTAssertGreaterThan(templates.count, 3, "the importer's diagnostics were found")
        for template in templates where !diagnostics.contains(where: template.matches) {
            XCTFail("no case reports \(template.site): \(template.text)")
        }
        XCTAssertEqual(documents.count, 4, "protocol.json, types.json, and Read and VRead, which need no type by name")
    }
}
