import Configuration
import Foundation
import HealthSignInConfiguration
import HealthSignInCore
import PostgresNIO

/// What the backend is configured with, read through swift-configuration from its environment. The SDK's entry points
/// read their own values (`VITAL_*`, `SMART_*`; see `VitalBackend.Configuration.init(config:store:options:)` and
/// `SMARTBackendClient.Configuration.init(config:store:options:)`); the backend adds:
///
/// | Variable | Value |
/// |---|---|
/// | `SMART_PATIENT_ID` | the patient the job syncs (`example`) |
/// | `DATABASE_HOST`, `DATABASE_PORT` | the PostgreSQL server (`127.0.0.1`, `5432`) |
/// | `DATABASE_USER`, `DATABASE_PASSWORD`, `DATABASE_NAME` | its account (the user is required) and database |
/// | `DATABASE_TABLE` | the store's table (`healthsignin_credentials`) |
/// | `DATABASE_TIMEOUT` | the seconds a connection, then a statement, may take (`5`) |
/// | `ALLOW_LOOPBACK_HTTP` | `1` allows plain http to this machine (an emulator) |
/// | `APP_SESSIONS` | the app's sessions, `token=user,token=user`: a stand-in for its real sign-in |
/// | `PORT` | the port the server listens on, on 127.0.0.1 (`8080`) |
public struct BackendSettings: Sendable {
    /// Where every value is read.
    public let config: ConfigReader
    /// The patient the job syncs.
    public let patientID: String
    /// The database of the credential store, which every instance of the backend shares, as the app's client uses it.
    public let database: PostgresClient.Configuration
    /// The store's table in it.
    public let databaseTable: String
    /// The seconds a connection, then a statement, may take.
    public let databaseTimeout: TimeInterval
    /// Plain http to this machine allowed (an emulator on loopback), https otherwise.
    public let urlPolicy: URLPolicy
    /// The app's own sessions: bearer token to user id.
    public let appSessions: [String: String]
    /// The port the server listens on.
    public let port: Int

    /// Settings read from `config`.
    ///
    /// - Throws: `ConfigValueError` naming a missing value.
    public init(config: ConfigReader) throws {
        self.config = config
        patientID = config.string(forKey: "smart.patient.id", default: "example")
        guard let user = config.string(forKey: "database.user") else {
            throw ConfigValueError(key: "database.user", problem: "is missing")
        }
        database = PostgresClient.Configuration(
            host: config.string(forKey: "database.host", default: "127.0.0.1"),
            port: config.int(forKey: "database.port", default: 5432), username: user,
            password: config.string(forKey: "database.password", isSecret: true),
            database: config.string(forKey: "database.name"), tls: .disable)
        databaseTable = config.string(forKey: "database.table", default: "healthsignin_credentials")
        databaseTimeout = config.double(forKey: "database.timeout", default: 5)
        urlPolicy = URLPolicy(allowsInsecureLoopback: config.string(forKey: "allow.loopback.http") == "1")
        let sessions = config.stringArray(forKey: "app.sessions", default: []).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
        appSessions = Dictionary(sessions, uniquingKeysWith: { first, _ in first })
        port = config.int(forKey: "port", default: 8080)
    }

    /// Settings from environment variables (the process's own by default).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BackendSettings
    {
        try BackendSettings(
            config: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
    }
}
