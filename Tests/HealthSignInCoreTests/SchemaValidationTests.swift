import Foundation
@_spi(Generated) import HealthSignInCore
import XCTest

/// The checks generated `validate(at:)` methods run, with JSON Schema 2020-12's meanings: numbers compared and
/// divided by their decimal value, lengths in code points, patterns as ECMA-262 reads them.
final class SchemaValidationTests: XCTestCase {
    func testEachCheckPassesAtItsBoundAndFailsBeyondIt() {
        XCTAssertNoThrow(try RequestValidation.minimum(1, "1", at: "/a"))
        XCTAssertThrowsError(try RequestValidation.minimum(0, "1", at: "/a")) {
            XCTAssertEqual($0 as? SchemaValidationError, SchemaValidationError(path: "/a", requirement: "at least 1"))
        }
        XCTAssertNoThrow(try RequestValidation.maximum(2.5, "2.5", at: "/b"))
        XCTAssertThrowsError(try RequestValidation.maximum(2.6, "2.5", at: "/b"))
        XCTAssertThrowsError(try RequestValidation.exclusiveMinimum(Int64(0), "0", at: "/c"))
        XCTAssertNoThrow(try RequestValidation.exclusiveMinimum(Int64(1), "0", at: "/c"))
        XCTAssertThrowsError(try RequestValidation.exclusiveMaximum(Int32(5), "5", at: "/c"))
        XCTAssertNoThrow(try RequestValidation.exclusiveMaximum(Int32(4), "4.5", at: "/c"))
        XCTAssertNoThrow(try RequestValidation.minimum(2, "1.5", at: "/c"), "a fractional bound on an integer")
        XCTAssertThrowsError(try RequestValidation.minimum(1, "1.5", at: "/c"))
        XCTAssertNoThrow(try RequestValidation.minLength("é👍", 2, at: "/d"), "Unicode scalars are counted")
        XCTAssertThrowsError(try RequestValidation.maxLength("abcd", 3, at: "/d"))
        XCTAssertNoThrow(try RequestValidation.pattern("order-42", "[0-9]+", at: "/e"), "a match anywhere")
        XCTAssertThrowsError(try RequestValidation.pattern("order", "^[0-9]+$", at: "/e"))
        XCTAssertThrowsError(try RequestValidation.minItems(0, 1, at: "/f"))
        XCTAssertThrowsError(try RequestValidation.maxItems(3, 2, at: "/f"))
    }

    func testMultipleOfIsExactInDecimal() {
        XCTAssertNoThrow(try RequestValidation.multipleOf(0.3, "0.1", at: "/a"), "0.3 / 0.1 is 3 in decimal")
        XCTAssertThrowsError(try RequestValidation.multipleOf(0.31, "0.1", at: "/a"))
        XCTAssertNoThrow(try RequestValidation.multipleOf(10, "2.5", at: "/a"))
        XCTAssertThrowsError(try RequestValidation.multipleOf(7, "2", at: "/a"))
        XCTAssertNoThrow(try RequestValidation.multipleOf(Float(0.3), "0.1", at: "/a"), "a Float by its own digits")
    }

    func testUniqueItemsCompareAsJSON() throws {
        XCTAssertNoThrow(try RequestValidation.uniqueItems(["a\u{308}", "ä"], at: "/a"), "different code points")
        XCTAssertThrowsError(try RequestValidation.uniqueItems(["x", "y", "x"], at: "/a"))
        let one = try JSONValue.parse(Data("1".utf8))
        let onePointZero = try JSONValue.parse(Data("1.0".utf8))
        XCTAssertThrowsError(try RequestValidation.uniqueItems([one, onePointZero], at: "/a"), "1 and 1.0 are equal")
        let ab = try JSONValue.parse(Data(#"{"a":1,"b":2}"#.utf8))
        let ba = try JSONValue.parse(Data(#"{"b":2,"a":1}"#.utf8))
        XCTAssertThrowsError(try RequestValidation.uniqueItems([ab, ba], at: "/a"), "member order does not count")
        XCTAssertNoThrow(try RequestValidation.uniqueItems([1, 2, 3], at: "/a"))
    }

    func testTheErrorNeverQuotesTheValue() {
        XCTAssertThrowsError(try RequestValidation.maxLength("secret-value", 3, at: "/password")) {
            XCTAssertFalse(String(describing: $0).contains("secret-value"))
        }
    }

    func testAMapKeyIsEscapedInThePath() {
        XCTAssertEqual(RequestValidation.pointer("/a", "b/c~d"), "/a/b~1c~0d")
    }
}
