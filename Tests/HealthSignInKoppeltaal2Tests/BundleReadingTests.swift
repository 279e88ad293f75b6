import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import XCTest

/// A Bundle read entry by entry: what reads is kept, what does not is named, and what is not a Bundle is an error.
final class BundleReadingTests: XCTestCase {
    private let bundle = Data(
        #"""
        {"resourceType": "Bundle", "type": "transaction-response", "total": 3, "entry": [
          {"fullUrl": "urn:uuid:1", "resource": {"resourceType": "Patient", "id": "p1"}},
          {"fullUrl": "https://fhir.example/Task/t1", "resource": {"resourceType": "Task", "id": "t1",
            "meta": {"versionId": "4"}, "identifier": [{"value": "a"}], "status": "ready", "intent": "order",
            "for": {"reference": "Patient/p1"}, "owner": {"reference": "Patient/p1"}}},
          {"fullUrl": "urn:uuid:3", "resource": {"resourceType": "Task", "status": 5, "intent": "order",
            "identifier": [], "for": {"reference": "Patient/p1"}, "owner": {"reference": "Patient/p1"}}},
          {"resource": {"resourceType": "Task", "id": "t4", "search": "x"}, "search": {"mode": "include"}}
        ], "link": [{"relation": "next", "url": "https://fhir.example/Task?page=2"}]}
        """#.utf8)

    func testTheTasksThatReadAreKeptAndTheOtherIsNamedByItsEntry() throws {
        let page = try KT2SearchPage<KT2Task>(bundle: bundle)
        XCTAssertEqual(page.resources.map(\.resource.id), ["t1"])
        XCTAssertEqual(page.resources.first?.versionID, "4")
        XCTAssertEqual(page.total, 3)
        XCTAssertEqual(page.next?.absoluteString, "https://fhir.example/Task?page=2")
        let failure = try XCTUnwrap(page.failures.first)
        XCTAssertEqual(page.failures.count, 1, "the include entry is not a match")
        XCTAssertEqual(failure.index, 2)
        XCTAssertNil(failure.reference)
        XCTAssertEqual(failure.fullURL, "urn:uuid:3")
        XCTAssertEqual(failure.member, "status")
        XCTAssertTrue("\(failure)".hasPrefix("urn:uuid:3: status: "), "\(failure)")
    }

    func testWhatIsNotABundleIsAnError() {
        for body in [#"{"resourceType": "Task"}"#, "[]", "not json", #"{"resourceType": "Bundle", "entry": {}}"#] {
            XCTAssertThrowsError(try KT2SearchPage<KT2Task>(bundle: Data(body.utf8)), body) {
                XCTAssertTrue($0 is ResponseDecodingError, "\(body): \($0)")
            }
        }
    }
}
