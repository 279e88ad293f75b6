import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// A refused client assertion is one typed error, `OAuthError` `invalid_client` with the server's words, whether
/// the auth service answers in JSON or in plain text.
final class ClientRefusalTests: XCTestCase {
    private let fhirBase = URL(string: "https://fhir.koppeltaal.test/fhir/DEFAULT")!

    private func backend(refusal: HTTPResponseMessage) throws -> Koppeltaal2BackendClient {
        let transport = RecordingTransport { request in
            guard request.url.path == "/token" else {
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"token_endpoint": "https://fhir.koppeltaal.test/token"}"#.utf8))
            }
            return refusal
        }
        let keys = try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json"))
        let key = try XCTUnwrap(keys.keys.first { $0.keyID == "test-rsa" })
        return Koppeltaal2BackendClient(
            configuration: .init(
                clientID: "module-1", signer: try Koppeltaal2BackendClient.signer(key: key), fhirBaseURL: fhirBase,
                options: ClientOptions(transport: transport)))
    }

    private func refusal(_ status: Int, _ type: String, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": type], body: Data(body.utf8))
    }

    func testARefusedAssertionIsTheSameErrorInJSONAndInPlainText() async throws {
        let answers: [(HTTPResponseMessage, String?)] = [
            (refusal(401, "text/plain", "Access Denied"), "Access Denied"),
            (refusal(401, "text/plain; charset=utf-8", "Access Denied\r\n\u{7}"), "Access Denied"),
            (
                refusal(401, "application/json", #"{"error": "invalid_client", "error_description": "bad jti"}"#),
                "bad jti"
            ),
            (refusal(400, "application/json", #"{"error": "invalid_client"}"#), nil),
            (refusal(401, "text/html", "<html>denied</html>"), nil),
            (refusal(401, "text/plain", ""), nil),
        ]
        for (answer, words) in answers {
            let body = String(decoding: answer.body, as: UTF8.self)
            await XCTAssertThrowsErrorAsync(try await backend(refusal: answer).token(), body) { error in
                guard let error = error as? OAuthError else { return XCTFail("\(body): \(error)") }
                XCTAssertEqual(error.code, .invalidClient, body)
                XCTAssertEqual(error.message, words, body)
                XCTAssertEqual(error.httpStatus, answer.status, body)
                XCTAssertEqual(error.recovery, .reconfigure, body)
            }
        }
    }

    func testAPlainTextAnswerOtherThanA401StaysUnexpectedWithTheServersWords() async throws {
        let answer = refusal(400, "text/plain", "Bad Request, required field token missing")
        await XCTAssertThrowsErrorAsync(try await backend(refusal: answer).token()) { error in
            guard let error = error as? UnexpectedResponseError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.serverMessage, "Bad Request, required field token missing")
        }
    }
}
