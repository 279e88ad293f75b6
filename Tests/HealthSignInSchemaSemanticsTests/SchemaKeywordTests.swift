import HealthSignInSchemaSemantics
import XCTest

/// The keywords and instance equality the generator and the runtime both evaluate through this module.
final class SchemaKeywordTests: XCTestCase {
    /// A JSON value for the tests, as any holder of one would adopt `SchemaInstance`.
    private indirect enum Value: SchemaInstance {
        case null
        case bool(Bool)
        case number(String)
        case string(String)
        case array([Value])
        case object([(String, Value)])

        var schemaShape: SchemaInstanceShape<Value> {
            switch self {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .number(let text): return .number(text: text)
            case .string(let text): return .string(text)
            case .array(let items): return .array(items)
            case .object(let members): return .object(members.map { ($0.0, $0.1) })
            }
        }
    }

    func testEachNumericKeywordHoldsAtItsBoundAndFailsBeyondIt() throws {
        let cases: [(SchemaKeyword, holds: String, fails: String)] = [
            (.minimum("1"), "1.0", "0.99"), (.maximum("1e1"), "10", "10.5"), (.exclusiveMinimum("0"), "1e-9", "0"),
            (.exclusiveMaximum("-1"), "-2", "-1"), (.multipleOf("0.1"), "0.3", "0.35"),
        ]
        for (keyword, holds, fails) in cases {
            XCTAssertNil(keyword.violation(by: Value.number(holds)), "\(keyword) \(holds)")
            XCTAssertEqual(keyword.violation(by: Value.number(fails)), keyword.requirement, "\(keyword) \(fails)")
            // A keyword about numbers says nothing about a string, as JSON Schema has it.
            XCTAssertNil(keyword.violation(by: Value.string(fails)))
        }
        XCTAssertFalse(
            SchemaKeyword.minimum("not a number").accepts(number: try XCTUnwrap(DecimalNumber(jsonText: "1"))))
    }

    func testStringsCountAndMatchCodePoints() throws {
        XCTAssertNil(SchemaKeyword.maxLength(2).violation(by: Value.string("e\u{301}")))
        XCTAssertEqual(SchemaKeyword.maxLength(1).violation(by: Value.string("e\u{301}")), "at most 1 characters long")
        XCTAssertNil(SchemaKeyword.minLength(1).violation(by: Value.string("😀")))
        XCTAssertNil(SchemaKeyword.pattern("b+").violation(by: Value.string("abbc")))
        XCTAssertEqual(SchemaKeyword.pattern("^b").violation(by: Value.string("ab")), "a match of the pattern ^b")
        let compiled = try ECMAPattern("^a")
        XCTAssertTrue(try SchemaKeyword.pattern("^a").accepts(string: "ab", compiled: compiled))
    }

    func testItemsAreCountedAndComparedAsJSON() {
        XCTAssertEqual(SchemaKeyword.minItems(2).violation(by: Value.array([.null])), "at least 2 items")
        XCTAssertNil(SchemaKeyword.maxItems(1).violation(by: Value.array([.null])))
        let repeated = Value.array([
            .object([("a", .number("1")), ("b", .bool(true))]), .string("x"),
            .object([("b", .bool(true)), ("a", .number("1.0"))]),
        ])
        XCTAssertEqual(SchemaKeyword.uniqueItems.violation(by: repeated), "free of repeated items (item 2)")
        XCTAssertNil(SchemaKeyword.uniqueItems.violation(by: Value.array([.string("a\u{308}"), .string("ä")])))
    }

    func testInstanceEquality() {
        XCTAssertTrue(Value.number("1").isSchemaEqual(to: .number("1.0e0")))
        XCTAssertFalse(Value.number("1").isSchemaEqual(to: .string("1")))
        XCTAssertFalse(Value.array([.null]).isSchemaEqual(to: .array([.null, .null])))
        // A repeated member name counts by its last member.
        XCTAssertTrue(
            Value.object([("a", .number("1")), ("a", .number("2"))]).isSchemaEqual(to: .object([("a", .number("2"))])))
        XCTAssertFalse(Value.object([("a", .null)]).isSchemaEqual(to: .object([("a", .null), ("b", .null)])))
    }

    func testTheIntegerTestReadsTheValueNotTheSpelling() {
        XCTAssertEqual(JSONIntegerValue("1.50e1").value(as: Int.self), 15)
        XCTAssertEqual(JSONIntegerValue("-0.0").value(as: UInt8.self), 0)
        XCTAssertFalse(JSONIntegerValue("1.5").isInteger)
        XCTAssertTrue(JSONIntegerValue("1e400").isInteger)
        XCTAssertNil(JSONIntegerValue("1e400").value(as: Int64.self))
        XCTAssertEqual(JSONIntegerValue("-9223372036854775808").value(as: Int64.self), Int64.min)
        XCTAssertNil(JSONIntegerValue("-1").value(as: UInt64.self))
    }
}
