import Foundation
import HealthSignInCredentials
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A lock on one key of a ``PostgresCredentialStore``: a row in `<table>_locks` naming its holder and a fencing token
/// until a time. It is taken only where no row is, or where the row's time has passed, in one statement, with a new
/// token from `<table>_fence`; it is renewed while held and removed on release. Being a row, it outlives a restart of
/// the server, so nobody else refreshes while its holder may still be writing what a refresh brought; a holder that
/// died holds it until its time passes. A write fenced by it (``PostgresCredentialStore/replace(_:with:for:fencedBy:)``)
/// lands only while the row still names this holder and token.
final class PostgresLease: CredentialStoreLock {
    private let store: PostgresCredentialStore
    let key: String
    let holder: String
    let fence: Int64
    private let renewal: Task<Void, Never>
    private let released = NIOLockedValueBox(false)

    private init(store: PostgresCredentialStore, key: String, holder: String, fence: Int64, renewal: Task<Void, Never>)
    {
        self.store = store
        self.key = key
        self.holder = holder
        self.fence = fence
        self.renewal = renewal
    }

    /// Takes the lease on `key`, polling (from every 2 ms up to every 100 ms) while another holder has it.
    static func acquire(_ key: String, in store: PostgresCredentialStore) async throws -> PostgresLease {
        let holder = UUID().uuidString
        let timeout = store.configuration.lockTimeout
        let deadline = ContinuousClock.now + .milliseconds(Int64((max(timeout, 0) * 1_000).rounded()))
        var pause = Duration.milliseconds(2)
        var outage: ContinuousClock.Instant?
        while true {
            try Task.checkCancellation()
            let fence: Int64?
            do {
                fence = try await take(key, holder, in: store)
                outage = nil
            } catch let error as PostgresCredentialStoreError {
                // Waiting for the lock goes on through a short outage (a restart, a failover), as a write does.
                guard case .unavailable = error, ContinuousClock.now < deadline else { throw error }
                let began = outage ?? ContinuousClock.now
                guard began.duration(to: .now) < .seconds(store.configuration.outageTolerance) else { throw error }
                outage = began
                fence = nil
            }
            if let fence {
                let renewal = renew(key, holder, fence, in: store, every: store.configuration.lockLease / 3)
                return PostgresLease(store: store, key: key, holder: holder, fence: fence, renewal: renewal)
            }
            guard ContinuousClock.now < deadline else {
                throw CredentialStoreError.lockTimedOut(key: key, seconds: timeout)
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Takes the row if nobody holds it, or if its holder's time has passed, with a new fencing token.
    ///
    /// - Returns: the token, or nil when another holder has the row.
    private static func take(_ key: String, _ holder: String, in store: PostgresCredentialStore) async throws -> Int64?
    {
        let (table, lease) = (store.schema.table, store.configuration.lockLease)
        return try await store.perform("lock", key) { connection in
            PostgresCredentialStore.query(
                connection,
                "INSERT INTO \(table)_locks (key, holder, expires_at, fence) "
                    + "VALUES ($1, $2, now() + make_interval(secs => $3), nextval('\(table)_fence')) "
                    + "ON CONFLICT (key) DO UPDATE "
                    + "SET holder = excluded.holder, expires_at = excluded.expires_at, fence = excluded.fence "
                    + "WHERE \(table)_locks.expires_at < now() RETURNING fence", [key, holder, lease]
            ).flatMapThrowing { try $0.first?.decode(Int64.self) }
        }
    }

    /// Renews the lease for its full length if it is still this holder's and has not run out.
    ///
    /// - Returns: whether it was.
    private static func extend(
        _ key: String, _ holder: String, _ fence: Int64, in store: PostgresCredentialStore, operation: String
    ) async throws -> Bool {
        let (table, lease) = (store.schema.table, store.configuration.lockLease)
        return try await store.perform(operation, key) { connection in
            PostgresCredentialStore.query(
                connection,
                "UPDATE \(table)_locks SET expires_at = now() + make_interval(secs => $4) "
                    + "WHERE key = $1 AND holder = $2 AND fence = $3 AND expires_at > now()",
                [key, holder, fence, lease]
            ).map { $0.metadata.rows == 1 }
        }
    }

    /// Extends the lease every `interval` until cancelled; a renewal that fails (the server restarting) is tried
    /// again at the next one, and the lease meanwhile stands until its time.
    private static func renew(
        _ key: String, _ holder: String, _ fence: Int64, in store: PostgresCredentialStore, every interval: Double
    ) -> Task<Void, Never> {
        Task { [weak store] in
            while (try? await Task.sleep(for: .milliseconds(Int64(interval * 1_000)))) != nil {
                guard let store else { return }
                _ = try? await extend(key, holder, fence, in: store, operation: "renew the lock on")
            }
        }
    }

    /// Confirms the lease is still this holder's, renewing it for its full length.
    ///
    /// - Throws: `CredentialStoreError/lockLost(key:)` when it ran out or passed to another holder, the store's
    ///   error when the server cannot tell.
    func confirm() async throws {
        guard try await Self.extend(key, holder, fence, in: store, operation: "confirm the lock on") else {
            throw CredentialStoreError.lockLost(key: key)
        }
    }

    /// Ends the renewals and removes the row; when the server cannot be reached, the lease ends at its time.
    func release() {
        let first = released.withLockedValue { released -> Bool in
            defer { released = true }
            return !released
        }
        guard first else { return }
        renewal.cancel()
        let (store, key, holder, fence) = (store, key, holder, fence)
        let table = store.schema.table
        Task {
            _ = try? await store.perform("release the lock on", key) { connection in
                PostgresCredentialStore.query(
                    connection, "DELETE FROM \(table)_locks WHERE key = $1 AND holder = $2 AND fence = $3",
                    [key, holder, fence]
                ).map { _ in () }
            }
        }
    }

    deinit { release() }
}
