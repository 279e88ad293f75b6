import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// The store's own connections: opened when needed, kept while idle up to a bound, dropped once they fail. Every
/// statement runs on the event loops under a deadline, so a caller waiting for one is never held longer than twice
/// the store's timeout.
final class ConnectionPool: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let maximumIdle: Int
    private let timeout: TimeAmount
    /// The timeout in seconds.
    let timeoutSeconds: TimeInterval
    private let idle = NIOLockedValueBox<[PostgresConnection]>([])
    /// The turns for statements holding a connection.
    let openSlots: AsyncSlots
    private let nextID = NIOLockedValueBox(0)

    init(
        configuration: PostgresConnection.Configuration, eventLoopGroup: any EventLoopGroup, logger: Logger,
        maximumIdle: Int, maximumOpen: Int, timeout: TimeInterval
    ) {
        openSlots = AsyncSlots(max(1, maximumOpen))
        var configuration = configuration
        self.timeout = .milliseconds(Int64((max(timeout, 0.001) * 1_000).rounded(.up)))
        timeoutSeconds = max(timeout, 0.001)
        configuration.options.connectTimeout = self.timeout
        self.configuration = configuration
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        self.maximumIdle = maximumIdle
    }

    /// Runs `statement` on a connection. Connecting and the statement together end by twice the timeout: past it, the
    /// connection is closed and the statement fails with ``StatementTimedOut``, whatever state it was in.
    func run<Result: Sendable>(_ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>)
        -> EventLoopFuture<Result>
    {
        let loop = eventLoopGroup.next()
        let connecting: EventLoopFuture<PostgresConnection>
        if let pooled = idle.withLockedValue({ $0.popLast() }), !pooled.isClosed {
            connecting = loop.makeSucceededFuture(pooled)
        } else {
            connecting = connect(on: loop)
        }
        let promise = loop.makePromise(of: Result.self)
        let exchange = NIOLockedValueBox<(connection: PostgresConnection?, finished: Bool)>((nil, false))
        let finish: @Sendable (Swift.Result<Result, any Error>) -> Bool = { result in
            let first = exchange.withLockedValue { state -> Bool in
                defer { state.finished = true }
                return !state.finished
            }
            if first { promise.completeWith(result) }
            return first
        }
        let seconds = timeoutSeconds * 2
        let deadline = loop.scheduleTask(in: timeout + timeout) {
            exchange.withLockedValue { $0.connection }?.closeNow()
            _ = finish(.failure(StatementTimedOut(seconds: seconds)))
        }
        connecting.whenComplete { [self] connected in
            switch connected {
            case .failure(let error):
                deadline.cancel()
                _ = finish(.failure(error))
            case .success(let connection):
                exchange.withLockedValue { $0.connection = connection }
                statement(connection).whenComplete { result in
                    deadline.cancel()
                    let failed: Bool
                    if case .failure(let error) = result {
                        failed = Self.isConnectionFailure(error)
                    } else {
                        failed = false
                    }
                    if finish(result), !failed, !connection.isClosed {
                        self.giveBack(connection)
                    } else {
                        connection.closeNow()
                    }
                }
            }
        }
        return promise.futureResult
    }

    /// A new connection of the pool's configuration, on `loop` (the next of the group by default).
    func connect(on loop: (any EventLoop)? = nil) -> EventLoopFuture<PostgresConnection> {
        let id = nextID.withLockedValue { value -> Int in
            value += 1
            return value
        }
        return PostgresConnection.connect(
            on: loop ?? eventLoopGroup.next(), configuration: configuration, id: id, logger: logger)
    }

    private func giveBack(_ connection: PostgresConnection) {
        let kept = idle.withLockedValue { connections -> Bool in
            guard connections.count < maximumIdle else { return false }
            connections.append(connection)
            return true
        }
        if !kept { connection.closeNow() }
    }

    deinit { close() }

    /// Closes every idle connection.
    func close() {
        for connection in idle.withLockedValue({ connections in
            defer { connections = [] }
            return connections
        }) {
            connection.closeNow()
        }
    }

    /// Whether `error` means the connection is gone or the server cannot serve now (shutting down, starting up),
    /// rather than that it refused the statement.
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else {
            return error is IOError || error is NIOConnectionError || error is ChannelError
                || error is StatementTimedOut
        }
        switch error.code {
        case .clientClosedConnection, .serverClosedConnection, .connectionError, .uncleanShutdown:
            return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}

extension ConnectionPool {
    /// The cause of a failure to reach the server, in words: no answer within the deadline, connection refused,
    /// connection lost, the server shutting down or starting (with the SQLSTATE).
    static func cause(of error: any Error) -> String {
        if let timedOut = error as? StatementTimedOut { return timedOut.description }
        if let error = error as? PSQLError {
            if error.code == .server, let state = error.serverInfo?[.sqlState] {
                return "the server ended the session: \(PostgresCredentialStoreError.meaning(of: state)) (SQLSTATE "
                    + "\(state))"
            }
            if let underlying = error.underlying { return "connection lost: " + cause(of: underlying) }
            return "connection lost (\(error.code))"
        }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return "connection refused" }
        if let error = error as? NIOConnectionError {
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            return refused ? "connection refused" : "could not connect (\(error))"
        }
        return String(describing: error)
    }
}

extension PostgresConnection {
    /// Closes the connection without waiting for it to be closed; the connection lives until it is.
    func closeNow() {
        let closing: EventLoopFuture<Void> = close()
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}

/// A statement, with connecting, took longer than the store allows; its connection was closed.
struct StatementTimedOut: Error, CustomStringConvertible {
    let seconds: TimeInterval
    var description: String { "no answer within \(seconds) s" }
}

/// A number of turns `async` callers take and give back, first come first served.
final class AsyncSlots: Sendable {
    private let state: NIOLockedValueBox<(free: Int, waiting: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) { state = NIOLockedValueBox((count, [])) }

    func take() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
