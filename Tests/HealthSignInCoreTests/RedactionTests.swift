import Foundation
import HealthSignInCore
import XCTest

/// Credentials, requests and errors never show a secret in any textual form.
final class RedactionTests: XCTestCase {
    private let canary = "CANARY-7f3a91"

    private func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    struct Grant: RedactedDescription {
        let user: Int
        let token: String
        let expiresAt: Date
        let scope: String?
        var redactedFields: KeyValuePairs<String, Any> {
            ["user": user, "token": Redaction.placeholder, "expiresAt": expiresAt, "scope": scope as Any]
        }
    }

    func testARedactedDescriptionShowsItsFieldsOnceListedAndNeverTheSecret() {
        let grant = Grant(user: 7, token: canary, expiresAt: Date(timeIntervalSince1970: 1_800_000_000), scope: nil)
        XCTAssertEqual(
            grant.description,
            "RedactionTests.Grant(user: 7, token: <redacted>, expiresAt: 2027-01-15T08:00:00.000Z, scope: nil)")
        XCTAssertEqual(
            Grant(user: 1, token: canary, expiresAt: .distantPast, scope: "a b").description,
            "RedactionTests.Grant(user: 1, token: <redacted>, expiresAt: 0001-01-01T00:00:00.000Z, scope: a b)")
        XCTAssertEqual(grant.debugDescription, grant.description)
        XCTAssertEqual(grant.customMirror.children.map(\.label), ["user", "token", "expiresAt", "scope"])
        XCTAssertEqual(grant.customMirror.displayStyle, .struct)
        for rendering in renderings(grant) {
            XCTAssertFalse(rendering.contains(canary), rendering)
            XCTAssertTrue(rendering.contains("<redacted>"), rendering)
        }
    }

    func testCredentialsHideTheirSecrets() {
        let values: [Any] = [
            BasicCredentials(username: "user", password: canary),
            BearerToken(canary),
            APIKey(canary),
            OAuthClientCredentials(clientID: "client", secret: canary),
            HealthVaultApplicationCredential(applicationID: UUID(), sharedSecret: canary),
            HealthVaultSessionCredential(token: canary, sharedSecret: canary),
            AccessCredential.bearer(BearerToken(canary)),
            AccessCredential.apiKey(APIKey(canary)),
            PKCEPair(verifier: canary),
        ]
        for value in values {
            for text in renderings(value) { XCTAssertFalse(text.contains(canary), text) }
        }
    }

    func testRequestsAndResponsesHideCredentialsQueriesAndBodies() throws {
        let request = HTTPRequestMessage(
            method: .post, url: try XCTUnwrap(URL(string: "https://h.example/p?code=\(canary)")),
            headers: ["Authorization": "Bearer \(canary)", "x-vital-api-key": canary, "Accept": "application/json"],
            body: Data("refresh_token=\(canary)".utf8)
        )
        let response = HTTPResponseMessage(status: 400, headers: ["Set-Cookie": canary], body: Data(canary.utf8))
        for value in [request, response, UnexpectedResponseError(operation: "Token", response: response)] as [Any] {
            for text in renderings(value) { XCTAssertFalse(text.contains(canary), text) }
        }
        XCTAssertEqual(
            request.description,
            "POST https://h.example/p?<redacted>\nAuthorization: <redacted>\nx-vital-api-key: <redacted>\nAccept: application/json\n<27 bytes>"
        )
    }

    func testTransportErrorsCarryOnlyTheHost() throws {
        let error = TransportError(
            .timedOut, url: URL(string: "https://h.example/a?code=\(canary)"), detail: "URLError code -1001")
        XCTAssertEqual(
            String(describing: error), "Transport error (timedOut) talking to h.example: URLError code -1001")
    }
}
