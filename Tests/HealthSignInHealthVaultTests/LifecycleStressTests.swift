import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Random sequences of provisioning, authorization, disconnection, calls, expired sessions, relaunches and transport
/// faults against a platform that creates a new session each time, on two connections sharing one store, checked
/// after every step by a ``LifecycleMonitor``. A credential's version is its child application and session number
/// (`session.3.2` is application 3's second session; 0 before the first). `make stress` runs 10,000 sequences; set
/// `LIFECYCLE_STRESS_SEED` to replay one.
final class LifecycleStressTests: XCTestCase {
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!

    func testRandomSequencesKeepTheLifecycleInvariants() async throws {
        let tally = await runLifecycleStress(
            "HealthSignInHealthVaultTests.LifecycleStressTests", defaultSequences: 1000
        ) {
            random in
            await Self.sequence(random)
        }
        for name in [
            "provision ok", "authorize ok", "disconnect ok", "call ok", "refresh requests", "faults", "store removals",
        ] {
            XCTAssertGreaterThan(tally[name], 0, "no sequence reached \(name)")
        }
    }

    private static func sequence(_ random: StressRandom) async -> LifecycleMonitor {
        let server = FakeHealthVaultServer()
        let monitor = LifecycleMonitor(storedVersion: storedVersion, carried: carried)
        let store = monitor.store(InMemoryCredentialStore())
        let faultRate = random.pick([(1, 0.0), (2, 0.1), (1, 0.3)])
        func connection(_ instance: Int) -> HealthVaultConnection {
            let transport = monitor.transport(instance: instance, random: random, faultRate: faultRate) {
                server.answer($0)
            }
            return HealthVaultConnection(
                configuration: .init(
                    defaultPlatformURL: FakeHealthVaultServer.platformURL,
                    defaultShellURL: FakeHealthVaultServer.shellURL,
                    store: store,
                    client: .init(
                        transport: transport, envelope: .init(clientVersion: "test"),
                        logger: monitor.logger(instance: instance))
                ))
        }
        var instances = [connection(1), connection(2)]
        await monitor.run(
            steps: 4...12, random: random,
            events: [
                (6, ("", {})),
                (2, ("server expires sessions", { server.expireSessions() })),
                (1, ("relaunch", { instances = [connection(1), connection(2)] })),
            ]
        ) {
            let first = instances[0]
            let any = instances[random.int(in: 0...1)]
            let call: @Sendable () async throws -> Void = {
                _ = try await any.withSession { client, session in
                    try await client.getAuthorizedPeople(session: session)
                }
            }
            return [
                (
                    2,
                    LifecycleMonitor.operation("provision") { _ = try await first.provision(masterAppID: Self.master) }
                ),
                (
                    2,
                    LifecycleMonitor.operation("authorize") {
                        let created = server.count("NewApplicationCreationInfo")
                        try await first.completeAuthorization(
                            redirect: FakeHealthVaultServer.completion(max(created, 1)))
                    }
                ),
                (
                    1,
                    LifecycleMonitor.operation("disconnect") {
                        let created = server.count("NewApplicationCreationInfo")
                        try await first.disconnect()
                        monitor.eraseReturned(grantsUpTo: created)
                    }
                ),
                (6, LifecycleMonitor.operation("call", call)),
                (
                    1,
                    LifecycleMonitor.operation("cancelledCall") {
                        let task = Task { try await call() }
                        for _ in 0..<random.int(in: 0...4) { await Task.yield() }
                        task.cancel()
                        _ = await task.result
                    }
                ),
            ]
        }
        return monitor
    }

    /// The stored state's version: its session's application and number, or its application and 0 before a session.
    private static func storedVersion(_ data: Data) -> TokenLedger.Version? {
        let text = String(decoding: data, as: UTF8.self)
        if let token = firstMatch(#"session\.\d+\.\d+"#, in: text),
            let session = FakeHealthVaultServer.session(of: token)
        {
            return .init(grant: session.application, rotation: session.number)
        }
        return applicationNumber(in: text).map { .init(grant: $0, rotation: 0) }
    }

    /// What a request carries: the application secret when it asks for a session, the session when it makes a call.
    private static func carried(_ request: HTTPRequestMessage) -> LifecycleMonitor.Carried? {
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        if body.contains("<method>CreateAuthenticatedSessionToken</method>") {
            return applicationNumber(in: body).map { .init(.init(grant: $0, rotation: 0), isRefresh: true) }
        }
        guard let token = firstMatch(#"session\.\d+\.\d+"#, in: body),
            let session = FakeHealthVaultServer.session(of: token)
        else {
            return nil
        }
        return .init(.init(grant: session.application, rotation: session.number), isRefresh: false)
    }

    /// The number of the first child application id (`00000000-0000-4000-8000-<number>`) in `text`.
    private static func applicationNumber(in text: String) -> Int? {
        firstMatch(#"(?i)00000000-0000-4000-8000-\d{12}"#, in: text).flatMap { Int($0.suffix(12)) }
    }

    private static func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let range = text.range(of: pattern, options: .regularExpression) else { return nil }
        return String(text[range])
    }
}
