import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Random sequences of sign-ins, sign-outs, reconciles, calls, clock jumps, server refusals, relaunches and transport
/// faults against a rotating-token server, on two instances sharing one store, checked after every step by a
/// ``LifecycleMonitor``. `make stress` runs 10,000 sequences; set `LIFECYCLE_STRESS_SEED` to replay one.
final class LifecycleStressTests: XCTestCase {
    private static let users = [
        SignInTokenTests.userID, UUID(uuidString: "11111111-2222-4333-8444-555555555555")!,
        UUID(uuidString: "66666666-7777-4888-9999-aaaaaaaaaaaa")!,
    ]

    func testRandomSequencesKeepTheLifecycleInvariants() async throws {
        let tokens = try Self.users.map { try VitalSessionTests.forgedToken(uid: $0.uuidString) }
        let tally = await runLifecycleStress("HealthSignInVitalTests.LifecycleStressTests", defaultSequences: 1000) {
            random in
            await Self.sequence(random, tokens: tokens)
        }
        for name in [
            "signIn ok", "signOut ok", "reconcile ok", "call ok", "refresh requests", "faults", "store removals",
        ] {
            XCTAssertGreaterThan(tally[name], 0, "no sequence reached \(name)")
        }
    }

    /// Sequence 680 of the fixed seed (seed 3142272) once failed in a full run and never again alone (3,000 replays
    /// and 54,000 other sequences clean): it cancels a call at a point that moves from run to run, so it is replayed
    /// here many times, each a fresh draw of that timing.
    func testTheSequenceThatOnceFailedHoldsOnRepeat() async throws {
        let tokens = try Self.users.map { try VitalSessionTests.forgedToken(uid: $0.uuidString) }
        for replay in 0..<40 {
            let monitor = await Self.sequence(StressRandom(seed: 3_142_272), tokens: tokens)
            XCTAssertEqual(monitor.violations, [], "replay \(replay):\n\(monitor.trace.joined(separator: "\n"))")
            if !monitor.violations.isEmpty { break }
        }
    }

    private static func sequence(_ random: StressRandom, tokens: [String]) async -> LifecycleMonitor {
        let server = FakeVitalServer()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let monitor = LifecycleMonitor(storedVersion: TokenLedger.accessVersion(inJSON:), carried: carried)
        let store = monitor.store(InMemoryCredentialStore())
        let faultRate = random.pick([(1, 0.0), (2, 0.1), (1, 0.3)])
        func core(_ instance: Int) -> VitalSession {
            let transport = monitor.transport(instance: instance, random: random, faultRate: faultRate) {
                server.answer($0)
            }
            return VitalSession(
                configuration: .init(
                    store: store, transport: transport, clock: clock, logger: monitor.logger(instance: instance)))
        }
        var instances = [core(1), core(2)]
        await monitor.run(
            steps: 4...12, random: random,
            events: [
                (4, ("", {})),
                (3, ("clock jumps", { clock.advance(by: TimeInterval(random.int(in: 60...7200))) })),
                (1, ("server expires access tokens", { server.ledger.expireAccessTokens() })),
                (
                    1,
                    (
                        "server deletes a user",
                        {
                            server.ledger.deleteSubject(
                                Self.users[random.int(in: 0...(Self.users.count - 1))].uuidString.lowercased())
                        }
                    )
                ),
                (
                    1,
                    (
                        "server revokes the newest refresh token",
                        { server.ledger.liveRefreshTokens.last.map(server.ledger.revoke) }
                    )
                ),
                (1, ("relaunch", { instances = [core(1), core(2)] })),
            ]
        ) {
            let first = instances[0]
            let any = instances[random.int(in: 0...1)]
            let token = tokens[random.int(in: 0...(tokens.count - 1))]
            return [
                (3, LifecycleMonitor.operation("signIn") { _ = try await first.signIn(token: token) }),
                (
                    2,
                    LifecycleMonitor.operation("signOut") {
                        let issued = server.ledger.grantsIssued
                        try await first.signOut()
                        monitor.eraseReturned(grantsUpTo: issued)
                    }
                ),
                (
                    1,
                    LifecycleMonitor.operation("reconcile") {
                        let issued = server.ledger.grantsIssued
                        let outcome = try await first.reconcile(appUserID: random.chance(0.2) ? nil : "app-user") {
                            token
                        }
                        if outcome == .signedOut { monitor.eraseReturned(grantsUpTo: issued) }
                    }
                ),
                (6, LifecycleMonitor.operation("call") { _ = try await any.connectedProviders() }),
                (2, LifecycleMonitor.operation("accessToken") { _ = try await any.accessToken() }),
                (
                    1,
                    LifecycleMonitor.operation("cancelledCall") {
                        let call = Task { _ = try await any.connectedProviders() }
                        for _ in 0..<random.int(in: 0...4) { await Task.yield() }
                        call.cancel()
                        _ = await call.result
                    }
                ),
            ]
        }
        return monitor
    }

    /// The token a request carries: a refresh token redeemed, or an access token used.
    private static func carried(_ request: HTTPRequestMessage) -> LifecycleMonitor.Carried? {
        if request.url.path.hasSuffix("/v1/token") {
            let form = FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))
            return form["refresh_token"].flatMap(TokenLedger.version(of:)).map { .init($0, isRefresh: true) }
        }
        let bearer = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) }
        return bearer.flatMap(TokenLedger.version(of:)).map { .init($0, isRefresh: false) }
    }
}
