import Foundation
import HealthSignInHTTP
import XCTest

/// The response a server answers for an SDK error is chosen by the error's recovery, and tells the caller nothing of
/// the upstream.
final class SDKErrorResponseTests: XCTestCase {
    private struct Failure: SDKError {
        let recovery: ErrorRecovery
        var description: String { "upstream.internal refused the key" }
    }

    func testEachRecoveryHasItsStatus() throws {
        let expected: [ErrorRecovery: Int] = [
            .none: 502, .retryLater: 503, .refreshCredential: 502, .reauthorize: 502, .reprovision: 502,
            .discardGrant: 502, .reconfigure: 500, .fixRequest: 500,
        ]
        XCTAssertEqual(Set(expected.keys), Set(ErrorRecovery.allCases))
        for (recovery, status) in expected {
            let response = try XCTUnwrap(SDKErrorResponse(Failure(recovery: recovery)))
            XCTAssertEqual(response.status, status, "\(recovery)")
            XCTAssertEqual(response.recovery, recovery)
            XCTAssertEqual(response.retryAfter, status == 503 ? 5 : nil, "\(recovery)")
            XCTAssertFalse(response.message.contains("upstream.internal"), "the description stays in the log")
        }
        XCTAssertEqual(SDKErrorResponse(Failure(recovery: .retryLater), retryAfter: 30)?.retryAfter, 30)
    }

    func testATimeoutIsAGatewayTimeout() throws {
        let timeout = TransportError(.timedOut, url: URL(string: "https://fhir.example/Patient"), detail: "30 s")
        let response = try XCTUnwrap(SDKErrorResponse(timeout))
        XCTAssertEqual(response.status, 504)
        XCTAssertNil(response.retryAfter)
        XCTAssertEqual(SDKErrorResponse(TransportError(.cannotConnect, url: nil, detail: "refused"))?.status, 503)
        XCTAssertEqual(SDKErrorResponse(ConfigurationError.invalidTimeout(-1))?.status, 500)
    }

    func testAnErrorThatIsNotTheSDKsIsLeftToTheFramework() {
        XCTAssertNil(SDKErrorResponse(CancellationError()))
        XCTAssertNil(SDKErrorResponse(URLError(.badURL)))
    }
}
