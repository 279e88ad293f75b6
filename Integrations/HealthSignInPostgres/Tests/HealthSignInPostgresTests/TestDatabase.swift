import Foundation
import HealthSignInPostgres
import PostgresNIO
import XCTest

/// The PostgreSQL server `Integrations/Tools/with-postgres` started for these tests (`make integrations` runs them
/// under it), and the emulator `Tests/Emulator/with-emulator` started.
enum TestDatabase {
    struct Missing: Error, CustomStringConvertible {
        let variable: String
        var description: String {
            "\(variable) is not set: run these tests with make integrations, which starts PostgreSQL and the emulator"
        }
    }

    static func variable(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw Missing(variable: name)
        }
        return value
    }

    /// The server's connection settings, or those of a port nothing listens on.
    static func connection(port: Int? = nil) throws -> PostgresConnection.Configuration {
        .init(
            host: try variable("HEALTHSIGNIN_POSTGRES_HOST"),
            port: try port ?? Int(variable("HEALTHSIGNIN_POSTGRES_PORT")) ?? 5432,
            username: try variable("HEALTHSIGNIN_POSTGRES_USER"), password: nil,
            database: try variable("HEALTHSIGNIN_POSTGRES_DATABASE"), tls: .disable)
    }

    /// A table name no other test uses.
    static func freshTable() -> String {
        "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
    }

    /// A store on a fresh table.
    static func store(
        table: String = freshTable(), timeout: TimeInterval = 2, lockLease: TimeInterval = 30,
        lockTimeout: TimeInterval = 30, port: Int? = nil
    ) throws -> PostgresCredentialStore {
        try PostgresCredentialStore(
            configuration: .init(
                connection: try connection(port: port), table: table, timeout: timeout, lockLease: lockLease,
                lockTimeout: lockTimeout))
    }

    /// Stops, starts or restarts the server, waiting until it has. The script runs through `posix_spawn` and
    /// `waitpid`: Foundation's `Process` may miss the end of one child while it waits for others (the workers).
    static func control(_ action: String) throws {
        let script = try variable("HEALTHSIGNIN_POSTGRES_CONTROL")
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(script), strdup(action), nil]
        defer { for argument in arguments { free(argument) } }
        guard posix_spawn(&pid, script, nil, nil, arguments, environ) == 0 else {
            throw Missing(variable: "a control script that starts (\(script))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw Missing(variable: "a server that would \(action) (status \(status))") }
    }

    /// Runs `sql` on a connection of its own.
    static func execute(_ sql: String) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: try connection(), id: 1, logger: Logger(label: "test"))
        defer { Task { try? await connection.close() } }
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test"))
    }
}
