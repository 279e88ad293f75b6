import XCTest

@testable import HealthSignInGenerator

/// What the resolver makes of small schemas, asserted on the IR values themselves.
final class ResolverTests: XCTestCase {
    // MARK: - Helpers

    private static let protocolFile = """
        {"family": "Demo", "description": "A demo family.",
         "binding": {"http": {"authPolicies": ["none"]}},
         "servers": {"api": {"description": "The API.", "default": "https://api.example.com"}},
         "errors": {"DemoError": {"description": "An error body.", "body": {"$ref": "types.json#/$defs/ErrorBody"},
             "code": ["/code"]}}}
        """

    /// An http method `Op` with the given request and response schemas.
    private static func method(request: String, response: String, body: String = "json") -> String {
        """
        {"name": "Op", "description": "An operation.",
         "binding": {"http": {"method": "POST", "server": "api", "path": "/op", "body": "\(body)", "auth": "none",
                              "response": "json", "errors": ["DemoError"]}},
         "request": \(request), "response": \(response)}
        """
    }

    /// Resolves family `Demo` from `types` (the `$defs` of types.json) and `Op.json`.
    private func resolve(types: String, method: String) throws -> (IRFamily?, Diagnostics) {
        let errorBody = #""ErrorBody": {"type": "object", "properties": {"code": {"type": "string"}}}"#
        let typesFile = #"{"$defs": {"# + errorBody + (types.isEmpty ? "" : ", " + types) + "}}"
        let inputs = [
            InMemoryFile(path: "Demo/protocol.json", contents: Self.protocolFile),
            InMemoryFile(path: "Demo/types.json", contents: typesFile),
            InMemoryFile(path: "Demo/Op.json", contents: method),
        ]
        let (documents, loadDiagnostics) = GeneratorPipeline.load(inputs)
        XCTAssertFalse(loadDiagnostics.hasErrors, loadDiagnostics.text)
        let (module, diagnostics) = GeneratorPipeline.resolve(documents)
        return (module.families.first, diagnostics)
    }

    /// Resolves and expects no diagnostics.
    private func family(types: String, method: String) throws -> IRFamily {
        let (family, diagnostics) = try resolve(types: types, method: method)
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.text)
        return try XCTUnwrap(family)
    }

    private func name(_ qualified: String) -> IRTypeName { IRTypeName(qualified) }
}

extension Diagnostics {
    /// Every diagnostic, one per line, for assertion messages.
    fileprivate var text: String { all.map(\.description).joined(separator: "\n") }
}

extension ResolverTests {

    // MARK: - References and declarations

    func testReferencesAreNamesFollowedThroughTheTable() throws {
        let family = try family(
            types:
                ##""Alias": {"$ref": "#/$defs/Record"}, "Record": {"type": "object", "properties": {"id": {"type": "string"}}}"##,
            method: Self.method(request: #"{"$ref": "types.json#/$defs/Alias"}"#, response: #"{"type": "object"}"#))
        let table = family.typeTable

        XCTAssertEqual(family.types, [name("ErrorBody"), name("Alias"), name("Record")])
        XCTAssertEqual(table[name("Alias")]?.kind, .alias(.named(name("Record"))))
        XCTAssertEqual(table[name("Op.Request")]?.kind, .alias(.named(name("Alias"))))
        XCTAssertEqual(table.resolved(.named(name("Op.Request"))), .named(name("Record")))
        XCTAssertEqual(family.requestType(of: try XCTUnwrap(family.methods.first))?.qualifiedName, name("Record"))
        XCTAssertEqual(
            family.methods.first?.namespaceTypes, [name("Op.Request"), name("Op.Response")])
    }

    func testInlineSchemasBecomeNestedTypesOfTheirOwner() throws {
        let request = """
            {"type": "object", "required": ["kind"], "properties": {
                "kind": {"enum": ["first-kind", "second"]},
                "items": {"type": "array", "items": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}
            """
        let family = try family(types: "", method: Self.method(request: request, response: #"{"type": "object"}"#))
        let table = family.typeTable
        let requestType = try XCTUnwrap(table[name("Op.Request")])

        XCTAssertEqual(requestType.nestedTypes, [name("Op.Request.Kind"), name("Op.Request.Items")])
        XCTAssertEqual(
            requestType.properties.map(\.type),
            [.named(name("Op.Request.Kind")), .array(.named(name("Op.Request.Items")))])
        XCTAssertEqual(
            table[name("Op.Request.Kind")]?.kind,
            .enumeration([
                IREnumCase(wireValue: "first-kind", swiftName: "firstKind"),
                IREnumCase(wireValue: "second", swiftName: "second"),
            ]))
        XCTAssertEqual(table[name("Op.Request.Items")]?.parent, name("Op.Request"))
        XCTAssertEqual(table[name("Op.Request.Items")]?.properties.map(\.type), [.scalar(.int, sensitive: false)])
    }

    func testARecursiveTypeRefersToItselfByName() throws {
        let node =
            ##""Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}"##
        let family = try family(
            types: node,
            method: Self.method(request: #"{"type": "object"}"#, response: #"{"$ref": "types.json#/$defs/Node"}"#))
        let nodeType = try XCTUnwrap(family.typeTable[name("Node")])
        XCTAssertEqual(nodeType.properties.map(\.type), [.array(.named(name("Node")))])
        XCTAssertEqual(nodeType.json, [.decode])
        XCTAssertTrue(family.typeTable.hasEmptyInitializer(nodeType))
    }

    // MARK: - Whole-family analysis

    func testCodecDirectionsFollowUse() throws {
        let shared = #""Shared": {"type": "object", "properties": {"note": {"type": "string"}}}"#
        let holder = #"{"type": "object", "properties": {"shared": {"$ref": "types.json#/$defs/Shared"}}}"#
        let family = try family(types: shared, method: Self.method(request: holder, response: holder))
        let table = family.typeTable

        XCTAssertEqual(table[name("Op.Request")]?.json, [.encode])
        XCTAssertEqual(table[name("Op.Response")]?.json, [.decode])
        XCTAssertEqual(table[name("Shared")]?.json, [.decode, .encode])
        XCTAssertEqual(table[name("ErrorBody")]?.json, [.decode])
        for type in table.types(family.types) { XCTAssertEqual(type.xml, [], type.name) }
        XCTAssertEqual(table[name("Op.Request")]?.needsHTTPFields, true)
        XCTAssertEqual(table[name("Op.Response")]?.needsHTTPFields, false)
    }

    func testSensitivityAndFixedObjectsAreSettled() throws {
        let request = """
            {"type": "object", "properties": {
                "secrets": {"type": "array", "items": {"type": "object", "properties": {
                    "token": {"type": "string", "sensitive": true}}}},
                "marker": {"type": "object", "properties": {"kind": {"const": "fixed"}}}}}
            """
        let family = try family(types: "", method: Self.method(request: request, response: #"{"type": "object"}"#))
        let table = family.typeTable

        XCTAssertEqual(table[name("Op.Request.Secrets")]?.holdsSensitive, true)
        XCTAssertEqual(table[name("Op.Request")]?.holdsSensitive, true)
        XCTAssertEqual(table[name("Op.Request.Marker")]?.holdsSensitive, false)
        XCTAssertEqual(table[name("Op.Request")]?.properties.map(\.storage), [.stored, .fixed])
        XCTAssertEqual(
            table[name("Op.Request.Secrets")]?.properties.first?.type, .scalar(.string, sensitive: true))
    }

    func testTheSameSchemasResolveToEqualValues() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Schemas")
        let inputs = try FileManager.default.subpathsOfDirectory(atPath: root.path).sorted()
            .filter { $0.hasSuffix(".json") && $0.contains("/") }
            .map {
                InMemoryFile(
                    path: $0, contents: try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))
            }
        let (documents, _) = GeneratorPipeline.load(inputs)
        let (first, diagnostics) = GeneratorPipeline.resolve(documents)
        XCTAssertFalse(diagnostics.hasErrors, diagnostics.text)
        XCTAssertEqual(
            first.families.map(\.name),
            ["FHIR", "HealthVault", "Koppeltaal", "Koppeltaal2", "OAuth2", "SMART", "Vital"])
        // Values cross tasks as they are: the IR is Sendable.
        let second = await Task.detached { GeneratorPipeline.resolve(documents).0 }.value
        XCTAssertEqual(first, second)
        // The table holds exactly the types the families declare, nested ones included, and the other families'
        // types they use.
        for family in first.families {
            let declared = family.typeTable.names.filter { family.typeTable[$0]?.isImported == false }
            XCTAssertEqual(declared.count, TypeAnalysis(family: family).allTypes.count, family.name)
        }
    }

    // MARK: - Names

    func testTwoTypesWithOneQualifiedNameAreReported() throws {
        let request = """
            {"type": "object", "properties": {
                "first": {"type": "object", "x-swift-name": "Part", "properties": {"a": {"type": "string"}}},
                "part": {"type": "object", "properties": {"b": {"type": "string"}}}}}
            """
        let (_, diagnostics) = try resolve(
            types: "", method: Self.method(request: request, response: #"{"type": "object"}"#))
        XCTAssertTrue(
            diagnostics.text.contains("a second type is named Op.Request.Part"), diagnostics.text)
    }

    func testAnAliasCycleIsReportedRatherThanFollowedForever() throws {
        let (_, diagnostics) = try resolve(
            types: ##""A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}"##,
            method: Self.method(request: #"{"$ref": "types.json#/$defs/A"}"#, response: #"{"type": "object"}"#))
        XCTAssertTrue(diagnostics.text.contains("contains itself"), diagnostics.text)
    }
}
