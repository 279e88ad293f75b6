import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// Where the store's statements run: its own connections, or a `PostgresClient` the app already runs.
protocol StatementRunner: Sendable {
    /// Runs `statement` on a connection, ending by the runner's deadline with ``StatementTimedOut``.
    func run<Result: Sendable>(_ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>)
        async throws -> Result
    /// Listens on `channel` until the connection ends: `ready` once the server confirmed `LISTEN`, then `received`
    /// with each notification's payload.
    func listen(
        on channel: String, ready: @escaping @Sendable () -> Void, received: @escaping @Sendable (String) -> Void
    ) async throws
    /// Closes what the runner owns.
    func close()
}

extension ConnectionPool: StatementRunner {
    func run<Result: Sendable>(_ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>)
        async throws -> Result
    {
        // At most `maximumOpen` statements hold a connection at once, so a burst of calls cannot open more
        // connections than the server allows; the others wait their turn.
        try await openSlots.take()
        defer { openSlots.give() }
        return try await run(statement).get()
    }

    func listen(
        on channel: String, ready: @escaping @Sendable () -> Void, received: @escaping @Sendable (String) -> Void
    ) async throws {
        // The connection's own connect timeout (the store's timeout) bounds the wait; a deadline around it could drop
        // a connection that opens just after it, unclosed.
        let connection = try await connect().get()
        defer { connection.closeNow() }
        try await connection.listen(on: channel) { notifications in
            ready()
            for try await notification in notifications { received(notification.payload) }
        }
    }
}

/// Statements on connections leased from an app's `PostgresClient`, which the app runs (`run()`, or its service
/// group), so the store and the app share one pool.
struct ClientRunner: StatementRunner {
    let client: PostgresClient
    let timeout: TimeInterval

    func run<Result: Sendable>(_ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>)
        async throws -> Result
    {
        try await withDeadline(seconds: timeout * 2) {
            try await client.withConnection { connection in try await statement(connection).get() }
        }
    }

    func listen(
        on channel: String, ready: @escaping @Sendable () -> Void, received: @escaping @Sendable (String) -> Void
    ) async throws {
        try await client.withConnection { connection in
            try await connection.listen(on: channel) { notifications in
                ready()
                for try await notification in notifications { received(notification.payload) }
            }
        }
    }

    func close() {}
}

/// `operation`'s result, or ``StatementTimedOut`` once `seconds` have passed; the operation is cancelled then and
/// left to end on its own, so a server that never answers holds the caller no longer than the deadline.
func withDeadline<Result: Sendable>(
    seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Result
) async throws -> Result {
    let work = Task { try await operation() }
    let finished = NIOLockedValueBox(false)
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            let finish: @Sendable (Swift.Result<Result, any Error>) -> Void = { result in
                let first = finished.withLockedValue { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            let timer = Task {
                try? await Task.sleep(for: .milliseconds(Int64((max(seconds, 0.001) * 1_000).rounded(.up))))
                work.cancel()
                finish(.failure(StatementTimedOut(seconds: seconds)))
            }
            Task {
                let result = await work.result
                timer.cancel()
                finish(result)
            }
        }
    } onCancel: {
        work.cancel()
    }
}
