import Foundation
import HealthSignInTestSupport
import XCTest

/// An error's `code` pointer may lead to an enum of the body's own (as FHIR's `OperationOutcome.issue.code` is one):
/// the error's code table reads the enum's string, so a code only one of them lists still arrives.
final class EnumErrorCodeTests: XCTestCase {
    private static let files: [String: String] = [
        "protocol.json": """
        {"family": "Desk", "description": "A help desk.",
         "binding": {"http": {"authPolicies": ["none"]}},
         "servers": {"api": {"description": "The API.", "default": "https://desk.example"}},
         "errors": {"DeskError": {
           "description": "A list of problems.", "body": {"$ref": "types.json#/$defs/Problems"}, "encodings": ["json"],
           "code": ["/issue/*/kind"], "message": ["/issue/0/text"],
           "codes": [{"value": "busy", "name": "busy", "recovery": "retryLater"},
                     {"value": "gone", "name": "gone"}]}}}
        """,
        "types.json": """
        {"$defs": {
          "Problems": {"type": "object", "required": ["issue"], "properties": {
            "issue": {"type": "array", "items": {"$ref": "#/$defs/Problem"}}}},
          "Problem": {"type": "object", "required": ["kind"], "properties": {
            "kind": {"$ref": "#/$defs/Kind"}, "text": {"type": "string"}}},
          "Kind": {"type": "string", "enum": ["busy", "broken"]}
        }}
        """,
        "Ping.json": """
        {"name": "Ping", "description": "Asks.",
         "binding": {"http": {"method": "GET", "server": "api", "path": "/ping", "auth": "none",
                              "errors": ["DeskError"]}},
         "response": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}
        """,
    ]

    private static let main = #"""
        import Foundation
        @_spi(Generated) import HealthSignInCore

        func check(_ condition: Bool, _ message: String) {
            if !condition { print("FAILED: " + message); exit(1) }
        }

        let text = #"{"issue":[{"kind":"broken","text":"down"},{"kind":"busy"},{"kind":"gone"}]}"#
        let body = try JSONCoding.decode(Problems.self, from: Data(text.utf8))
        let error = DeskError(body: body, origin: ServerErrorOrigin(httpStatus: 503, operation: "Ping"))
        check(error.codes == [.unknown("broken"), .busy, .gone], "\(error.codes)")
        check(error.code == .unknown("broken"), "the first code")
        check(error.message == "down", "the message")
        print("OK")
        """#

    func testACodeFieldThatIsAnEnumIsReadAsItsString() throws {
        let program = try GeneratedProgram(family: "Desk", files: Self.files)
        defer { program.remove() }
        XCTAssertEqual(program.generation.status, 0, program.generation.output)
        let error = try program.source("Errors/DeskError.swift")
        XCTAssertTrue(error.contains("DeskErrorCode(rawValue: element.kind.rawValue)"), error)

        try program.assertRunsOK(main: Self.main)
    }
}
