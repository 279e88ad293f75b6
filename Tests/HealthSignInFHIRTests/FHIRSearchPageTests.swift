import Foundation
import HealthSignInFHIR
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// How a search page reads a Bundle, and which next links the client follows with the access token.
final class FHIRSearchPageTests: XCTestCase {
    private let base = URL(string: "https://ehr.example/r4/fhir")!
    private let token = BearerToken("page-token-1")

    private func client(_ transport: RecordingTransport) -> FHIRAPIClient {
        FHIRAPIClient(configuration: .init(servers: .init(base: base), options: ClientOptions(transport: transport)))
    }

    private static let emptyPage = HTTPResponseMessage(
        status: 200, headers: ["Content-Type": "application/fhir+json"],
        body: Data(#"{"resourceType":"Bundle","type":"searchset","entry":[]}"#.utf8))

    func testANextLinkLeavingTheBaseIsRefusedBeforeAnythingIsSent() async throws {
        let refused = [
            "http://ehr.example/r4/fhir/Observation?page=2",  // another scheme
            "https://ehr.example:8443/r4/fhir/Observation",  // another port
            "https://evil.example/r4/fhir/Observation",  // another host
            "https://ehr.example.evil.example/r4/fhir/Observation",  // a host that only begins the same
            "https://user@ehr.example/r4/fhir/Observation",  // user info
            "https://ehr.example/r4/fhirish/Observation",  // a path that only begins the same
            "https://ehr.example/r4/Observation",  // above the base
            "https://ehr.example/r4/fhir/../admin/Observation",  // climbing out by a dot segment
            "https://ehr.example/r4/fhir/%2E%2E/admin/Observation",  // and by an encoded one
            "/r4/fhir/Observation?page=2",  // no origin at all
        ]
        for link in refused {
            let transport = RecordingTransport(responses: [Self.emptyPage])
            let page = FHIRSearchPage(entries: [], next: URL(string: link))
            await XCTAssertThrowsErrorAsync(try await client(transport).page(after: page, token: token)) { error in
                guard case .linkLeavesServer = error as? PagingError else { return XCTFail("\(link): \(error)") }
                XCTAssertFalse("\(error)".contains("page=2"), "the error shows the link's query: \(error)")
            }
            XCTAssertEqual(transport.requests.count, 0, link)
        }
    }

    func testANextLinkUnderTheBaseIsFollowedAsWrittenWithTheToken() async throws {
        for link in [
            "https://EHR.example:443/r4/fhir/Observation?_getpages=a%2Fb&_offset=2",
            "https://ehr.example/r4/fhir?_getpages=a%2Fb&_offset=2",
        ] {
            let transport = RecordingTransport(responses: [Self.emptyPage])
            let page = FHIRSearchPage(entries: [], next: URL(string: link))
            let next = try await client(transport).page(after: page, token: token)
            XCTAssertEqual(next?.entries, [])
            XCTAssertEqual(transport.requests.map(\.url.absoluteString), [link])
            XCTAssertEqual(transport.requests.first?.headers["Authorization"], "Bearer page-token-1")
        }
    }

    func testAPageReadsTheNextLinkTotalAndEntriesByTheirMode() throws {
        let json = """
            {"resourceType": "Bundle", "type": "searchset", "total": 7,
             "link": [{"relation": "self", "url": "https://ehr.example/r4/fhir/Observation?a=1"},
                      {"relation": "next", "url": "https://ehr.example/r4/fhir/Observation?a=2"}],
             "entry": [
               {"resource": {"resourceType": "Observation", "id": "o1", "status": "final", "code": {"text": "x"}}},
               {"resource": {"resourceType": "Patient", "id": "p1"}, "search": {"mode": "include"}},
               {"resource": {"resourceType": "OperationOutcome",
                             "issue": [{"severity": "warning", "code": "not-supported"}]},
                "search": {"mode": "outcome"}},
               {"resource": {"resourceType": "Observation", "id": "o2", "status": "final", "code": {}},
                "search": {"mode": "match", "score": 0.50}},
               "not an entry",
               {"resource": {"resourceType": "NoSuchResource", "id": "x"}},
               {"resource": {"resourceType": "Observation", "id": "o3", "status": "final", "code": {}}}
             ]}
            """
        let page = try FHIRJSON.decode(FHIRSearchPage.self, from: Data(json.utf8))
        XCTAssertEqual(page.total, 7)
        XCTAssertEqual(page.next?.absoluteString, "https://ehr.example/r4/fhir/Observation?a=2")
        XCTAssertEqual(page.links.map(\.relation), ["self", "next"])
        XCTAssertEqual(page.matches(of: FHIRObservation.self).map(\.id), ["o1", "o2", "o3"])
        XCTAssertEqual(page.included(of: Patient.self).map(\.id), ["p1"])
        XCTAssertEqual(page.outcomes.first?.issue.first?.code, .notSupported)
        XCTAssertEqual(page.entries[3].search?.score, JSONNumber("0.50"))
        XCTAssertEqual(page.unreadableEntries.map(\.path), ["entry[4]", "entry[5]/resource/resourceType"])
    }

    func testADocumentThatIsNotABundleIsNotAPage() {
        XCTAssertThrowsError(
            try FHIRJSON.decode(FHIRSearchPage.self, from: Data(#"{"resourceType":"Patient","id":"p"}"#.utf8))
        ) { error in
            XCTAssertEqual((error as? ResponseDecodingError)?.path, "resourceType", "\(error)")
        }
    }

    /// A next link that is no URL would end the search early without a word: the page is refused instead.
    func testANextLinkThatIsNoURLIsAnError() {
        let json = #"{"resourceType":"Bundle","type":"searchset","link":[{"relation":"next","url":"http://[bad"}]}"#
        XCTAssertThrowsError(try FHIRJSON.decode(FHIRSearchPage.self, from: Data(json.utf8))) { error in
            XCTAssertEqual((error as? ResponseDecodingError)?.path, "link", "\(error)")
        }
    }
}
