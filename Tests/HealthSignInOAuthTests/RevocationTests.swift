import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTesting
import XCTest

/// Revocation (RFC 7009) sends the refresh token first, then the access token, and reports the outcome.
final class RevocationTests: XCTestCase {
    private func server(answering answer: @escaping @Sendable (FormFields) -> HTTPResponseMessage) -> (
        AuthorizationServer, RecordingTransport
    ) {
        let transport = RecordingTransport { request in
            answer(FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self)))
        }
        let endpoints = OAuthEndpoints(
            baseURL: URL(string: "https://auth.example")!, token: URL(string: "https://auth.example/token")!,
            revocation: URL(string: "https://auth.example/revoke"))
        return (
            AuthorizationServer(
                endpoints: endpoints, client: OAuthClientCredentials(clientID: "app"),
                options: ClientOptions(transport: transport)),
            transport
        )
    }

    private static func unsupported(_ form: FormFields) -> HTTPResponseMessage {
        HTTPResponseMessage(
            status: 400, headers: ["Content-Type": "application/json"],
            body: Data(#"{"error": "unsupported_token_type"}"#.utf8))
    }

    func testTheRefreshTokenGoesFirstThenTheAccessToken() async throws {
        let (server, transport) = server { _ in HTTPResponseMessage(status: 200) }
        guard case .revoked = await server.revoke(OAuthGrant(accessToken: "at", refreshToken: "rt")) else {
            return XCTFail("not revoked")
        }
        let sent = transport.requests.map {
            FormFields(formEncoded: String(decoding: $0.body ?? Data(), as: UTF8.self))
        }
        XCTAssertEqual(sent.map { $0["token"] }, ["rt", "at"])
        XCTAssertEqual(sent.map { $0["token_type_hint"] }, ["refresh_token", "access_token"])
        XCTAssertEqual(sent.map { $0["client_id"] }, ["app", "app"])
    }

    func testAServerThatCannotRevokeAccessTokensStillRevokedTheGrant() async {
        let (server, _) = server { form in
            form["token_type_hint"] == "access_token" ? Self.unsupported(form) : HTTPResponseMessage(status: 200)
        }
        guard case .revoked = await server.revoke(OAuthGrant(accessToken: "at", refreshToken: "rt")) else {
            return XCTFail("not revoked")
        }
        guard case .unsupportedByServer = await server.revoke(OAuthGrant(accessToken: "at")) else {
            return XCTFail("an access token alone the server cannot revoke")
        }
    }

    func testAFailureOfEitherRequestIsReported() async {
        let (server, transport) = server { form in
            form["token_type_hint"] == "refresh_token"
                ? HTTPResponseMessage(status: 503) : HTTPResponseMessage(status: 200)
        }
        guard case .failed(let error) = await server.revoke(OAuthGrant(accessToken: "at", refreshToken: "rt")) else {
            return XCTFail("a failed refresh token revocation was not reported")
        }
        XCTAssertEqual((error as? UnexpectedResponseError)?.status, 503)
        XCTAssertEqual(transport.requests.count, 2, "the access token is still revoked")
        let none = AuthorizationServer(
            endpoints: OAuthEndpoints(
                baseURL: URL(string: "https://a.example")!, token: URL(string: "https://a.example/t")!),
            client: OAuthClientCredentials(clientID: "app"), options: ClientOptions(transport: transport))
        guard case .unsupportedByServer = await none.revoke(OAuthGrant(accessToken: "at")) else {
            return XCTFail("no revocation endpoint")
        }
    }
}
