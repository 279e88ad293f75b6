import Foundation
import HealthSignInCore
import HealthSignInOAuth
import XCTest

/// A resource path stays under the resource server's base path whatever its segments hold, and a FHIR reference
/// follows FHIR's rules for types and ids; a missing id is an error, never a search.
final class ResourcePathTests: XCTestCase {
    func testSegmentsAreEncodedOneByOne() throws {
        XCTAssertEqual(try ResourcePath("Patient", "123", "_history").percentEncoded, "Patient/123/_history")
        XCTAssertEqual(
            try ResourcePath("Patient", "../../tenantB/Patient/7").percentEncoded,
            "Patient/..%2F..%2FtenantB%2FPatient%2F7")
        XCTAssertEqual(try ResourcePath("a b", "ü?#").percentEncoded, "a%20b/%C3%BC%3F%23")
    }

    func testDotAndEmptySegmentsAreRefused() {
        for segments in [[".."], ["Patient", "."], ["Patient", ""], []] {
            XCTAssertThrowsError(try ResourcePath(segments: segments), "\(segments)") { error in
                XCTAssertTrue(error is ResourcePathError, "\(error)")
            }
        }
    }

    func testAFHIRReferenceFollowsFHIRsRules() throws {
        XCTAssertEqual(try ResourcePath.fhir("Patient", id: "smart-1.2").percentEncoded, "Patient/smart-1.2")
        XCTAssertEqual(try ResourcePath.fhir("Observation").percentEncoded, "Observation")
        let refused: [(String, String?, ResourcePathError)] = [
            ("Patient", "../../tenantB/Patient/7", .invalidID("../../tenantB/Patient/7")),
            ("Patient", "..", .invalidID("..")),
            ("Patient", "", .invalidID("")),
            ("Patient", String(repeating: "1", count: 65), .invalidID(String(repeating: "1", count: 65))),
            ("Patient", "a/b", .invalidID("a/b")),
            ("Patient", nil, .missingID(resourceType: "Patient")),
            ("patient", "1", .invalidResourceType("patient")),
            ("P", "1", .invalidResourceType("P")),
            ("Pa-tient", "1", .invalidResourceType("Pa-tient")),
        ]
        for (type, id, expected) in refused {
            XCTAssertThrowsError(try ResourcePath.fhir(type, id: id), "\(type) \(id ?? "nil")") { error in
                XCTAssertEqual(error as? ResourcePathError, expected)
            }
        }
        XCTAssertEqual(ResourcePathError.missingID(resourceType: "Patient").recovery, .fixRequest)
    }
}
