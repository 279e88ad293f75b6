import Foundation
import HealthSignInCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// A ``CredentialStore`` in a PostgreSQL table, for the instances of a backend that share credentials: hosts behind a
/// load balancer, workers of a job queue.
///
/// - **One refresh across the fleet.** ``lock(_:)`` is a lease row in `<table>_locks`: the credential lifecycle holds
///   it while it refreshes and writes, so however many instances find a token expired, one refresh runs and the
///   others read its result. The lease outlives a restart of the database, and ends by itself
///   (``Configuration/lockLease``) when its holder dies; while held it is renewed.
/// - **Compare-and-swap.** ``replace(_:with:for:)`` is one statement that changes the row only while it holds what the
///   caller saw; every write takes a new version from a sequence, which ``version(of:)`` answers, so the per-request
///   check that a credential is still current reads eight bytes.
/// - **Its table made on first use**, or brought up to date: a table of schema versions records where it is, and a
///   transaction-scoped advisory lock makes instances starting together migrate once.
/// - **Outages are errors, never sign-outs.** A read that cannot reach the server fails at once with
///   ``PostgresCredentialStoreError/unavailable(key:operation:detail:)``, which the lifecycle passes to the caller
///   as it is. A write keeps trying through a lost connection for ``Configuration/outageTolerance``, since what it
///   carries may be a token the server has already rotated; a retried swap that finds its own value stored counts as
///   done. Waiting for the lock goes on through such an outage too, within ``Configuration/lockTimeout``.
///
/// The protocol's methods are synchronous, as a file or the Keychain are: each waits for its statement, bounded by
/// ``Configuration/timeout``. The connections run on an event loop of the store's own, never on a loop a caller may be
/// blocked on.
///
/// ```swift
/// let store = try PostgresCredentialStore(
///     configuration: .init(
///         connection: .init(
///             host: "db.internal", username: "backend", password: password, database: "backend",
///             tls: .require(try NIOSSLContext(configuration: .makeClientConfiguration())))))
/// let service = SMARTBackendClient(
///     configuration: .init(
///         registration: OAuthRegistration(
///             baseURL: fhirBaseURL, client: OAuthClientCredentials(clientID: "my-service", signer: signer)),
///         scope: "system/Observation.rs",
///         session: OAuthSessionSettings(store: store)))
/// ```
public final class PostgresCredentialStore: CredentialStore, Sendable {
    /// How the store reaches its server and how long it waits.
    public struct Configuration: Sendable {
        /// The server, database and credentials.
        public var connection: PostgresConnection.Configuration
        /// The table (lowercase letters, digits and `_`); the store also makes `<table>_version` and `<table>_locks`.
        public var table: String
        /// The longest a connection attempt, and then one statement, may take.
        public var timeout: TimeInterval
        /// How long a write keeps trying through a lost connection (a server restarting, a failover).
        public var outageTolerance: TimeInterval
        /// How long a lock lasts unless renewed: how long the others wait for a holder that died.
        public var lockLease: TimeInterval
        /// The longest ``PostgresCredentialStore/lock(_:)`` waits for another holder.
        public var lockTimeout: TimeInterval
        /// How many idle connections the store keeps.
        public var maximumIdleConnections: Int

        /// Creates a configuration.
        public init(
            connection: PostgresConnection.Configuration, table: String = "healthsignin_credentials",
            timeout: TimeInterval = 5, outageTolerance: TimeInterval = 15, lockLease: TimeInterval = 30,
            lockTimeout: TimeInterval = 30, maximumIdleConnections: Int = 4
        ) {
            self.connection = connection
            self.table = table
            self.timeout = timeout
            self.outageTolerance = outageTolerance
            self.lockLease = lockLease
            self.lockTimeout = lockTimeout
            self.maximumIdleConnections = maximumIdleConnections
        }
    }

    /// The configuration.
    public let configuration: Configuration
    let pool: ConnectionPool
    let schema: Schema
    private let migration = NIOLockedValueBox(false)

    /// Creates a store; nothing is sent until its first use.
    ///
    /// - Parameters:
    ///   - configuration: the server and the store's timeouts.
    ///   - logger: receives PostgresNIO's own records of the connections.
    /// - Throws: ``PostgresCredentialStoreError/invalidTableName(_:)``.
    public init(
        configuration: Configuration,
        logger: Logger = Logger(label: "HealthSignInPostgres") { _ in
            SwiftLogNoOpLogHandler()
        }
    ) throws {
        self.configuration = configuration
        schema = try Schema(table: configuration.table)
        pool = ConnectionPool(
            configuration: configuration.connection, eventLoopGroup: Self.eventLoops, logger: logger,
            maximumIdle: max(0, configuration.maximumIdleConnections), timeout: configuration.timeout)
    }

    deinit { pool.close() }

    /// The loop every store's connections run on: one thread, shared, never one of the app's.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    // MARK: - CredentialStore

    /// The bytes stored under `key`, or nil.
    ///
    /// - Throws: ``PostgresCredentialStoreError``.
    public func read(_ key: String) throws -> Data? {
        try perform("read", key) { [table = schema.table] in Self.value(of: key, in: table, on: $0) }
    }

    /// The bytes under `key` in `table`, or nil.
    private static func value(of key: String, in table: String, on connection: PostgresConnection)
        -> EventLoopFuture<Data?>
    {
        query(connection, "SELECT value FROM \(table) WHERE key = $1", [key]).flatMapThrowing {
            try $0.first?.decode(Data.self)
        }
    }

    /// Whether a value is stored under `key`.
    public func contains(_ key: String) throws -> Bool {
        try perform("read", key) { [table = schema.table] connection in
            Self.query(connection, "SELECT 1 FROM \(table) WHERE key = $1", [key]).map { !$0.rows.isEmpty }
        }
    }

    /// The version the value under `key` was written with (eight bytes), or nil when there is none.
    public func version(of key: String) throws -> Data? {
        try perform("read the version of", key) { [table = schema.table] connection in
            Self.query(connection, "SELECT version FROM \(table) WHERE key = $1", [key]).flatMapThrowing { result in
                try result.first.map { row in withUnsafeBytes(of: try row.decode(Int64.self).bigEndian) { Data($0) } }
            }
        }
    }

    /// Stores `data` under `key`, replacing any previous value.
    public func write(_ data: Data, for key: String) throws {
        try perform("write", key, isWrite: true) { [table = schema.table] connection in
            Self.query(
                connection,
                "INSERT INTO \(table) (key, value, version) VALUES ($1, $2, nextval('\(table)_version')) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version, "
                    + "updated_at = now()", [key, data]
            ).map { _ in () }
        }
    }

    /// Removes `key`.
    public func remove(_ key: String) throws {
        try perform("remove", key, isWrite: true) { [table = schema.table] connection in
            Self.query(connection, "DELETE FROM \(table) WHERE key = $1", [key]).map { _ in () }
        }
    }

    /// Stores `new` (or removes the key, for nil) if the store holds `expected`, in one statement.
    public func replace(_ expected: Data?, with new: Data?, for key: String) throws -> Bool {
        let table = schema.table
        let swap: @Sendable (PostgresConnection) -> EventLoopFuture<Bool> = { connection in
            switch (expected, new) {
            case (nil, nil):
                return Self.query(connection, "SELECT 1 FROM \(table) WHERE key = $1", [key]).map { $0.rows.isEmpty }
            case (nil, let new?):
                return Self.query(
                    connection,
                    "INSERT INTO \(table) (key, value, version) VALUES ($1, $2, nextval('\(table)_version')) "
                        + "ON CONFLICT (key) DO NOTHING", [key, new]
                ).map { $0.metadata.rows == 1 }
            case (let expected?, let new?):
                return Self.query(
                    connection,
                    "UPDATE \(table) SET value = $3, version = nextval('\(table)_version'), updated_at = now() "
                        + "WHERE key = $1 AND value = $2", [key, expected, new]
                ).map { $0.metadata.rows == 1 }
            case (let expected?, nil):
                return Self.query(connection, "DELETE FROM \(table) WHERE key = $1 AND value = $2", [key, expected])
                    .map { $0.metadata.rows == 1 }
            }
        }
        return try perform("replace", key, isWrite: true) { connection, isRetry in
            guard isRetry else { return swap(connection) }
            // The first attempt may have landed before its connection was lost: finding its own value counts.
            return Self.value(of: key, in: table, on: connection).flatMap { stored in
                stored == new && stored != expected
                    ? connection.eventLoop.makeSucceededFuture(true) : swap(connection)
            }
        }
    }

    /// Takes the lease on `key` for this caller, waiting (without blocking a thread) while another holds it.
    ///
    /// - Throws: ``CredentialStoreError/lockTimedOut(key:seconds:)`` after ``Configuration/lockTimeout``,
    ///   ``PostgresCredentialStoreError`` when the server cannot be reached, `CancellationError`.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        try await PostgresLease.acquire(key, in: self)
    }

    // MARK: - Running statements

    /// Runs `statement` for `operation` on `key`, after the schema is current, with the retries of the operation's
    /// kind, turning what fails into ``PostgresCredentialStoreError``.
    func perform<Result: Sendable>(
        _ operation: String, _ key: String, isWrite: Bool = false,
        _ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>
    ) throws -> Result {
        try perform(operation, key, isWrite: isWrite) { connection, _ in statement(connection) }
    }

    private func perform<Result: Sendable>(
        _ operation: String, _ key: String, isWrite: Bool,
        _ statement: @escaping @Sendable (PostgresConnection, _ isRetry: Bool) -> EventLoopFuture<Result>
    ) throws -> Result {
        var retries = RetryBudget(isWrite: isWrite, tolerance: configuration.outageTolerance)
        while true {
            do {
                try migrateOnce()
                let isRetry = retries.attempts > 0
                return try pool.runBlocking { statement($0, isRetry) }
            } catch {
                guard ConnectionPool.isConnectionFailure(error), let pause = retries.next() else {
                    throw storeError(error, operation: operation, key: key)
                }
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            }
        }
    }

    /// Runs `statement` without blocking, once more on a new connection when the first was found lost (one the
    /// server closed while it was idle).
    func performAsync<Result: Sendable>(
        _ operation: String, _ key: String,
        _ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>
    ) async throws -> Result {
        var retries = RetryBudget(isWrite: false, tolerance: 0)
        while true {
            do {
                try migrateOnce()
                return try await pool.run(statement).get()
            } catch {
                guard ConnectionPool.isConnectionFailure(error), retries.next() != nil else {
                    throw storeError(error, operation: operation, key: key)
                }
            }
        }
    }

    /// Brings the schema up to date, once for the store (instances in other processes wait on the advisory lock).
    private func migrateOnce() throws {
        try migration.withLockedValue { migrated in
            guard !migrated else { return }
            let schema = self.schema
            _ = try pool.runBlocking { schema.migrate(on: $0) }
            migrated = true
        }
    }

    private func storeError(_ error: any Error, operation: String, key: String) -> any Error {
        if error is PostgresCredentialStoreError || error is CancellationError { return error }
        if let error = error as? PSQLError, error.code == .server, !ConnectionPool.isConnectionFailure(error) {
            return PostgresCredentialStoreError.refused(
                key: key, operation: operation, sqlState: error.serverInfo?[.sqlState] ?? "?")
        }
        let detail = (error as? PSQLError).map { "\($0.code)" } ?? String(describing: error)
        return PostgresCredentialStoreError.unavailable(key: key, operation: operation, detail: detail)
    }

    /// Runs `sql` with `values` bound in order (text, bytes and numbers).
    static func query(_ connection: PostgresConnection, _ sql: String, _ values: [any PostgresEncodable & Sendable])
        -> EventLoopFuture<PostgresQueryResult>
    {
        var binds = PostgresBindings()
        do {
            for value in values { try binds.append(value) }
        } catch {
            return connection.eventLoop.makeFailedFuture(error)
        }
        return connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: connection.logger)
    }
}

/// How often, and after how long a pause, an operation tries again after a lost connection: a read once more at
/// once (the connection may only have been one the server closed while idle); a write for as long as its tolerance.
struct RetryBudget {
    let isWrite: Bool
    let tolerance: TimeInterval
    private(set) var attempts = 0
    private let started = Date()

    init(isWrite: Bool, tolerance: TimeInterval) {
        self.isWrite = isWrite
        self.tolerance = tolerance
    }

    /// The pause before the next attempt, or nil when there is none.
    mutating func next() -> TimeInterval? {
        attempts += 1
        if attempts == 1 { return 0 }
        guard isWrite, Date().timeIntervalSince(started) < tolerance else { return nil }
        return min(0.05 * Double(1 << min(attempts, 5)), 1)
    }
}
