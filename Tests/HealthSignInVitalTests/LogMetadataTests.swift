import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInTesting
import HealthSignInVital
import XCTest

/// Each request's log entries carry its operation and one request id, so a log that interleaves many requests (a
/// server's) can be read request by request.
final class LogMetadataTests: XCTestCase {
    func testARequestsEntriesShareItsOperationAndRequestIDAndNoOtherRequestsDo() async throws {
        let userID = "1b7d2f4c-6a3e-4d0f-9c55-2f0e8a1b3c4d"
        let transport = RecordingTransport { request in
            let body =
                request.url.path.hasSuffix("/sign_in_token")
                ? #"{"user_id": "\#(userID)", "sign_in_token": "token"}"#
                : #"{"user_id": "\#(userID)", "client_user_id": "alice"}"#
            return HTTPResponseMessage(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let log = LogCapture()
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_key"), environment: .sandboxUS, transport: transport, logger: log))
        _ = try await backend.signInToken(forClientUserID: "alice")

        let entries = log.records.filter { $0.requestID != nil }
        XCTAssertEqual(entries.count, 4, "\(log.records)")
        let requests = Dictionary(grouping: entries, by: { $0.requestID ?? "" })
        XCTAssertEqual(requests.count, 2, "one id for each request")
        XCTAssertEqual(Set(entries.compactMap(\.operation)), ["CreateUser", "CreateSignInToken"])
        for (id, pair) in requests {
            XCTAssertEqual(id.count, 16)
            XCTAssertEqual(pair.map { $0.message.contains("→") }, [true, false], "the request's → then its ←")
            XCTAssertEqual(Set(pair.map(\.operation)).count, 1, "one operation per request")
            XCTAssertEqual(Set(pair.map(\.category)), ["Vital"])
        }
    }
}
