import Foundation
import OAuth2
import SDKRuntime
import XCTest

/// A pending authorization's secrets, what its redirect may say, and the parameters an app adds to the request.
final class AuthorizationTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func pending(openID: Bool = true) -> PendingAuthorization {
        PendingAuthorization(
            random: SeededRandomSource(seed: "authorization"), openID: openID, redirectURI: "app://cb",
            endpoints: OAuthEndpoints(
                baseURL: URL(string: "https://fhir.example")!, token: URL(string: "https://fhir.example/token")!),
            startedAt: start)
    }

    func testSecretsAreFreshAndTheChallengeIsTheVerifiers() {
        let request = pending()
        XCTAssertEqual(request.codeVerifier.count, 43)
        XCTAssertEqual(request.state.count, 43)
        XCTAssertNotNil(request.nonce)
        XCTAssertNil(pending(openID: false).nonce)
        XCTAssertEqual(request.pkce.challenge, PKCE(verifier: request.codeVerifier).challenge)
        XCTAssertFalse(request.description.contains(request.state))
    }

    func testTheRedirectIsCheckedStateFirst() throws {
        let request = pending()
        func code(_ query: String, after seconds: TimeInterval = 10) throws(AuthorizationResponseError) -> String {
            try request.code(
                from: URL(string: "app://cb?" + query)!, at: start.addingTimeInterval(seconds), lifetime: 600)
        }
        XCTAssertEqual(try code("code=c1&state=\(request.state)"), "c1")
        XCTAssertThrowsError(try code("code=c1&state=other")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .stateMismatch)
        }
        XCTAssertThrowsError(try code("error=access_denied")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .stateMismatch, "no state: not this request's answer")
        }
        XCTAssertThrowsError(try code("code=c1&state=\(request.state)", after: 601)) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .expired)
        }
        XCTAssertThrowsError(try code("error=access_denied&error_description=no&state=\(request.state)")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .denied(error: "access_denied", description: "no"))
        }
        XCTAssertThrowsError(try code("state=\(request.state)")) {
            XCTAssertEqual(
                $0 as? AuthorizationResponseError,
                .denied(error: "invalid_request", description: "the redirect has no code"))
        }
    }

    func testAdditionalParametersFollowInTheOrderOfTheirNames() throws {
        let url = URL(string: "https://auth.example/authorize?response_type=code&state=s")!
        let parameters = AuthorizationParameters(additional: ["ui_locales": "nl en", "acr_values": "urn:a/b"])
        XCTAssertEqual(
            try parameters.appending(to: url, reserved: ["state"]).absoluteString,
            "https://auth.example/authorize?response_type=code&state=s&acr_values=urn%3Aa%2Fb&ui_locales=nl%20en")
        XCTAssertEqual(try AuthorizationParameters(prompt: "consent").appending(to: url, reserved: []), url)
        for reserved in ["state", "prompt"] {
            XCTAssertThrowsError(
                try AuthorizationParameters(additional: [reserved: "x"]).appending(to: url, reserved: ["state"])
            ) { error in
                XCTAssertEqual(error as? AuthorizationRequestError, .reservedParameter(reserved))
            }
        }
    }
}
