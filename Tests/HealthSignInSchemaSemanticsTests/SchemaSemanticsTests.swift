import HealthSignInSchemaSemantics
import XCTest

/// Strings compare by code points, as JSON Schema compares them.
final class SchemaSemanticsTests: XCTestCase {
    func testCanonicallyEquivalentStringsAreDifferentCodePoints() {
        XCTAssertEqual("a\u{308}", "ä", "Swift's == is canonical equivalence")
        XCTAssertFalse(CodePoints.equal("a\u{308}", "ä"))
        XCTAssertTrue(CodePoints.equal("ä", "ä"))
        XCTAssertEqual(CodePoints.count("a\u{308}"), 2)
    }
}
