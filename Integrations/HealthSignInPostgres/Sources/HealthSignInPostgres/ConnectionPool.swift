import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// The store's connections: opened when needed, kept while idle up to a bound, dropped once they fail. Every
/// statement runs on the event loops under a deadline, so a caller waiting for one is never held longer than the
/// store's timeout, whether it waits by blocking (the store's synchronous methods) or by suspending (its lock).
final class ConnectionPool: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let maximumIdle: Int
    private let timeout: TimeAmount
    private let idle = NIOLockedValueBox<[PostgresConnection]>([])
    private let nextID = NIOLockedValueBox(0)

    init(
        configuration: PostgresConnection.Configuration, eventLoopGroup: any EventLoopGroup, logger: Logger,
        maximumIdle: Int, timeout: TimeInterval
    ) {
        var configuration = configuration
        self.timeout = .milliseconds(Int64((max(timeout, 0.001) * 1_000).rounded(.up)))
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
            let id = nextID.withLockedValue { value -> Int in
                value += 1
                return value
            }
            connecting = PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger)
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
        let deadline = loop.scheduleTask(in: timeout + timeout) {
            exchange.withLockedValue { $0.connection }?.closeNow()
            _ = finish(.failure(StatementTimedOut()))
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

    /// Runs `statement` and blocks the calling thread until it ends; the deadline bounds the wait.
    func runBlocking<Result: Sendable>(
        _ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>
    ) throws -> Result {
        // Blocking the loop the answer arrives on would wait forever.
        if let current = MultiThreadedEventLoopGroup.currentEventLoop,
            eventLoopGroup.makeIterator().contains(where: { $0 === current })
        {
            throw ChannelError.inappropriateOperationForState
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = NIOLockedValueBox<Swift.Result<Result, any Error>?>(nil)
        run(statement).whenComplete { result in
            outcome.withLockedValue { $0 = result }
            done.signal()
        }
        done.wait()
        guard let result = outcome.withLockedValue({ $0 }) else { throw ChannelError.ioOnClosedChannel }
        return try result.get()
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

extension PostgresConnection {
    /// Closes the connection without waiting for it to be closed; the connection lives until it is.
    fileprivate func closeNow() {
        let closing: EventLoopFuture<Void> = close()
        closing.whenComplete { _ in withExtendedLifetime(self) {} }
    }
}

/// A statement, with connecting, took longer than the store allows; its connection was closed.
struct StatementTimedOut: Error, CustomStringConvertible {
    var description: String { "timed out" }
}
