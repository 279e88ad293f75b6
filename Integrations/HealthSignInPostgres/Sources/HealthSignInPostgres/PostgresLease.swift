import Foundation
import HealthSignInCore
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// A lock on one key of a ``PostgresCredentialStore``: a row in `<table>_locks` naming its holder until a time. It is
/// taken only where no row is, or where the row's time has passed, in one statement; it is renewed while held and
/// removed on release. Being a row, it outlives a restart of the server, so nobody else refreshes while its holder
/// may still be writing what a refresh brought; a holder that died holds it until its time passes.
final class PostgresLease: CredentialStoreLock {
    private let store: PostgresCredentialStore
    private let key: String
    private let holder: String
    private let renewal: Task<Void, Never>
    private let released = NIOLockedValueBox(false)

    private init(store: PostgresCredentialStore, key: String, holder: String, renewal: Task<Void, Never>) {
        self.store = store
        self.key = key
        self.holder = holder
        self.renewal = renewal
    }

    /// Takes the lease on `key`, polling (from every 2 ms up to every 100 ms) while another holder has it.
    static func acquire(_ key: String, in store: PostgresCredentialStore) async throws -> PostgresLease {
        let holder = UUID().uuidString
        let lease = store.configuration.lockLease
        let timeout = store.configuration.lockTimeout
        let deadline = ContinuousClock.now + .milliseconds(Int64((max(timeout, 0) * 1_000).rounded()))
        var pause = Duration.milliseconds(2)
        var outage: ContinuousClock.Instant?
        while true {
            try Task.checkCancellation()
            let taken: Bool
            do {
                taken = try await take(key, holder, in: store)
                outage = nil
            } catch let error as PostgresCredentialStoreError {
                // Waiting for the lock goes on through a short outage (a restart, a failover), as a write does.
                guard case .unavailable = error, ContinuousClock.now < deadline else { throw error }
                let began = outage ?? ContinuousClock.now
                guard began.duration(to: .now) < .seconds(store.configuration.outageTolerance) else { throw error }
                outage = began
                taken = false
            }
            if taken {
                return PostgresLease(
                    store: store, key: key, holder: holder, renewal: renew(key, holder, in: store, every: lease / 3))
            }
            guard ContinuousClock.now < deadline else {
                throw CredentialStoreError.lockTimedOut(key: key, seconds: timeout)
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(100))
        }
    }

    /// Takes the row if nobody holds it, or if its holder's time has passed.
    private static func take(_ key: String, _ holder: String, in store: PostgresCredentialStore) async throws -> Bool {
        let (table, lease) = (store.schema.table, store.configuration.lockLease)
        return try await store.performAsync("lock", key) { connection in
            PostgresCredentialStore.query(
                connection,
                "INSERT INTO \(table)_locks (key, holder, expires_at) "
                    + "VALUES ($1, $2, now() + make_interval(secs => $3)) ON CONFLICT (key) DO UPDATE "
                    + "SET holder = excluded.holder, expires_at = excluded.expires_at "
                    + "WHERE \(table)_locks.expires_at < now()", [key, holder, lease]
            ).map { $0.metadata.rows == 1 }
        }
    }

    /// Extends the lease every `interval` until cancelled; a renewal that fails (the server restarting) is tried
    /// again at the next one, and the lease meanwhile stands until its time.
    private static func renew(
        _ key: String, _ holder: String, in store: PostgresCredentialStore, every interval: Double
    )
        -> Task<Void, Never>
    {
        let (table, lease) = (store.schema.table, store.configuration.lockLease)
        return Task {
            while (try? await Task.sleep(for: .milliseconds(Int64(interval * 1_000)))) != nil {
                _ = try? await store.performAsync("renew the lock on", key) { connection in
                    PostgresCredentialStore.query(
                        connection,
                        "UPDATE \(table)_locks SET expires_at = now() + make_interval(secs => $3) "
                            + "WHERE key = $1 AND holder = $2", [key, holder, lease]
                    ).map { _ in () }
                }
            }
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
        let (table, key, holder) = (store.schema.table, key, holder)
        _ = store.pool.run { connection in
            PostgresCredentialStore.query(
                connection, "DELETE FROM \(table)_locks WHERE key = $1 AND holder = $2", [key, holder])
        }
    }

    deinit { release() }
}
