import Foundation
import HealthSignInCredentials
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO

/// A `CredentialStore` in a PostgreSQL table, for the instances of a backend that share credentials: hosts behind a
/// load balancer, workers of a job queue.
///
/// - **Served from memory, told of changes.** Every change to the table is announced with `NOTIFY` (a trigger), and
///   the store listens on a connection of its own: its ``changes`` feed tells the credential lifecycle that a value
///   another instance wrote, rotated or erased has changed, typically within milliseconds, so a call holding a usable
///   credential asks the database nothing. While the listening connection is down, sessions read before each use;
///   when it comes back, every value counts as changed once.
/// - **One refresh across the fleet, fenced.** ``lock(_:)`` is a lease row in `<table>_locks` carrying a fencing token
///   from a sequence. The lifecycle holds it while it refreshes and writes, confirms it (renewing it for a full
///   ``Configuration/lockLease``) just before a refresh token goes out, and writes through
///   ``replace(_:with:for:fencedBy:)``, which the database refuses once the lease has passed to another holder. The
///   lease outlives a restart of the database, and ends by itself when its holder dies; while held it is renewed.
/// - **Compare-and-swap.** ``replace(_:with:for:)`` is one statement that changes the row only while it holds what the
///   caller saw; every write takes a new version from a sequence, which ``version(of:)`` answers.
/// - **Its table made on first use**, or brought up to date: a table of schema versions records where it is, and a
///   transaction-scoped advisory lock makes instances starting together migrate once.
/// - **Outages are errors, never sign-outs.** Every method is `async` and holds no thread while it waits. A read that
///   cannot reach the server fails after at most twice ``Configuration/timeout`` with
///   ``PostgresCredentialStoreError/unavailable(key:operation:detail:)``, whose detail names the cause; a session
///   holding a usable credential goes on using it meanwhile. A write keeps trying through a lost connection for
///   ``Configuration/outageTolerance``, since what it carries may be a token the server has already rotated; a retried
///   swap that finds its own value stored counts as done. Waiting for the lock goes on through such an outage too.
/// - **What is stored.** Each row holds a session's state as JSON: access and refresh tokens, PKCE verifiers, the
///   registration it was issued for. They are in clear unless the store is wrapped in a `SealedCredentialStore`,
///   which seals every value with AES-GCM under the operator's key before it leaves the process.
///
/// The store runs on connections of its own (on SwiftNIO's shared event loops), or on a `PostgresClient` the app
/// already has and runs (``init(client:configuration:)``), so the app and the store share one pool.
///
/// **In a service group.** The store is a swift-service-lifecycle `Service`: its ``run()`` waits for the group's
/// graceful shutdown, then closes what the store opened (its listening connection, and its own connections); an
/// app's `PostgresClient` is the app's to run and shut down. List it after the client and before the HTTP server, so
/// the server stops taking requests first and the client closes last:
///
/// ```swift
/// let store = try PostgresCredentialStore(client: postgres)
/// let services = ServiceGroup(
///     configuration: .init(services: [postgres, store, app], gracefulShutdownSignals: [.sigterm], logger: logger))
/// ```
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
        /// The server, database and credentials, for the store's own connections (unused with an app's client).
        public var connection: PostgresConnection.Configuration?
        /// The table (lowercase letters, digits and `_`); the store also makes `<table>_version`, `<table>_fence` and
        /// `<table>_locks`, and announces changes on the channel `<table>_changes`.
        public var table: String
        /// The longest a connection attempt, and then one statement, may take.
        public var timeout: TimeInterval
        /// How long a write keeps trying through a lost connection (a server restarting, a failover).
        public var outageTolerance: TimeInterval
        /// How long a lock lasts unless renewed: how long the others wait for a holder that died. A refresh confirms
        /// it for this long before it sends a refresh token, so it must outlast the token request (the transport's
        /// timeout, 30 s by default).
        public var lockLease: TimeInterval
        /// The longest ``PostgresCredentialStore/lock(_:)`` waits for another holder: longer than the lease, so a
        /// holder that died delays the others by the lease, and fails nobody.
        public var lockTimeout: TimeInterval
        /// How many idle connections the store keeps (its own connections only).
        public var maximumIdleConnections: Int
        /// How many connections the store holds at once (its own connections only); further statements wait their
        /// turn, so a burst of calls stays within the server's `max_connections`.
        public var maximumConnections: Int
        /// Whether the store listens for changes (`LISTEN`), so sessions serve credentials from memory; without it
        /// they ask the row's version before each use.
        public var listensForChanges: Bool

        /// Creates a configuration for the store's own connections.
        public init(
            connection: PostgresConnection.Configuration, table: String = "healthsignin_credentials",
            timeout: TimeInterval = 5, outageTolerance: TimeInterval = 15, lockLease: TimeInterval = 60,
            lockTimeout: TimeInterval? = nil, maximumIdleConnections: Int = 4, maximumConnections: Int = 8,
            listensForChanges: Bool = true
        ) {
            self.maximumConnections = maximumConnections
            self.connection = connection
            self.table = table
            self.timeout = timeout
            self.outageTolerance = outageTolerance
            self.lockLease = lockLease
            self.lockTimeout = lockTimeout ?? lockLease + 5
            self.maximumIdleConnections = maximumIdleConnections
            self.listensForChanges = listensForChanges
        }

        /// Creates a configuration for a store on an app's `PostgresClient`.
        public init(
            table: String = "healthsignin_credentials", timeout: TimeInterval = 5, outageTolerance: TimeInterval = 15,
            lockLease: TimeInterval = 60, lockTimeout: TimeInterval? = nil, listensForChanges: Bool = true
        ) {
            connection = nil
            self.table = table
            self.timeout = timeout
            self.outageTolerance = outageTolerance
            self.lockLease = lockLease
            self.lockTimeout = lockTimeout ?? lockLease + 5
            maximumIdleConnections = 0
            maximumConnections = 0
            self.listensForChanges = listensForChanges
        }

        /// Checks every time the store converts or adds: a NaN, negative, infinite or absurd one would stop the
        /// process there (an `Int64` of milliseconds, a `Duration`) or make the lease's renewal spin.
        func check() throws(ConfigurationError) {
            let day: TimeInterval = 86_400
            _ = try ConfigurationError.checked(timeout, named: "timeout", in: 0.001...day)
            _ = try ConfigurationError.checked(outageTolerance, named: "outageTolerance", in: 0...(365 * day))
            _ = try ConfigurationError.checked(lockLease, named: "lockLease", in: 0.1...day)
            _ = try ConfigurationError.checked(lockTimeout, named: "lockTimeout", in: 0...(365 * day))
        }
    }

    /// The configuration.
    public let configuration: Configuration
    let runner: any StatementRunner
    let schema: Schema
    private let migration = AsyncOnce()
    private let feed = CredentialChangeLog(isLive: false)
    private let listener = NIOLockedValueBox<Task<Void, Never>?>(nil)
    private let closed = NIOLockedValueBox(false)

    /// Creates a store on connections of its own; nothing is sent until its first use.
    ///
    /// - Parameters:
    ///   - configuration: the server and the store's timeouts.
    ///   - logger: receives PostgresNIO's own records of the connections.
    /// - Throws: ``PostgresCredentialStoreError/invalidTableName(_:)``,
    ///   ``PostgresCredentialStoreError/missingConnection`` for a configuration made for an app's client, or
    ///   `ConfigurationError.invalidSetting` for a time outside its range: `timeout` 1 ms to a day, `lockLease`
    ///   0.1 s to a day, `outageTolerance` and `lockTimeout` up to a year (none NaN or negative).
    public init(
        configuration: Configuration,
        logger: Logger = Logger(label: "HealthSignInPostgres") { _ in
            SwiftLogNoOpLogHandler()
        }
    ) throws {
        guard let connection = configuration.connection else { throw PostgresCredentialStoreError.missingConnection }
        try configuration.check()
        self.configuration = configuration
        schema = try Schema(table: configuration.table)
        runner = ConnectionPool(
            configuration: connection, eventLoopGroup: Self.eventLoops, logger: logger,
            maximumIdle: max(0, configuration.maximumIdleConnections),
            maximumOpen: configuration.maximumConnections, timeout: configuration.timeout)
    }

    /// Creates a store on connections leased from `client`, which the app runs (`client.run()`, or a service group
    /// that holds it); the store's statements and the app's share its pool. Listening for changes holds one of its
    /// connections.
    ///
    /// - Throws: ``PostgresCredentialStoreError/invalidTableName(_:)``, or `ConfigurationError.invalidSetting` for a
    ///   time outside its range (as ``init(configuration:logger:)`` says).
    public init(client: PostgresClient, configuration: Configuration = Configuration()) throws {
        try configuration.check()
        self.configuration = configuration
        schema = try Schema(table: configuration.table)
        runner = ClientRunner(client: client, timeout: configuration.timeout)
    }

    deinit { close() }

    /// Stops listening and closes the store's own connections. Later calls open them again.
    public func close() {
        listener.withLockedValue { task in
            task?.cancel()
            task = nil
        }
        feed.disconnected()
        runner.close()
    }

    /// The loops the store's own connections run on: SwiftNIO's shared group, which the app's other NIO clients
    /// (AsyncHTTPClient's and PostgresNIO's defaults among them) use too, so the store starts no threads of its own.
    static var eventLoops: any EventLoopGroup { MultiThreadedEventLoopGroup.singleton }

    // MARK: - CredentialStore

    /// The bytes stored under `key`, or nil.
    ///
    /// - Throws: ``PostgresCredentialStoreError``.
    public func read(_ key: String) async throws -> Data? {
        try await perform("read", key) { [table = schema.table] in Self.value(of: key, in: table, on: $0) }
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
    public func contains(_ key: String) async throws -> Bool {
        try await perform("read", key) { [table = schema.table] connection in
            Self.query(connection, "SELECT 1 FROM \(table) WHERE key = $1", [key]).map { !$0.rows.isEmpty }
        }
    }

    /// The version the value under `key` was written with (eight bytes), or nil when there is none.
    public func version(of key: String) async throws -> Data? {
        try await perform("read the version of", key) { [table = schema.table] connection in
            Self.query(connection, "SELECT version FROM \(table) WHERE key = $1", [key]).flatMapThrowing { result in
                try result.first.map { row in withUnsafeBytes(of: try row.decode(Int64.self).bigEndian) { Data($0) } }
            }
        }
    }

    /// Stores `data` under `key`, replacing any previous value.
    public func write(_ data: Data, for key: String) async throws {
        try await perform("write", key, isWrite: true) { [table = schema.table] connection in
            Self.query(
                connection,
                "INSERT INTO \(table) (key, value, version) VALUES ($1, $2, nextval('\(table)_version')) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version, "
                    + "updated_at = now()", [key, data]
            ).map { _ in () }
        }
    }

    /// Removes `key`.
    public func remove(_ key: String) async throws {
        try await perform("remove", key, isWrite: true) { [table = schema.table] connection in
            Self.query(connection, "DELETE FROM \(table) WHERE key = $1", [key]).map { _ in () }
        }
    }

    /// Stores `new` (or removes the key, for nil) if the store holds `expected`, in one statement.
    public func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        try await swap(expected, with: new, for: key, fence: nil)
    }

    /// ``replace(_:with:for:)``, refused by the database (false) unless `lock` is still this store's lease on `key`
    /// with the fencing token it was taken with: a holder whose lease passed to another while it was held up neither
    /// overwrites nor erases what the new holder stores.
    public func replace(
        _ expected: Data?, with new: Data?, for key: String, fencedBy lock: any CredentialStoreLock
    ) async throws -> Bool {
        guard let lease = lock as? PostgresLease, lease.key == key else {
            return try await swap(expected, with: new, for: key, fence: nil)
        }
        return try await swap(expected, with: new, for: key, fence: (lease.holder, lease.fence))
    }

    /// The swap, with the lease condition when fenced. The lease row is read `FOR SHARE`, so a takeover waits for the
    /// swap to commit and the new holder reads what it stored.
    private func swap(
        _ expected: Data?, with new: Data?, for key: String, fence: (holder: String, token: Int64)?
    ) async throws -> Bool {
        let table = schema.table
        let fenced =
            fence.map { _ in
                " AND EXISTS (SELECT 1 FROM \(table)_locks WHERE key = $1 AND holder = $9 AND fence = $10 FOR SHARE)"
            } ?? ""
        let fenceValues: [any PostgresEncodable & Sendable] = fence.map { [$0.holder, $0.token] } ?? []
        let swap: @Sendable (PostgresConnection) -> EventLoopFuture<Bool> = { connection in
            // $9 and $10 are numbered apart from the statement's own, so one condition fits every statement.
            let sql: String
            var values: [any PostgresEncodable & Sendable]
            switch (expected, new) {
            case (nil, nil):
                sql = "SELECT 1 AS found FROM \(table) WHERE key = $1"
                values = [key]
                return Self.query(connection, sql, values).map { $0.rows.isEmpty }
            case (nil, let new?):
                sql =
                    "INSERT INTO \(table) (key, value, version) SELECT $1, $2, nextval('\(table)_version') "
                    + "WHERE true\(fenced) ON CONFLICT (key) DO NOTHING"
                values = [key, new]
            case (let expected?, let new?):
                sql =
                    "UPDATE \(table) SET value = $3, version = nextval('\(table)_version'), updated_at = now() "
                    + "WHERE key = $1 AND value = $2\(fenced)"
                values = [key, expected, new]
            case (let expected?, nil):
                sql = "DELETE FROM \(table) WHERE key = $1 AND value = $2\(fenced)"
                values = [key, expected]
            }
            return Self.query(connection, Self.numbered(sql, binding: &values, fence: fenceValues), values)
                .map { $0.metadata.rows == 1 }
        }
        return try await perform("replace", key, isWrite: true) { connection, isRetry in
            guard isRetry else { return swap(connection) }
            // The first attempt may have landed before its connection was lost: finding its own value counts.
            return Self.value(of: key, in: table, on: connection).flatMap { stored in
                stored == new && stored != expected
                    ? connection.eventLoop.makeSucceededFuture(true) : swap(connection)
            }
        }
    }

    /// `sql` with the fence's `$9` and `$10` renumbered after `values`, which it extends.
    private static func numbered(
        _ sql: String, binding values: inout [any PostgresEncodable & Sendable],
        fence: [any PostgresEncodable & Sendable]
    ) -> String {
        guard !fence.isEmpty else { return sql }
        let holder = values.count + 1
        values += fence
        return sql.replacingOccurrences(of: "$9", with: "$\(holder)")
            .replacingOccurrences(of: "$10", with: "$\(holder + 1)")
    }

    /// Takes the lease on `key` for this caller, waiting (without holding a thread) while another holds it.
    ///
    /// - Throws: `CredentialStoreError/lockTimedOut(key:seconds:)` after ``Configuration/lockTimeout``,
    ///   ``PostgresCredentialStoreError`` when the server cannot be reached, `CancellationError`.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        try await PostgresLease.acquire(key, in: self)
    }

    /// The changes every instance makes, from the table's notifications; nil when the store does not listen.
    public var changes: (any CredentialChangeFeed)? {
        guard configuration.listensForChanges else { return nil }
        startListening()
        return feed
    }

    // MARK: - Listening

    /// Starts the listener once: it listens on the table's channel, noting each key announced, and starts again after
    /// a pause whenever its connection ends.
    private func startListening() {
        listener.withLockedValue { task in
            guard task == nil else { return }
            let (runner, channel, feed) = (self.runner, schema.changesChannel, self.feed)
            task = Task { [weak self] in
                var pause = Duration.milliseconds(50)
                while !Task.isCancelled {
                    // The table and its trigger exist before anything is announced on its channel.
                    if let self, (try? await self.migrateOnce()) == nil {
                        try? await Task.sleep(for: pause)
                        pause = min(pause * 2, .seconds(1))
                        continue
                    }
                    try? await runner.listen(
                        on: channel, ready: { feed.connected() }, received: { feed.noteChange(of: $0) })
                    // A listener that was up starts again at once; one that could not start backs off.
                    if feed.isLive { pause = .milliseconds(50) }
                    feed.disconnected()
                    try? await Task.sleep(for: pause)
                    pause = min(pause * 2, .seconds(1))
                }
            }
        }
    }

    // MARK: - Running statements

    /// Runs `statement` for `operation` on `key`, after the schema is current, with the retries of the operation's
    /// kind, turning what fails into ``PostgresCredentialStoreError``.
    func perform<Result: Sendable>(
        _ operation: String, _ key: String, isWrite: Bool = false,
        _ statement: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Result>
    ) async throws -> Result {
        try await perform(operation, key, isWrite: isWrite) { connection, _ in statement(connection) }
    }

    private func perform<Result: Sendable>(
        _ operation: String, _ key: String, isWrite: Bool,
        _ statement: @escaping @Sendable (PostgresConnection, _ isRetry: Bool) -> EventLoopFuture<Result>
    ) async throws -> Result {
        var retries = RetryBudget(isWrite: isWrite, tolerance: configuration.outageTolerance)
        while true {
            do {
                try await migrateOnce()
                let isRetry = retries.attempts > 0
                return try await runner.run { statement($0, isRetry) }
            } catch {
                guard ConnectionPool.isConnectionFailure(error), let pause = retries.next() else {
                    throw storeError(error, operation: operation, key: key)
                }
                if pause > 0 { try await Task.sleep(for: .milliseconds(Int64(pause * 1_000))) }
            }
        }
    }

    /// Brings the schema up to date, once for the store (instances in other processes wait on the advisory lock).
    private func migrateOnce() async throws {
        let (schema, runner) = (self.schema, self.runner)
        try await migration.run { _ = try await runner.run { schema.migrate(on: $0) } }
    }

    private func storeError(_ error: any Error, operation: String, key: String) -> any Error {
        if error is PostgresCredentialStoreError || error is CancellationError { return error }
        if let error = error as? PSQLError, error.code == .server, !ConnectionPool.isConnectionFailure(error) {
            return PostgresCredentialStoreError.refused(
                key: key, operation: operation, sqlState: error.serverInfo?[.sqlState] ?? "?")
        }
        return PostgresCredentialStoreError.unavailable(
            key: key, operation: operation, detail: ConnectionPool.cause(of: error))
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

/// Work done once, by the first caller that succeeds; callers meanwhile wait for it, and a failure leaves it to the
/// next caller.
final class AsyncOnce: Sendable {
    private let done = NIOLockedValueBox(false)
    private let turn = AsyncTurn()

    func run(_ work: @Sendable () async throws -> Void) async throws {
        if done.withLockedValue({ $0 }) { return }
        try await turn.take()
        defer { turn.give() }
        if done.withLockedValue({ $0 }) { return }
        try await work()
        done.withLockedValue { $0 = true }
    }
}

/// A first-come lock for `async` callers.
final class AsyncTurn: Sendable {
    private let state = NIOLockedValueBox<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func take() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLockedValue { state -> Bool in
                guard state.held else {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    func give() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
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
