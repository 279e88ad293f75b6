import Foundation
@_spi(Generated) import SDKRuntime
import XCTest

/// The checks generated `validate(at:)` methods run.
final class RequestValidationTests: XCTestCase {
    func testEachCheckPassesAtItsBoundAndFailsBeyondIt() {
        XCTAssertNoThrow(try RequestValidation.minimum(1, 1, at: "/a"))
        XCTAssertThrowsError(try RequestValidation.minimum(0, 1, at: "/a")) {
            XCTAssertEqual($0 as? RequestValidationError, RequestValidationError(path: "/a", requirement: "at least 1"))
        }
        XCTAssertNoThrow(try RequestValidation.maximum(2.5, 2.5, at: "/b"))
        XCTAssertThrowsError(try RequestValidation.maximum(2.6, 2.5, at: "/b"))
        XCTAssertThrowsError(try RequestValidation.exclusiveMinimum(Int64(0), 0, at: "/c"))
        XCTAssertNoThrow(try RequestValidation.exclusiveMinimum(Int64(1), 0, at: "/c"))
        XCTAssertNoThrow(try RequestValidation.minLength("é👍", 2, at: "/d"), "Unicode scalars are counted")
        XCTAssertThrowsError(try RequestValidation.maxLength("abcd", 3, at: "/d"))
        XCTAssertNoThrow(try RequestValidation.pattern("order-42", "[0-9]+", at: "/e"), "a match anywhere")
        XCTAssertThrowsError(try RequestValidation.pattern("order", "^[0-9]+$", at: "/e"))
        XCTAssertThrowsError(try RequestValidation.minItems(0, 1, at: "/f"))
        XCTAssertThrowsError(try RequestValidation.maxItems(3, 2, at: "/f"))
    }

    func testAnAbsentValuePassesEveryCheck() {
        XCTAssertNoThrow(try RequestValidation.minimum(Int?.none, 1, at: "/a"))
        XCTAssertNoThrow(try RequestValidation.pattern(nil, "^x$", at: "/a"))
        XCTAssertNoThrow(try RequestValidation.minLength(nil, 1, at: "/a"))
    }

    func testTheErrorNeverQuotesTheValue() {
        XCTAssertThrowsError(try RequestValidation.maxLength("secret-value", 3, at: "/password")) {
            XCTAssertFalse(String(describing: $0).contains("secret-value"))
        }
    }
}
