import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// What the SMART test server offers an app's tests beyond the emulator's journeys: the user's decisions, the
/// protocol faults as calls, a ledger without secrets, and time on a manual clock.
final class SMARTTestServerTests: XCTestCase {
    private func session(_ server: SMARTTestServer, store: any CredentialStore = InMemoryCredentialStore())
        -> SMARTSession
    {
        server.appSession(store: store)
    }

    func testTheUserDeniesOrClosesThePage() async throws {
        let server = SMARTTestServer()
        let session = session(server)
        await XCTAssertThrowsErrorAsync(try await session.authorize(with: server.browser(.deny))) { error in
            XCTAssertEqual((error as? SignInError)?.code, .authorizationDenied, "\(error)")
            XCTAssertEqual((error as? SignInError)?.serverError?.code, .accessDenied, "\(error)")
        }
        await XCTAssertThrowsErrorAsync(try await session.authorize(with: server.browser(.cancel))) { error in
            XCTAssertEqual(error as? AuthorizationBrowserError, .cancelled)
        }
        XCTAssertEqual(server.ledger.count(.redeemCode), 0, "no code was issued")
        let context = try await session.authorize(with: server.browser(.approve))
        XCTAssertEqual(context.patient, "smart-patient-1")
    }

    func testARefusedRefreshEndsTheGrantAndALostOneToo() async throws {
        let server = SMARTTestServer()
        let session = session(server)
        _ = try await session.authorize(with: server.browser())
        server.refuseNextRefresh()
        server.expireAccessTokens()
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
        await XCTAssertEqualAsync(try await session.status(), .signedOut)

        _ = try await session.authorize(with: server.browser())
        server.loseNextRefreshResponse()
        server.expireAccessTokens()
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
            XCTAssertEqual((error as? TransportError)?.kind, .connectionLost, "\(error)")
        }
        // The server rotated before the response was lost: the refresh token the app still holds is dead.
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
    }

    func testRotatedKeysAreFetchedAgainAndARevocationElsewhereEndsTheSession() async throws {
        let server = SMARTTestServer()
        server.settings.strictOpenID = true
        let session = session(server)
        _ = try await session.authorize(with: server.browser())
        server.rotateSigningKeys()
        server.expireAccessTokens()
        let read = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        XCTAssertEqual(read.status, 200, "the refresh's id token is signed with a key the app had not seen")
        XCTAssertEqual(server.ledger.count(.keySet), 2)
        server.revokeAllGrants()
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
            XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
        }
        XCTAssertEqual(server.liveRefreshTokens, 0)
    }

    func testTheLedgerNamesEveryRequestAndShowsNoSecret() async throws {
        let server = SMARTTestServer()
        let session = session(server)
        _ = try await session.authorize(with: server.browser())
        server.expireAccessTokens()
        _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        XCTAssertEqual(
            server.ledger.entries.compactMap(\.operation),
            [
                .smartConfiguration, .authorize, .authorizationDecision, .redeemCode, .keySet, .readResource,
                .refreshToken, .readResource,
            ])
        let text = server.ledger.description
        for secret in ["code=", "code_verifier=", "refresh_token="] {
            XCTAssertTrue(text.contains(secret + Redaction.placeholder), "\(secret) in\n\(text)")
        }
        for entry in server.ledger.entries {
            let body = String(decoding: entry.request.body ?? Data(), as: UTF8.self)
            for pair in FormFields(formEncoded: body).pairs where ["code", "refresh_token"].contains(pair.name) {
                XCTAssertFalse(text.contains(pair.value), "a \(pair.name) is in the ledger's description")
            }
        }
    }

    func testFaultsStrikeTheNextRequestsToTheirEndpointAndAnUnknownHostIsUnreachable() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let server = SMARTTestServer(clock: clock)
        server.faults.inject(.status(503, retryAfter: 30), at: server.tokenURL, count: 2)
        server.faults.inject(.slow(seconds: 90), at: server.fhirBaseURL)
        XCTAssertEqual(server.faults.pending, 3)
        let transport = server.transport(timeout: 60)
        let token = HTTPRequestMessage(method: .post, url: server.tokenURL)
        for _ in 0..<2 {
            let response = try await transport.send(token)
            XCTAssertEqual(response.status, 503)
            XCTAssertEqual(response.headers["Retry-After"], "30")
        }
        let third = try await transport.send(token)
        XCTAssertEqual(third.status, 400, "the third request is answered")
        await XCTAssertThrowsErrorAsync(
            try await transport.send(
                HTTPRequestMessage(method: .get, url: server.fhirBaseURL.appendingPathComponent("metadata")))
        ) { error in
            XCTAssertEqual((error as? TransportError)?.kind, .timedOut)
        }
        XCTAssertEqual(clock.now(), Date(timeIntervalSince1970: 1_800_000_090), "the slow answer took the clock's time")
        XCTAssertEqual(server.faults.pending, 0)
        await XCTAssertThrowsErrorAsync(
            try await transport.send(HTTPRequestMessage(method: .get, url: URL(string: "https://elsewhere.test/")!))
        ) { error in
            XCTAssertEqual((error as? TransportError)?.kind, .cannotConnect)
        }
    }

    func testTokensExpireOnTheServersClockAndSeededServersIssueTheSameTokens() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let server = SMARTTestServer(clock: clock)
        let session = session(server)
        _ = try await session.authorize(with: server.browser())
        clock.advance(by: 3600)
        _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
        XCTAssertEqual(server.ledger.count(.refreshToken), 1, "an hour later the token had expired")

        let first = SMARTTestServer(random: SeededRandomSource(seed: "kit"))
        let second = SMARTTestServer(random: SeededRandomSource(seed: "kit"))
        let launches = [first, second].map { $0.mintLaunch(.init(patient: "p-1")) }
        XCTAssertEqual(launches[0], launches[1])
    }
}
