import Configuration
import Foundation
import HealthSignInConfiguration
import HealthSignInCore

/// What the backend is configured with, read through swift-configuration from its environment. The SDK's entry points
/// read their own values when ``Backend`` makes its clients: `VITAL_API_KEY`, `VITAL_ENVIRONMENT`, `VITAL_API_URL`
/// with `VITAL_AUTH_URL`, and `SMART_FHIR_URL`, `SMART_CLIENT_ID`, `SMART_SCOPE`, `SMART_PRIVATE_KEY` and the other
/// `SMART_*` (see `VitalBackend.Configuration.init(config:store:options:)` and
/// `SMARTBackendClient.Configuration.init(config:store:options:)`); the backend adds:
///
/// | Variable | Value |
/// |---|---|
/// | `SMART_PATIENT_ID` | the patient the job syncs (`example`) |
/// | `ALLOW_LOOPBACK_HTTP` | `1` allows plain http to this machine (an emulator) |
/// | `APP_SESSIONS` | the app's sessions, `token=user,token=user`: a stand-in for its real sign-in |
/// | `PORT` | the port the server listens on, on 127.0.0.1 (`8080`) |
public struct BackendSettings: Sendable {
    /// Where every value is read, the SDK's included.
    public let config: ConfigReader
    /// The patient the job syncs.
    public let patientID: String
    /// Plain http to this machine allowed (an emulator on loopback), https otherwise.
    public let urlPolicy: URLPolicy
    /// The app's own sessions: bearer token to user id. An example stand-in for the app's real sign-in.
    public let appSessions: [String: String]
    /// The port the server listens on.
    public let port: Int

    /// Settings read from `config`.
    ///
    /// - Throws: `ConfigValueError` naming `app.sessions` when it is not `token=user` pairs, each token once.
    public init(config: ConfigReader) throws {
        self.config = config
        patientID = config.string(forKey: "smart.patient.id", default: "example")
        urlPolicy = URLPolicy(allowsInsecureLoopback: config.string(forKey: "allow.loopback.http") == "1")
        var sessions: [String: String] = [:]
        for pair in config.stringArray(forKey: "app.sessions", default: []) where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ConfigValueError(key: "app.sessions", problem: "is not token=user pairs separated by commas")
            }
            guard sessions.updateValue(parts[1], forKey: parts[0]) == nil else {
                throw ConfigValueError(key: "app.sessions", problem: "gives a token twice")
            }
        }
        appSessions = sessions
        port = config.int(forKey: "port", default: 8080)
    }

    /// Settings from environment variables (the process's own by default).
    ///
    /// - Throws: what ``init(config:)`` throws.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BackendSettings
    {
        try BackendSettings(
            config: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
    }
}
