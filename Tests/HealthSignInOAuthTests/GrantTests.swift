import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import XCTest

/// The grant a token response makes, what a refresh response keeps of the previous one, how it is stored, and when
/// it is refreshed or ended.
final class GrantTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func response(_ json: String) throws -> TokenResponse {
        try JSONCoding.decode(TokenResponse.self, from: Data(json.utf8))
    }

    func testARefreshResponseKeepsWhatItLeavesOut() throws {
        let first = try OAuthGrant(
            response(
                #"{"access_token": "a1", "token_type": "Bearer", "expires_in": 600, "refresh_token": "r1", "scope": "s1", "patient": "p1"}"#
            ), receivedAt: now)
        XCTAssertEqual(first.expiresAt, now.addingTimeInterval(600))
        XCTAssertEqual(first.members, ["patient": "p1"])
        let refreshed = try OAuthGrant(
            response(#"{"access_token": "a2", "token_type": "bearer", "tenant": "t"}"#), previous: first,
            receivedAt: now.addingTimeInterval(300))
        XCTAssertEqual(refreshed.accessToken, "a2")
        XCTAssertEqual(refreshed.refreshToken, "r1", "a refresh token that is not rotated stays")
        XCTAssertEqual(refreshed.scope, "s1")
        XCTAssertNil(refreshed.expiresAt, "no lifetime: the server did not say")
        XCTAssertEqual(refreshed.members, ["patient": "p1", "tenant": "t"])
        let rotated = try OAuthGrant(
            response(#"{"access_token": "a3", "token_type": "Bearer", "refresh_token": "r3"}"#), previous: refreshed,
            receivedAt: now)
        XCTAssertEqual(rotated.refreshToken, "r3", "a rotated refresh token replaces the old one")
    }

    func testAResponseThatCannotBeAGrantIsRefusedWithItsReason() throws {
        let cases: [(String, Bool, String)] = [
            (#"{"access_token": "", "token_type": "Bearer"}"#, true, "access_token is empty"),
            (#"{"access_token": "a", "token_type": "mac"}"#, true, #"token_type is "mac", expected Bearer"#),
            (#"{"access_token": "a"}"#, true, "token_type is missing, expected Bearer"),
            (#"{"access_token": "a", "token_type": "Bearer", "expires_in": -1}"#, true, "expires_in is negative"),
        ]
        for (json, requiresTokenType, reason) in cases {
            XCTAssertThrowsError(
                try OAuthGrant(response(json), receivedAt: now, requiresTokenType: requiresTokenType), json
            ) { error in
                XCTAssertEqual(error as? TokenResponseError, TokenResponseError(reason), json)
            }
        }
        XCTAssertNoThrow(try OAuthGrant(response(#"{"access_token": "a"}"#), receivedAt: now, requiresTokenType: false))
    }

    func testAGrantStoredBeforeScopeAndMembersWereKeptStillReads() throws {
        let stored = #"{"accessToken": "a", "refreshToken": "r", "expiresAt": 700000000}"#
        let grant = try JSONCoding.decode(OAuthGrant.self, from: Data(stored.utf8))
        XCTAssertEqual(
            grant, OAuthGrant(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSinceReferenceDate: 7e8))
        )
        let written = try JSONCoding.encode(grant)
        XCTAssertEqual(try JSONCoding.decode(OAuthGrant.self, from: written), grant)
    }

    func testAGrantNeverPrintsItsTokensOrMembers() {
        let grant = OAuthGrant(
            accessToken: "secret-access", refreshToken: "secret-refresh", scope: "launch", idToken: "secret-id",
            members: ["patient": "secret-member"])
        for text in [
            grant.description, String(reflecting: grant),
            {
                var dumped = ""
                dump(grant, to: &dumped)
                return dumped
            }(),
        ] {
            XCTAssertFalse(text.contains("secret"), text)
        }
        XCTAssertTrue(grant.description.contains("members: [\"patient\"]"), grant.description)
    }

    func testAGrantWithoutARefreshTokenServesUntilItExpires() {
        let rules = RefreshPolicy(skew: 60)
        let expiry = now.addingTimeInterval(600)
        let renewable = OAuthGrant(accessToken: "a", refreshToken: "r", expiresAt: expiry)
        let final = OAuthGrant(accessToken: "a", expiresAt: expiry)
        XCTAssertFalse(rules.needsRefresh(renewable, at: now.addingTimeInterval(539)))
        XCTAssertTrue(rules.needsRefresh(renewable, at: now.addingTimeInterval(540)), "within the skew")
        XCTAssertFalse(rules.needsRefresh(final, at: now.addingTimeInterval(599)), "nothing can renew it early")
        XCTAssertTrue(rules.needsRefresh(final, at: expiry))
        XCTAssertFalse(rules.needsRefresh(OAuthGrant(accessToken: "a"), at: .distantFuture), "no lifetime given")
    }

    func testOnlyATerminalCodeWithA4xxEndsAGrant() {
        let rules = RefreshPolicy(skew: 60)
        func error(_ code: String, _ status: Int) -> OAuthError {
            OAuthError(body: OAuthErrorBody(error: code), httpStatus: status, operation: "Token")
        }
        guard case .grantEnded = rules.refusal(error("invalid_grant", 400)) else { return XCTFail("invalid_grant") }
        guard case .grantEnded = rules.refusal(error("unauthorized_client", 401)) else {
            return XCTFail("unauthorized_client")
        }
        guard case .transient = rules.refusal(error("invalid_grant", 502)) else { return XCTFail("a 5xx keeps it") }
        guard case .clientRejected = rules.refusal(error("invalid_client", 401)) else { return XCTFail("client") }
        guard case .transient = rules.refusal(error("temporarily_unavailable", 503)) else { return XCTFail("503") }
        guard case .transient = rules.refusal(TransportError(.timedOut, url: nil, detail: "")) else {
            return XCTFail("network")
        }
    }

    func testAFamilyMaySetTheRecoveryOfACode() {
        let body = OAuthErrorBody(error: "invalid_scope")
        XCTAssertEqual(OAuthError(body: body, httpStatus: 400, operation: "Token").recovery, .fixRequest)
        let koppeltaal = OAuthError(body: body, httpStatus: 400, operation: "MobileAuthorize") { code in
            code == .invalidScope ? .reauthorize : code.recovery
        }
        XCTAssertEqual(koppeltaal.recovery, .reauthorize)
        XCTAssertEqual(koppeltaal.code, .invalidScope)
    }
}
