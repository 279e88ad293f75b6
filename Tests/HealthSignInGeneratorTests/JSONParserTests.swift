import XCTest

@testable import HealthSignInGenerator

final class JSONParserTests: XCTestCase {
    private func parse(_ text: String) -> (JSONNode?, [String]) {
        var diagnostics = Diagnostics()
        let node = JSONParser.parse(text, file: "f.json", diagnostics: &diagnostics)
        return (node, diagnostics.all.map(\.description))
    }

    func testPositionsAndPointers() throws {
        let (node, diagnostics) = parse("{\n  \"a\": [1, {\"b/c\": \"é\"}],\n  \"d\": null\n}")
        XCTAssertEqual(diagnostics, [])
        let inner = try XCTUnwrap(node?["a"]?.elements?[1]["b/c"])
        XCTAssertEqual(inner.stringValue, "é")
        XCTAssertEqual(inner.pointer, "/a/1/b~1c")
        XCTAssertEqual(inner.location.line, 2)
        XCTAssertEqual(inner.location.column, 20)
        XCTAssertEqual(node?["a"]?.location.column, 8)
    }

    func testLocationsOnOneLongLineAndAfterIt() throws {
        // HL7's definitions are written on one line: every node there is located from where the last one was.
        let items = (0..<2_000).map { "{\"k\": \"é\($0)\"}" }.joined(separator: ",")
        let (node, diagnostics) = parse("[" + items + "]\n")
        XCTAssertEqual(diagnostics, [])
        let elements = try XCTUnwrap(node?.elements)
        var column = 2
        for (index, element) in elements.enumerated() {
            XCTAssertEqual(element.location.line, 1)
            XCTAssertEqual(element.location.column, column, "element \(index)")
            XCTAssertEqual(element["k"]?.location.column, column + 6, "element \(index)")
            column += "{\"k\": \"é\(index)\"},".count
        }
        let (second, _) = parse("[{\"a\": 1},\n  {\"b\": 2}]")
        XCTAssertEqual(second?.elements?[1].location.line, 2)
        XCTAssertEqual(second?.elements?[1].location.column, 3)
        XCTAssertEqual(second?.elements?[1]["b"]?.location.column, 9)
    }

    func testMalformedInputIsADiagnosticWithLineAndColumn() {
        let cases: [(String, String)] = [
            ("{\"a\": 1,}", "f.json:1:9: error: malformed JSON: unexpected '}', expected a string key"),
            ("[1 2]", "f.json:1:4: error: malformed JSON: unexpected '2', expected ',' or ']'"),
            (
                "{\"a\": \"x\n\"}",
                "f.json:1:9: error: malformed JSON: control character inside a string, expected it escaped"
            ),
            ("", "f.json:1:1: error: malformed JSON: unexpected end of file, expected a value"),
            (
                "{} x",
                "f.json:1:4: error: malformed JSON: unexpected 'x' after the JSON value, expected the end of the file"
            ),
            ("\"\\ud800\"", "f.json:1:8: error: malformed JSON: unpaired surrogate in \\u escape"),
            (
                "01",
                "f.json:1:2: error: malformed JSON: unexpected '1' after the JSON value, expected the end of the file"
            ),
        ]
        for (text, expected) in cases {
            let (node, diagnostics) = parse(text)
            XCTAssertNil(node, text)
            XCTAssertEqual(diagnostics, [expected], text)
        }
    }

    func testDeepNestingIsRefusedNotACrash() {
        let (node, diagnostics) = parse(String(repeating: "[", count: 10_000))
        XCTAssertNil(node)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(diagnostics[0].contains("nesting deeper than 256 levels"), diagnostics[0])
    }

    func testEscapesAndNumbers() throws {
        let (node, _) = parse(#"{"s": "\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "i": -12, "f": 1.5e3}"#)
        XCTAssertEqual(node?["s"]?.stringValue, "\"\\/\u{08}\u{0C}\n\r\té😀")
        XCTAssertEqual(node?["i"]?.kindName, "integer")
        XCTAssertEqual(node?["f"]?.kindName, "number")
    }
}
