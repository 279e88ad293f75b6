import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// Interleavings of a SMART session's lifecycle, each forced with a gated transport against a rotating-token server,
/// and the life of a grant that has no refresh token.
final class LifecycleRaceTests: XCTestCase {
    private var server: FakeSMARTServer!
    private var transport: GatedTransport!
    private let store = InMemoryCredentialStore()
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    override func setUp() {
        let server = FakeSMARTServer()
        self.server = server
        transport = GatedTransport { server.answer($0) }
    }

    private func session(scope: String = "launch/patient offline_access patient/*.rs") -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: FakeSMARTServer.fhirBaseURL, client: OAuthClientCredentials(clientID: "app"),
                    redirectURI: "app://cb"), scope: scope,
                session: OAuthSessionSettings(store: store, options: ClientOptions(transport: transport), clock: clock))
        )
    }

    /// The redirect the browser would hand back for `url` with the code `ac-<subject>`.
    private static func redirect(for url: URL, subject: String) throws -> URL {
        try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "ac-\(subject)"))
    }

    private static func isRefresh(_ request: HTTPRequestMessage) -> Bool {
        FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))["grant_type"]
            == "refresh_token"
    }

    func testARefusedRefreshKeepsAnAuthorizationStartedMeanwhile() async throws {
        let session = session()
        let first = try await session.standaloneAuthorizationURL()
        _ = try await session.completeAuthorization(redirectURL: try Self.redirect(for: first, subject: "alice"))
        clock.advance(by: 900)
        let refresh = transport.hold(Self.isRefresh)
        let call = Task { try await session.fhir(.fhir("Patient", id: "1")) }
        _ = await refresh.arrival()
        // While the refresh is out, the user starts another launch; then the server refuses the old grant.
        let second = try await session.standaloneAuthorizationURL()
        server.ledger.revoke(TokenLedger.refreshToken(.init(grant: 1, rotation: 0)))
        refresh.release()
        await XCTAssertThrowsErrorAsync(try await call.value) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
        await XCTAssertEqualAsync(try await session.status(), .awaitingRedirect)
        let context = try await session.completeAuthorization(
            redirectURL: try Self.redirect(for: second, subject: "bob"))
        XCTAssertEqual(context.patient, "2")
    }

    func testAGrantWithoutARefreshTokenServesUntilItExpiresAndThenEnds() async throws {
        // The server lets this token live 30 s, less than the session's 60 s refresh skew, and gives no refresh token.
        let answer = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"access_token": "short", "token_type": "Bearer", "expires_in": 30, "patient": "1"}"#.utf8))
        let server = self.server!
        transport = GatedTransport { request in
            request.url == FakeSMARTServer.tokenURL ? answer : server.answer(request)
        }
        let session = session(scope: "launch/patient patient/*.rs")
        let url = try await session.standaloneAuthorizationURL()
        _ = try await session.completeAuthorization(redirectURL: try Self.redirect(for: url, subject: "alice"))
        let token = try await session.accessToken()
        XCTAssertEqual(token.value, "short")
        clock.advance(by: 29)
        await XCTAssertEqualAsync(try await session.accessToken().value, "short")
        clock.advance(by: 2)
        await XCTAssertThrowsErrorAsync(try await session.accessToken()) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
        await XCTAssertEqualAsync(try await session.status(), .signedOut)
        XCTAssertFalse(transport.requests.contains(where: Self.isRefresh), "nothing can be refreshed without a token")
    }

    // MARK: - Two instances sharing a store without a lock

    /// Two sessions on one store that has no lock, each with its own transport to the server.
    private func twoInstances() -> (SMARTSession, GatedTransport, SMARTSession, GatedTransport) {
        let store = LocklessStore()
        let server = self.server!
        func instance() -> (SMARTSession, GatedTransport) {
            let transport = GatedTransport { server.answer($0) }
            let session = SMARTSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: FakeSMARTServer.fhirBaseURL, client: OAuthClientCredentials(clientID: "app"),
                        redirectURI: "app://cb"), scope: "launch/patient offline_access patient/*.rs",
                    session: OAuthSessionSettings(
                        store: store, options: ClientOptions(transport: transport), clock: clock)))
            return (session, transport)
        }
        let (first, firstTransport) = instance()
        let (second, secondTransport) = instance()
        return (first, firstTransport, second, secondTransport)
    }

    func testARefusedRefreshDoesNotEraseTheGrantAnotherInstanceJustRotated() async throws {
        let (first, firstTransport, second, secondTransport) = twoInstances()
        let url = try await first.standaloneAuthorizationURL()
        _ = try await first.completeAuthorization(redirectURL: try Self.redirect(for: url, subject: "alice"))
        _ = try await second.status()
        clock.advance(by: 900)
        // The second instance's refresh is out with rt.1.0 while the first one rotates the grant to rt.1.1.
        let held = secondTransport.hold(Self.isRefresh)
        let stale = Task { try await second.fhir(.fhir("Patient", id: "1")) }
        _ = await held.arrival()
        _ = try await first.fhir(.fhir("Patient", id: "1"))
        held.release()
        // The server refuses rt.1.0 (rotated out); the grant the first instance stored must survive that.
        let answer = try await stale.value
        XCTAssertEqual(answer.status, 200, "the second instance uses the grant the first one stored")
        XCTAssertEqual(server.ledger.refusals, [.rotatedOut])
        await XCTAssertEqualAsync(
            try await first.accessToken().value, TokenLedger.accessToken(.init(grant: 1, rotation: 1)))
        XCTAssertEqual(firstTransport.requests.filter(Self.isRefresh).count, 1)
    }

    func testARefreshDoesNotSendAGrantAnotherInstanceRevokedWhileItLookedUpTheServer() async throws {
        let (first, _, second, secondTransport) = twoInstances()
        let url = try await first.standaloneAuthorizationURL()
        _ = try await first.completeAuthorization(redirectURL: try Self.redirect(for: url, subject: "alice"))
        _ = try await second.status()
        clock.advance(by: 900)
        // The server's endpoints are forgotten (the first instance still holds them in memory), so the second
        // instance's refresh, having read the grant from the store, looks them up before it sends the refresh token;
        // the first instance revokes the grant meanwhile.
        try await second.oauth.discovery.invalidate(FakeSMARTServer.fhirBaseURL)
        let lookup = secondTransport.hold { $0.url.path.hasSuffix("/.well-known/smart-configuration") }
        let call = Task { try await second.fhir(.fhir("Patient", id: "1")) }
        _ = await lookup.arrival()
        _ = try await first.revoke()
        lookup.release()
        await XCTAssertThrowsErrorAsync(try await call.value) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
        XCTAssertEqual(
            secondTransport.requests.filter(Self.isRefresh).count, 0, "the revoked grant's refresh token is not sent")
        XCTAssertEqual(server.ledger.refusals, [])
        await XCTAssertEqualAsync(try await second.status(), .signedOut)
    }

    func testARefreshInFlightDoesNotWriteBackAGrantAnotherInstanceRevoked() async throws {
        let (first, firstTransport, second, _) = twoInstances()
        let url = try await first.standaloneAuthorizationURL()
        _ = try await first.completeAuthorization(redirectURL: try Self.redirect(for: url, subject: "alice"))
        _ = try await second.status()
        clock.advance(by: 900)
        // The server has answered the first instance's refresh, and the answer is on its way back.
        let held = firstTransport.hold(afterServer: true, Self.isRefresh)
        let call = Task { try await first.fhir(.fhir("Patient", id: "1")) }
        _ = await held.arrival()
        _ = try await second.revoke()
        held.release()
        await XCTAssertThrowsErrorAsync(try await call.value) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
        await XCTAssertEqualAsync(try await first.status(), .signedOut)
        await XCTAssertEqualAsync(try await second.status(), .signedOut)
    }
}
