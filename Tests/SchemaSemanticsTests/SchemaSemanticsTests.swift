import SchemaSemantics
import XCTest

final class SchemaSemanticsTests: XCTestCase {
    func testTheModuleLoads() {
        XCTAssertNotNil(SchemaSemantics.self as Any)
    }
}
