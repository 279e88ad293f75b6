import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The store's tables, created or brought up to date by the first statement a store runs. Each version is a list of
/// statements; a table records the version it is at in `healthsignin_schema_versions`. A migration holds an advisory
/// lock for its transaction, so instances starting together migrate once, one after the other.
struct Schema: Sendable {
    /// The credentials table; its sequence of versions is `<table>_version` and its locks table `<table>_locks`.
    let table: String

    /// The statements of each version, in order.
    var migrations: [[String]] {
        [
            [
                "CREATE TABLE IF NOT EXISTS \(table) (key text PRIMARY KEY, value bytea NOT NULL, version bigint NOT NULL)",
                "CREATE SEQUENCE IF NOT EXISTS \(table)_version",
                "CREATE TABLE IF NOT EXISTS \(table)_locks "
                    + "(key text PRIMARY KEY, holder text NOT NULL, expires_at timestamptz NOT NULL)",
            ],
            // When each value was last written, for operators.
            ["ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS updated_at timestamptz NOT NULL DEFAULT now()"],
            // Fencing tokens for the locks, and a notification to every listening instance on each change.
            [
                "CREATE SEQUENCE IF NOT EXISTS \(table)_fence",
                "ALTER TABLE \(table)_locks ADD COLUMN IF NOT EXISTS fence bigint NOT NULL DEFAULT 0",
                "CREATE OR REPLACE FUNCTION \(table)_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF TG_OP = 'DELETE' THEN PERFORM pg_notify('\(changesChannel)', OLD.key); "
                    + "ELSE PERFORM pg_notify('\(changesChannel)', NEW.key); END IF; RETURN NULL; END $$",
                "DROP TRIGGER IF EXISTS \(table)_changes ON \(table)",
                "CREATE TRIGGER \(table)_changes AFTER INSERT OR UPDATE OR DELETE ON \(table) "
                    + "FOR EACH ROW EXECUTE FUNCTION \(table)_notify()",
            ],
        ]
    }

    /// The channel every change to the table is announced on, with its key as the payload.
    var changesChannel: String { "\(table)_changes" }

    /// - Throws: ``PostgresCredentialStoreError/invalidTableName(_:)`` unless `table` is a lowercase identifier.
    init(table: String) throws {
        let valid =
            (1...40).contains(table.utf8.count) && table.utf8.first.map { !(48...57).contains($0) } == true
            && table.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
        guard valid else { throw PostgresCredentialStoreError.invalidTableName(table) }
        self.table = table
    }

    /// Brings the tables to version `target` (the latest by default) in one transaction.
    ///
    /// - Returns: the version the tables were at before.
    func migrate(on connection: PostgresConnection, upTo target: Int? = nil) -> EventLoopFuture<Int> {
        let target = target ?? migrations.count
        let (migrations, table) = (self.migrations, self.table)
        let run: @Sendable (String, [any PostgresEncodable & Sendable]) -> EventLoopFuture<PostgresQueryResult> = {
            PostgresCredentialStore.query(connection, $0, $1)
        }
        return run("BEGIN", [])
            .flatMap { _ in run("SELECT pg_advisory_xact_lock($1)", [Self.advisoryLockID(table)]) }
            .flatMap { _ in
                run(
                    "CREATE TABLE IF NOT EXISTS healthsignin_schema_versions "
                        + "(name text PRIMARY KEY, version integer NOT NULL)", [])
            }
            .flatMap { _ in run("SELECT version FROM healthsignin_schema_versions WHERE name = $1", [table]) }
            .flatMapThrowing { result -> Int in
                let found = try result.first.map { try $0.decode(Int.self) } ?? 0
                guard found <= migrations.count else {
                    throw PostgresCredentialStoreError.newerSchema(
                        table: table, found: found, supported: migrations.count)
                }
                return found
            }
            .flatMap { found -> EventLoopFuture<Int> in
                var step = connection.eventLoop.makeSucceededVoidFuture()
                for statement in migrations.prefix(target).dropFirst(found).joined() {
                    step = step.flatMap { _ in run(statement, []).map { _ in () } }
                }
                return step.flatMap { _ in
                    run(
                        "INSERT INTO healthsignin_schema_versions (name, version) VALUES ($1, $2) "
                            + "ON CONFLICT (name) DO UPDATE SET version = excluded.version",
                        [table, max(found, target)])
                }
                .flatMap { _ in run("COMMIT", []) }
                .map { _ in found }
            }
            .flatMapError { error in
                // The connection goes back to the pool: it must not stay in the failed transaction.
                run("ROLLBACK", []).flatMapThrowing { _ in throw error }.flatMapErrorThrowing { _ in throw error }
            }
    }

    /// The advisory lock a migration of `table` holds: FNV-1a of its name, so every instance derives the same one.
    static func advisoryLockID(_ table: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "healthsignin:\(table)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}
