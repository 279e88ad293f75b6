import Foundation
import HealthSignInTestSupport
import XCTest

/// Types that hold each other through optional properties, as FHIR's Identifier (its assigner, a Reference) and
/// Reference (its identifier) do: sdkgen stores one property of each cycle out of line, and the generated Swift
/// compiles, reads, compares and writes as any other type.
final class RecursionTests: XCTestCase {
    private static let files: [String: String] = [
        "protocol.json": """
        {"family": "Chain", "description": "Types that hold each other.",
         "binding": {"http": {"authPolicies": ["none"]}},
         "servers": {"api": {"description": "The API.", "default": "https://chain.example"}}}
        """,
        "types.json": """
        {"$defs": {
          "Identifier": {"type": "object", "properties": {
            "value": {"type": "string"}, "assigner": {"$ref": "#/$defs/Reference"}}},
          "Reference": {"type": "object", "required": ["identifier"], "properties": {
            "display": {"type": "string"}, "identifier": {"$ref": "#/$defs/Identifier"}}},
          "Node": {"type": "object", "required": ["name"], "properties": {
            "name": {"type": "string"}, "next": {"$ref": "#/$defs/Node"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}
        }}
        """,
        "Get.json": """
        {"name": "Get", "description": "Reads a chain.",
         "binding": {"http": {"method": "GET", "server": "api", "path": "/chain", "auth": "none", "response": "json"}},
         "response": {"type": "object", "properties": {
           "node": {"$ref": "types.json#/$defs/Node"}, "identifier": {"$ref": "types.json#/$defs/Identifier"}}}}
        """,
        "Put.json": """
        {"name": "Put", "description": "Writes a chain.",
         "binding": {"http": {"method": "POST", "server": "api", "path": "/chain", "auth": "none", "body": "json"}},
         "request": {"type": "object", "properties": {
           "node": {"$ref": "types.json#/$defs/Node"}, "identifier": {"$ref": "types.json#/$defs/Identifier"}}}}
        """,
    ]

    private static let main = #"""
        import Foundation
        @_spi(Generated) import HealthSignInCore

        func check(_ condition: Bool, _ message: String) {
            if !condition { print("FAILED: " + message); exit(1) }
        }

        let text = #"{"identifier":{"assigner":{"display":"A","identifier":{"assigner":{"identifier":{"value":"3"}},"value":"2"}},"value":"1"},"node":{"name":"a","next":{"children":[{"name":"c"}],"name":"b","next":{"name":"z"}}}}"#
        let read = try JSONCoding.decode(Get.Response.self, from: Data(text.utf8))
        check(read.identifier?.assigner?.identifier.assigner?.identifier.value == "3", "three levels of identifiers")
        check(read.node?.next?.next?.name == "z" && read.node?.next?.children.first?.name == "c", "nodes")
        let identifierText = #"{"assigner":{"display":"A","identifier":{"assigner":{"identifier":{"value":"3"}},"value":"2"}},"value":"1"}"#
        let nodeText = #"{"name":"a","next":{"children":[{"name":"c"}],"name":"b","next":{"name":"z"}}}"#
        check(text == #"{"identifier":"# + identifierText + #","node":"# + nodeText + "}", "the parts make the whole")
        if let identifier = read.identifier, let node = read.node {
            check(String(decoding: try JSONCoding.encode(identifier), as: UTF8.self) == identifierText, "identifier written back")
            check(String(decoding: try JSONCoding.encode(node), as: UTF8.self) == nodeText, "node written back")
        } else {
            check(false, "both read")
        }

        // A copy is a value: changing it leaves the original as it was.
        var copy = read
        copy.identifier?.assigner?.identifier.value = "changed"
        check(read.identifier?.assigner?.identifier.value == "2", "the original kept its value")
        check(copy != read && copy.identifier?.assigner?.identifier.value == "changed", "the copy changed")
        copy.identifier?.assigner?.identifier.value = "2"
        check(copy == read, "equal again")
        let built = Node(name: "a", next: Node(name: "b", next: Node(name: "c")))
        check(built == built && built != Node(name: "a") && built.next?.next?.name == "c", "built by value")
        print("OK")
        """#

    func testTypesHoldingEachOtherThroughOptionalsCompileAndRoundTrip() throws {
        let program = try GeneratedProgram(family: "Chain", files: Self.files)
        defer { program.remove() }
        XCTAssertEqual(program.generation.status, 0, program.generation.output)
        let identifier = try program.source("Types/Identifier.swift")
        let reference = try program.source("Types/Reference.swift")
        let node = try program.source("Types/Node.swift")
        // One property per cycle is out of line: the optional one, never the array.
        XCTAssertTrue(identifier.contains("@HealthSignInCore.Indirect public var assigner: Reference?"), identifier)
        XCTAssertFalse(reference.contains("@HealthSignInCore.Indirect"), reference)
        XCTAssertTrue(node.contains("@HealthSignInCore.Indirect public var next: Node?"), node)
        XCTAssertTrue(node.contains("public var children: [Node]"), node)

        try program.assertRunsOK(main: Self.main)
    }
}
