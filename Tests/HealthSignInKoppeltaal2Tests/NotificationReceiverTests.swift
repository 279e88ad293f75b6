import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import XCTest

/// The receiving end of a rest-hook: the registered header, an empty body, and the trace the search goes on with.
final class NotificationReceiverTests: XCTestCase {
    private let receiver = KT2NotificationReceiver(header: "X-KTSubscription", value: "s3cret-UpdateTask")

    /// What the FHIR server sends (topic 6): no body, the channel's header line and the trace headers.
    private func notification(_ value: String?, requestID: String = "n-1") -> HTTPHeaderFields {
        var headers: HTTPHeaderFields = [
            "Content-Type": "application/fhir+json; fhirVersion=4.0; charset=utf-8", "X-Request-Id": requestID,
            "X-Correlation-Id": "update-7", "X-Trace-Id": "trace-9",
        ]
        if let value { headers["X-KTSubscription"] = value }
        return headers
    }

    func testANotificationWithTheRegisteredHeaderStartsASearchCorrelatedToIt() throws {
        let trace = try receiver.accept(headers: notification("s3cret-UpdateTask"), body: Data())
        XCTAssertEqual(trace.correlationID, "n-1")
        XCTAssertEqual(trace.traceID, "trace-9")
        XCTAssertEqual(receiver.channelHeader, "X-KTSubscription: s3cret-UpdateTask")
        XCTAssertFalse(receiver.description.contains("s3cret"))
    }

    func testAMissingOrWrongHeaderOrABodyIsRefused() {
        for value in [nil, "", "s3cret-UpdateTas", "s3cret-UpdateTask ", "S3CRET-UPDATETASK"] {
            XCTAssertThrowsError(try receiver.accept(headers: notification(value), body: Data())) {
                XCTAssertEqual($0 as? KT2NotificationError, .unauthenticated, String(describing: value))
            }
        }
        XCTAssertThrowsError(
            try receiver.accept(
                headers: notification("s3cret-UpdateTask"), body: Data(#"{"resourceType":"Task"}"#.utf8))
        ) { XCTAssertEqual($0 as? KT2NotificationError, .unexpectedBody) }
        let empty = KT2NotificationReceiver(header: "X-KTSubscription", value: "")
        XCTAssertThrowsError(
            try empty.accept(headers: notification(""), body: Data()), "an empty secret proves nothing")
    }

    func testAFrameworksHeaderLookupIsTakenAsIs() throws {
        // A framework's fields, as a dictionary keyed by lowercased name stands in for its own type.
        let fields = ["x-ktsubscription": "s3cret-UpdateTask", "x-request-id": "n-2", "x-trace-id": "trace-3"]
        let trace = try receiver.accept(body: Data()) { fields[$0.lowercased()] }
        XCTAssertEqual(trace.correlationID, "n-2")
        XCTAssertEqual(trace.traceID, "trace-3")
        XCTAssertThrowsError(try receiver.accept(body: Data()) { _ in nil }) {
            XCTAssertEqual($0 as? KT2NotificationError, .unauthenticated)
        }
    }
}
