import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// Random sequences of launches, revocations, FHIR calls, clock jumps, server refusals, relaunches and transport
/// faults against a rotating-token server, on two sessions sharing one store (with a lock or without), checked after
/// every step by a ``LifecycleMonitor``. `make stress` runs 10,000 sequences; set `LIFECYCLE_STRESS_SEED` to replay one.
final class LifecycleStressTests: XCTestCase {
    func testRandomSequencesKeepTheLifecycleInvariants() async throws {
        let tally = await runLifecycleStress("HealthSignInSMARTTests.LifecycleStressTests", defaultSequences: 1000) {
            random in
            await Self.sequence(random)
        }
        for name in [
            "launch ok", "revoke ok", "fhir ok", "refresh requests", "faults", "store removals",
            "stores without a lock",
        ] {
            XCTAssertGreaterThan(tally[name], 0, "no sequence reached \(name)")
        }
    }

    private static func sequence(_ random: StressRandom) async -> LifecycleMonitor {
        let server = FakeSMARTServer()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let monitor = LifecycleMonitor(storedVersion: TokenLedger.accessVersion(inJSON:), carried: carried)
        // A store with a lock, or one without (a custom store): compare-and-swap writes keep the invariants in both.
        let lockless = random.int(in: 0...1) == 1
        if lockless { monitor.count("stores without a lock") }
        let store = monitor.store(lockless ? LocklessStore() : InMemoryCredentialStore())
        let faultRate = random.pick([(1, 0.0), (2, 0.1), (1, 0.3)])
        let codes = LockedValue(0)
        func session(_ instance: Int) -> SMARTSession {
            let transport = monitor.transport(instance: instance, random: random, faultRate: faultRate) {
                server.answer($0)
            }
            return SMARTSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: FakeSMARTServer.fhirBaseURL, client: OAuthClientCredentials(clientID: "app"),
                        redirectURI: "app://cb"), scope: "launch/patient offline_access patient/*.rs",
                    session: OAuthSessionSettings(
                        store: store,
                        options: ClientOptions(transport: transport, logger: monitor.logger(instance: instance)),
                        clock: clock)))
        }
        var instances = [session(1), session(2)]
        await monitor.run(
            steps: 4...12, random: random,
            events: [
                (4, ("", {})),
                (3, ("clock jumps", { clock.advance(by: TimeInterval(random.int(in: 30...1800))) })),
                (1, ("server expires access tokens", { server.ledger.expireAccessTokens() })),
                (
                    1,
                    (
                        "server revokes the newest refresh token",
                        { server.ledger.liveRefreshTokens.last.map(server.ledger.revoke) }
                    )
                ),
                (1, ("relaunch", { instances = [session(1), session(2)] })),
            ]
        ) {
            let first = instances[0]
            let any = instances[random.int(in: 0...1)]
            return [
                (
                    3,
                    LifecycleMonitor.operation("launch") {
                        let code = codes.withValue { code -> Int in
                            code += 1
                            return code
                        }
                        let url = try await first.standaloneAuthorizationURL()
                        let redirect = FakeSMARTServer.redirect(for: url, code: "ac-\(code)")
                        _ = try await first.completeAuthorization(redirectURL: try XCTUnwrap(redirect))
                    }
                ),
                (
                    2,
                    LifecycleMonitor.operation("revoke") {
                        let issued = server.ledger.grantsIssued
                        _ = try await first.revoke()
                        monitor.eraseReturned(grantsUpTo: issued)
                    }
                ),
                (6, LifecycleMonitor.operation("fhir") { _ = try await any.fhir(.fhir("Patient", id: "1")) }),
                (2, LifecycleMonitor.operation("accessToken") { _ = try await any.accessToken() }),
                (
                    1,
                    LifecycleMonitor.operation("cancelledCall") {
                        let call = Task { _ = try await any.fhir(.fhir("Patient", id: "1")) }
                        for _ in 0..<random.int(in: 0...4) { await Task.yield() }
                        call.cancel()
                        _ = await call.result
                    }
                ),
            ]
        }
        return monitor
    }

    private static func form(_ request: HTTPRequestMessage) -> FormFields {
        FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))
    }

    /// The token a request carries: a refresh token redeemed, or an access token used. The revocation request is part
    /// of the erase itself, and discovery carries none.
    private static func carried(_ request: HTTPRequestMessage) -> LifecycleMonitor.Carried? {
        switch request.url {
        case FakeSMARTServer.tokenURL:
            return form(request)["refresh_token"].flatMap(TokenLedger.version(of:)).map { .init($0, isRefresh: true) }
        case FakeSMARTServer.revokeURL:
            return nil
        default:
            let bearer = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) }
            return bearer.flatMap(TokenLedger.version(of:)).map { .init($0, isRefresh: false) }
        }
    }
}
