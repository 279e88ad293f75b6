import Foundation
import HealthSignInTestSupport
import XCTest

/// `"format": "decimal"`, as FHIR's decimals use it: numbers read, compared and written back exactly as written.
final class DecimalFormatTests: XCTestCase {
    private static let files: [String: String] = [
        "protocol.json": """
        {"family": "Ledger", "description": "Exact amounts.",
         "binding": {"http": {"authPolicies": ["none"]}},
         "servers": {"api": {"description": "The API.", "default": "https://ledger.example"}}}
        """,
        "types.json": """
        {"$defs": {
          "Measure": {"type": "object", "required": ["amount"], "properties": {
            "amount": {"type": "number", "format": "decimal"},
            "list": {"type": "array", "items": {"type": "number", "format": "decimal"}},
            "map": {"type": "object", "additionalProperties": {"type": "number", "format": "decimal"}},
            "scale": {"type": "number", "format": "decimal", "default": 2.50},
            "positive": {"type": "number", "format": "decimal", "exclusiveMinimum": 0, "multipleOf": 0.01}}}
        }}
        """,
        "Put.json": """
        {"name": "Put", "description": "Writes a measure.",
         "binding": {"http": {"method": "POST", "server": "api", "path": "/measure", "auth": "none", "body": "json",
                              "response": "json"}},
         "request": {"$ref": "types.json#/$defs/Measure"},
         "response": {"$ref": "types.json#/$defs/Measure"}}
        """,
    ]

    private static let main = #"""
        import Foundation
        @_spi(Generated) import HealthSignInCore

        func check(_ condition: Bool, _ message: String) {
            if !condition { print("FAILED: " + message); exit(1) }
        }

        let text = #"{"amount":12345678901234567890.123456789,"list":[1e-7,3.0,-0,1E+2],"map":{"a":100.000},"positive":0.10}"#
        let read = try JSONCoding.decode(Measure.self, from: Data(text.utf8))
        check(read.amount.text == "12345678901234567890.123456789", "digits beyond a Double's")
        check(read.list.map(\.text) == ["1e-7", "3.0", "-0", "1E+2"], "each number's spelling")
        check(read.map?["a"]?.text == "100.000", "a map's values")
        check(read.scale == nil, "a default is not read into an absent member")
        check(Measure(amount: 1).scale?.text == "2.50", "the initializer's default, as the schema wrote it")
        let written = String(decoding: try JSONCoding.encode(read), as: UTF8.self)
        check(written == #"{"amount":12345678901234567890.123456789,"list":[1e-7,3.0,-0,1E+2],"map":{"a":100.000},"positive":0.10}"#, written)

        try read.validate(at: "")
        for (bad, requirement) in [("-0.5", "more than 0"), ("0", "more than 0"), ("0.015", "a multiple of 0.01")] {
            let measure = Measure(amount: 1, positive: JSONNumber(bad))
            do {
                try measure.validate(at: "")
                check(false, bad + " was accepted")
            } catch {
                check("\(error)".contains(requirement), "\(bad): \(error)")
            }
        }
        try Measure(amount: 1, positive: JSONNumber("1e-2")).validate(at: "")

        do {
            _ = try JSONCoding.decode(Measure.self, from: Data(#"{"amount":"1.5"}"#.utf8))
            check(false, "a string read as a decimal")
        } catch {
            check("\(error)" == "amount: expected number, found a string", "\(error)")
        }
        print("OK")
        """#

    func testDecimalsAreReadComparedAndWrittenAsWritten() throws {
        let program = try GeneratedProgram(family: "Ledger", files: Self.files)
        defer { program.remove() }
        XCTAssertEqual(program.generation.status, 0, program.generation.output)
        let measure = try program.source("Types/Measure.swift")
        XCTAssertTrue(measure.contains("public var amount: HealthSignInCore.JSONNumber"), measure)
        XCTAssertTrue(measure.contains(#"HealthSignInCore.JSONNumber(literal: "2.50")"#), measure)

        try program.assertRunsOK(main: Self.main)
    }
}
