import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// How long `SMARTBackendClient` keeps a token: until the renewal margin before it expires, or halfway through a life
/// shorter than the margin.
final class BackendClientTests: XCTestCase {
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    private func backend(lifetime: Int, requests: LockedValue<Int>) throws -> SMARTBackendClient {
        let keys = try JSONWebKeySet(json: Fixtures.data("JOSE/test-keys.json"))
        let signer = try ClientAssertionSigner(
            key: try XCTUnwrap(keys.keys.first { $0.keyID == "test-rsa" }), algorithm: .rs384, clock: clock)
        let transport = RecordingTransport { _ in
            let count = requests.withValue { count -> Int in
                count += 1
                return count
            }
            let body = #"{"access_token": "token-\#(count)", "token_type": "Bearer", "expires_in": \#(lifetime)}"#
            return HTTPResponseMessage(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        return SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://ehr.example/fhir")!,
                    client: OAuthClientCredentials(clientID: "service", signer: signer),
                    endpoints: EndpointOverrides(token: URL(string: "https://ehr.example/auth/token"))),
                scope: "system/*.rs",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), clock: clock)))
    }

    /// A token of `lifetime` seconds serves until `renewedAfter` seconds have passed, and then a new one is asked for.
    private func assertRenewal(lifetime: Int, renewedAfter: TimeInterval, line: UInt = #line) async throws {
        let requests = LockedValue(0)
        let backend = try backend(lifetime: lifetime, requests: requests)
        await XCTAssertEqualAsync(try await backend.token().accessToken.value, "token-1", line: line)
        clock.advance(by: renewedAfter - 1)
        await XCTAssertEqualAsync(try await backend.token().accessToken.value, "token-1", line: line)
        clock.advance(by: 1)
        await XCTAssertEqualAsync(try await backend.token().accessToken.value, "token-2", line: line)
        XCTAssertEqual(requests.current, 2, line: line)
    }

    func testATokenIsRenewedTheMarginBeforeItExpires() async throws {
        try await assertRenewal(lifetime: 300, renewedAfter: 270)
    }

    func testATokenShorterLivedThanTheMarginIsKeptForHalfItsLife() async throws {
        try await assertRenewal(lifetime: 20, renewedAfter: 10)
    }
}
