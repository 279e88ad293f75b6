import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// A grant without a refresh token serves until its access token really expires: nothing can renew it early, so
/// the refresh skew does not apply to it.
final class GrantLifetimeTests: XCTestCase {
    func testAGrantWithoutARefreshTokenLastsUntilItExpires() async throws {
        let json: HTTPHeaderFields = ["Content-Type": "application/json"]
        let transport = RecordingTransport { request in
            if request.url.lastPathComponent == "Authorize" {
                return HTTPResponseMessage(status: 200, headers: json, body: Data(#"{"authorization_code": "c"}"#.utf8))
            }
            return HTTPResponseMessage(
                status: 200, headers: json,
                body: Data(#"{"access_token": "only", "token_type": "Bearer", "expires_in": 900, "patient": "p"}"#.utf8)
            )
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
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), refreshSkew: 60,
                    clock: clock)))
        _ = try await session.activate(code: "123456")
        let sent = transport.requests.count

        // Within the refresh skew, the access token still serves; nothing is sent.
        clock.advance(by: 870)
        await XCTAssertEqualAsync(try await session.accessToken().value, "only")
        guard case .active = try await session.status() else { return XCTFail("the grant ended before it expired") }
        XCTAssertEqual(transport.requests.count, sent)

        // When it really expires, the grant is over.
        clock.advance(by: 30)
        do {
            _ = try await session.accessToken()
            XCTFail("an expired grant without a refresh token was used")
        } catch let error as SignInError where error.code == .needsSignIn {
            XCTAssertNil(error.serverError)
        }
        await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        XCTAssertEqual(transport.requests.count, sent, "no refresh without a refresh token")
    }
}
