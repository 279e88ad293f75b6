import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInTestSupport
import XCTest

/// Both OperationOutcome forms of the seed (JSON and XML), and the DSTU2 shape, decode to typed issues.
final class OperationOutcomeTests: XCTestCase {
    private let seedDetails =
        "Authentication failed: Bearer token 98510180-8d78-4987-9e27-c958c449f383 has expired at 2016/02/10 22:54:51"

    func testSeedJSON() throws {
        let outcome = try JSONCoding.decode(
            FHIROperationOutcome.self, from: Fixtures.data("Koppeltaal/OperationOutcome/expired.json"))
        assertSeed(outcome)
    }

    func testSeedXML() throws {
        let outcome = try HTTPResponseBody.xml(
            FHIROperationOutcome.self,
            from: HTTPResponseMessage(status: 401, body: Fixtures.data("Koppeltaal/OperationOutcome/expired.xml")),
            rootElements: ["OperationOutcome"]
        )
        assertSeed(outcome)
    }

    private func assertSeed(_ outcome: FHIROperationOutcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(outcome.issue.count, 1, file: file, line: line)
        let issue = outcome.issue[0]
        XCTAssertNil(issue.severity, "the seed omits severity", file: file, line: line)
        XCTAssertEqual(
            issue.type, FHIRCoding(system: "http://hl7.org/fhir/issue-type", code: "expired"), file: file, line: line)
        XCTAssertEqual(issue.details, .string(seedDetails), file: file, line: line)
        let error = OperationOutcomeError(body: outcome, httpStatus: 401, operation: "Read")
        XCTAssertEqual(error.code, .expired, file: file, line: line)
        XCTAssertEqual(error.recovery, .refreshCredential, file: file, line: line)
        // The details quote the bearer token, so they never appear in descriptions.
        for text in [String(describing: outcome), String(describing: error), String(reflecting: outcome)] {
            XCTAssertFalse(text.contains("98510180"), text, file: file, line: line)
        }
    }

    func testDSTU2Shapes() throws {
        let json = try JSONCoding.decode(
            FHIROperationOutcome.self, from: Fixtures.data("Koppeltaal/OperationOutcome/expired-dstu2.json"))
        let xml = try HTTPResponseBody.xml(
            FHIROperationOutcome.self,
            from: HTTPResponseMessage(
                status: 401, body: Fixtures.data("Koppeltaal/OperationOutcome/expired-dstu2.xml")),
            rootElements: ["OperationOutcome"]
        )
        for outcome in [json, xml] {
            let issue = outcome.issue[0]
            XCTAssertEqual(issue.severity, .error)
            XCTAssertEqual(issue.code, "expired")
            XCTAssertEqual(
                issue.details,
                .fhirCodeableConcept(
                    FHIRCodeableConcept(text: "Bearer token 98510180-8d78-4987-9e27-c958c449f383 has expired"))
            )
            XCTAssertEqual(issue.diagnostics, "token 98510180-8d78-4987-9e27-c958c449f383")
            XCTAssertEqual(OperationOutcomeError(body: outcome, httpStatus: 401, operation: "Read").code, .expired)
        }
        XCTAssertEqual(json, xml)
    }

    func testEveryIssueCounts() async throws {
        // An informational issue first (DSTU2 code), then the expired token (DSTU1 type): the error keeps both codes,
        // and its recovery is the expired token's, not the note's.
        let body = Data(
            #"""
            {"resourceType": "OperationOutcome", "issue": [
              {"severity": "information", "code": "informational"},
              {"severity": "warning"},
              {"type": {"system": "http://hl7.org/fhir/issue-type", "code": "expired"}, "details": "token 98510180"}]}
            """#.utf8)
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: 401, headers: ["Content-Type": "application/json+fhir"], body: body)
        }
        let client = KoppeltaalAPIClient(
            configuration: .init(servers: .init(launch: URL(string: "https://example.org")), transport: transport))
        do {
            _ = try await client.mobileLaunch(
                .init(clientID: "c", patient: "p", user: "u"), credentials: .init(username: "a", password: "b"))
            XCTFail("expected an error")
        } catch let error as OperationOutcomeError {
            XCTAssertEqual(error.codes, [.informational, .expired])
            XCTAssertEqual(error.code, .informational)
            XCTAssertEqual(error.recovery, .refreshCredential)
            XCTAssertEqual(error.body.issue.count, 3)
            XCTAssertEqual(
                String(describing: error),
                "MobileLaunch failed: OperationOutcomeError informational, expired (HTTP 401)")
        }
        let none = OperationOutcomeError(
            body: FHIROperationOutcome(issue: [FHIROperationOutcomeIssue(severity: .warning)]), httpStatus: 400,
            operation: "Read")
        XCTAssertEqual(none.codes, [])
        XCTAssertNil(none.code)
        XCTAssertEqual(none.recovery, .none)
    }

    func testErrorResponsesChooseTheirFormat() async throws {
        for (fixture, type) in [
            ("OperationOutcome/expired.xml", "application/xml+fhir"),
            ("OperationOutcome/expired.json", "application/json+fhir"),
        ] {
            let body = try Fixtures.data("Koppeltaal/" + fixture)
            let transport = RecordingTransport { _ in
                HTTPResponseMessage(status: 401, headers: ["Content-Type": type], body: body)
            }
            let client = KoppeltaalAPIClient(
                configuration: .init(servers: .init(launch: URL(string: "https://example.org")), transport: transport))
            do {
                _ = try await client.mobileLaunch(
                    .init(clientID: "c", patient: "p", user: "u"), credentials: .init(username: "a", password: "b"))
                XCTFail("expected an error")
            } catch let error as OperationOutcomeError {
                XCTAssertEqual(error.code, .expired, fixture)
            }
        }
    }
}
