import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// A code that ends a grant (`invalid_grant`) ends it only when the status is a refusal (4xx); behind a 5xx it is a
/// server or proxy in trouble and the grant is kept.
final class GrantRefusalTests: XCTestCase {
    func testInvalidGrantEndsTheGrantOnlyWithA4xxStatus() async throws {
        let tokenResponse = try Fixtures.data("Koppeltaal/Token/response.json")
        let refreshAnswer = LockedValue(500)
        let json: HTTPHeaderFields = ["Content-Type": "application/json"]
        let transport = RecordingTransport { request in
            if request.url.lastPathComponent == "Authorize" {
                return HTTPResponseMessage(status: 200, headers: json, body: Data(#"{"authorization_code": "c"}"#.utf8))
            }
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            guard body.contains("grant_type=refresh_token") else {
                return HTTPResponseMessage(status: 200, headers: json, body: tokenResponse)
            }
            return HTTPResponseMessage(
                status: refreshAnswer.current, headers: json, body: Data(#"{"error": "invalid_grant"}"#.utf8))
        }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                    client: OAuthClientCredentials(clientID: "c", secret: "s", method: .unencodedBasic),
                    redirectURI: "app://cb",
                    endpoints: EndpointOverrides(
                        authorization: URL(string: "https://kt.example/OAuth2/Koppeltaal/Authorize"),
                        token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token"))),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), clock: clock)))
        _ = try await session.activate(code: "123456")
        clock.advance(by: 7200)

        do {
            _ = try await session.accessToken()
            XCTFail("refreshed")
        } catch let error as OAuthError {
            XCTAssertEqual(error.httpStatus, 500)
        }
        guard case .active = try await session.status() else { return XCTFail("a 5xx ended the grant") }

        refreshAnswer.withValue { $0 = 400 }
        do {
            _ = try await session.accessToken()
            XCTFail("refreshed")
        } catch let error as SignInError where error.code == .needsSignIn {
            XCTAssertEqual(error.serverError?.httpStatus, 400)
        }
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
    }
}
