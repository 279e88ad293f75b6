import Foundation
import HealthSignInPostgres
import Logging
import PostgresNIO
import ServiceLifecycle
import XCTest

/// The store in a service group, on the app's own `PostgresClient`: one pool for the app and the store, and a
/// graceful shutdown that stops the store's listening before the client closes.
final class ServiceLifecycleTests: XCTestCase {
    /// Stands in for the app's HTTP server: it runs until the group shuts down.
    private struct AppStandIn: Service {
        func run() async throws { try? await gracefulShutdown() }
    }

    func testTheStoreRunsOnTheAppsClientAndClosesWithItsServiceGroup() async throws {
        let logger = Logger(label: "service-lifecycle-test")
        let postgres = PostgresClient(
            configuration: .init(
                host: try TestDatabase.variable("HEALTHSIGNIN_POSTGRES_HOST"),
                port: Int(try TestDatabase.variable("HEALTHSIGNIN_POSTGRES_PORT")) ?? 5432,
                username: try TestDatabase.variable("HEALTHSIGNIN_POSTGRES_USER"), password: nil,
                database: try TestDatabase.variable("HEALTHSIGNIN_POSTGRES_DATABASE"), tls: .disable))
        let app = AppStandIn()
        // snippet doc-postgres-service-group
        let store = try PostgresCredentialStore(client: postgres)
        let services = ServiceGroup(
            configuration: .init(services: [postgres, store, app], gracefulShutdownSignals: [.sigterm], logger: logger))
        // end snippet
        let table = TestDatabase.freshTable()
        let onTheClient = try PostgresCredentialStore(client: postgres, configuration: .init(table: table))
        let other = try TestDatabase.store(table: table)
        let feed = try XCTUnwrap(onTheClient.changes)
        try await withThrowingTaskGroup(of: Void.self) { group -> Void in
            group.addTask { try await services.run() }
            group.addTask { try await ServiceGroup(services: [onTheClient], logger: logger).run() }
            try await store.write(Data("shared pool".utf8), for: "k")
            let stored = try await store.read("k")
            XCTAssertEqual(stored, Data("shared pool".utf8))

            // Listening on the client's pool: a write by another instance moves the mark.
            let live = try await eventually { feed.mark(for: "k") }
            try await other.write(Data("elsewhere".utf8), for: "k")
            let moved = try await eventually { feed.mark(for: "k").flatMap { $0 == live ? nil : $0 } }
            XCTAssertEqual(moved.epoch, live.epoch)

            await services.triggerGracefulShutdown()
            group.cancelAll()
            try await group.waitForAll()
        }
        XCTAssertNil(feed.mark(for: "k"), "the store stopped listening when its group shut down")
        other.close()
    }

    private struct NoValue: Error {}

    /// Polls `probe` every 20 ms for up to 10 s until it gives a value.
    private func eventually<Value>(_ probe: () -> Value?) async throws -> Value {
        for _ in 0..<500 {
            if let value = probe() { return value }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw NoValue()
    }
}
