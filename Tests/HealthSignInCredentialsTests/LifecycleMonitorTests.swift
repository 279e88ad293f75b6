import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// The stress runs' judge of invariant (d): a request is judged by what was erased when its lease check read the
/// store, however long its thread then waits before the transport has it.
final class LifecycleMonitorTests: XCTestCase {
    private let key = "credential"

    private func monitor() -> LifecycleMonitor {
        LifecycleMonitor(storedVersion: TokenLedger.accessVersion(inJSON:)) { request in
            request.headers["Authorization"].flatMap { TokenLedger.version(of: String($0.dropFirst("Bearer ".count))) }
                .map { .init($0, isRefresh: false) }
        }
    }

    private func request() -> HTTPRequestMessage {
        HTTPRequestMessage(
            method: .get, url: URL(string: "https://api.example.test/data")!,
            headers: ["Authorization": "Bearer " + TokenLedger.accessToken(.init(grant: 1, rotation: 0))])
    }

    private func transport(_ monitor: LifecycleMonitor) -> any HTTPTransport {
        monitor.transport(instance: 1, random: StressRandom(seed: 1), faultRate: 0) { _ in
            HTTPResponseMessage(status: 200, body: Data())
        }
    }

    func testARequestWhoseCheckReadTheStoreBeforeTheEraseIsNotCounted() async throws {
        let monitor = monitor()
        let store = monitor.store(InMemoryCredentialStore())
        try await store.write(Data(#"{"accessToken":"at.1.0"}"#.utf8), for: key)
        _ = try await store.read(key)
        // The thread is preempted after its check; meanwhile the erase returns and steps end.
        monitor.eraseReturned(grantsUpTo: 1)
        _ = try await transport(monitor).send(request())
        XCTAssertEqual(monitor.violations, [])
    }

    func testARequestWhoseCheckReadTheStoreAfterTheEraseIsCounted() async throws {
        let monitor = monitor()
        let store = monitor.store(InMemoryCredentialStore())
        try await store.write(Data(#"{"accessToken":"at.1.0"}"#.utf8), for: key)
        monitor.eraseReturned(grantsUpTo: 1)
        _ = try await store.read(key)
        _ = try await transport(monitor).send(request())
        XCTAssertEqual(monitor.violations, ["(d) instance 1 sent 1.0 after its erase completed"])
    }

    func testARequestSentWithoutReadingTheStoreIsJudgedWhenSent() async throws {
        let monitor = monitor()
        let store = monitor.store(InMemoryCredentialStore())
        try await store.write(Data(#"{"accessToken":"at.1.0"}"#.utf8), for: key)
        _ = try await store.read(key)
        _ = try await transport(monitor).send(request())
        monitor.eraseReturned(grantsUpTo: 1)
        // The read above was consumed by the first request: this one had no check of its own.
        _ = try await transport(monitor).send(request())
        XCTAssertEqual(monitor.violations, ["(d) instance 1 sent 1.0 after its erase completed"])
    }
}
