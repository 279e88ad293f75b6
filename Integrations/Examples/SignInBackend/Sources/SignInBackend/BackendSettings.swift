import Foundation
import HealthSignInCore
import HealthSignInVital
import PostgresNIO

/// What the backend is configured with, read from its environment: the Junction team's API key and region, the FHIR
/// server of the SMART job with the service's client id and private key, and the database.
public struct BackendSettings: Sendable {
    /// The Junction (Vital) team API key: the backend's secret, never sent to the app.
    public var vitalAPIKey: APIKey
    /// The Junction environment and region.
    public var vitalEnvironment: VitalEnvironment
    /// Where the Junction API is, when not at the environment's own hosts (an emulator).
    public var vitalHosts: VitalHostMap
    /// The FHIR server the SMART job reads.
    public var fhirBaseURL: URL
    /// The backend service's client id at the FHIR server's authorization server.
    public var smartClientID: String
    /// The service's private key, a JWK (ES384 or RS384), whose public half the server knows.
    public var smartPrivateKey: JSONWebKey
    /// The patient the job syncs.
    public var smartPatientID: String
    /// The database of the credential store, which every instance of the backend shares.
    public var database: PostgresConnection.Configuration
    /// The store's table in it.
    public var databaseTable: String
    /// Whether plain http to this machine is allowed (an emulator on loopback); https otherwise.
    public var allowsLoopbackHTTP: Bool
    /// The app's own sessions: bearer token to user id. An example stand-in for the app's real sign-in.
    public var appSessions: [String: String]

    /// Creates settings.
    public init(
        vitalAPIKey: APIKey, vitalEnvironment: VitalEnvironment, vitalHosts: VitalHostMap = .init(), fhirBaseURL: URL,
        smartClientID: String, smartPrivateKey: JSONWebKey, smartPatientID: String,
        database: PostgresConnection.Configuration, databaseTable: String = "healthsignin_credentials",
        allowsLoopbackHTTP: Bool = false, appSessions: [String: String]
    ) {
        self.vitalAPIKey = vitalAPIKey
        self.vitalEnvironment = vitalEnvironment
        self.vitalHosts = vitalHosts
        self.fhirBaseURL = fhirBaseURL
        self.smartClientID = smartClientID
        self.smartPrivateKey = smartPrivateKey
        self.smartPatientID = smartPatientID
        self.database = database
        self.databaseTable = databaseTable
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
        self.appSessions = appSessions
    }

    /// A setting that is missing or cannot be read; the message names it, never its value.
    public struct Problem: Error, CustomStringConvertible {
        /// The variable.
        public let variable: String
        /// What is wrong with it.
        public let problem: String
        /// A one-line explanation.
        public var description: String { "\(variable): \(problem)" }
    }

    /// Settings from environment variables: `VITAL_API_KEY`, `VITAL_ENVIRONMENT` (`sandbox-us`, `production-eu`, …),
    /// optionally `VITAL_API_URL` and `VITAL_AUTH_URL`; `SMART_FHIR_URL`, `SMART_CLIENT_ID`, `SMART_PRIVATE_KEY` (a
    /// JWK), `SMART_PATIENT_ID`; `DATABASE_HOST`, `DATABASE_PORT`, `DATABASE_USER`, `DATABASE_PASSWORD`,
    /// `DATABASE_NAME`, `DATABASE_TABLE`; `ALLOW_LOOPBACK_HTTP=1` for an emulator; `APP_SESSIONS` as `token=user,token=user`.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BackendSettings
    {
        func value(_ name: String) throws -> String {
            guard let value = environment[name], !value.isEmpty else {
                throw Problem(variable: name, problem: "not set")
            }
            return value
        }
        func url(_ name: String) throws -> URL {
            guard let url = URL(string: try value(name)) else { throw Problem(variable: name, problem: "not a URL") }
            return url
        }
        let environmentName = environment["VITAL_ENVIRONMENT"] ?? "sandbox-us"
        guard let vitalEnvironment = Self.vitalEnvironments[environmentName] else {
            throw Problem(variable: "VITAL_ENVIRONMENT", problem: "one of \(Self.vitalEnvironments.keys.sorted())")
        }
        var hosts = VitalHostMap()
        if environment["VITAL_API_URL"] != nil {
            hosts = .all(VitalHosts(api: try url("VITAL_API_URL"), auth: try url("VITAL_AUTH_URL")))
        }
        let key: JSONWebKey
        do {
            key = try JSONWebKey(json: Data(try value("SMART_PRIVATE_KEY").utf8))
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(variable: "SMART_PRIVATE_KEY", problem: "not a JSON Web Key")
        }
        let sessions = (environment["APP_SESSIONS"] ?? "").split(separator: ",").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
        return BackendSettings(
            vitalAPIKey: APIKey(try value("VITAL_API_KEY")), vitalEnvironment: vitalEnvironment, vitalHosts: hosts,
            fhirBaseURL: try url("SMART_FHIR_URL"), smartClientID: try value("SMART_CLIENT_ID"),
            smartPrivateKey: key, smartPatientID: environment["SMART_PATIENT_ID"] ?? "example",
            database: .init(
                host: environment["DATABASE_HOST"] ?? "127.0.0.1",
                port: Int(environment["DATABASE_PORT"] ?? "") ?? 5432,
                username: try value("DATABASE_USER"), password: environment["DATABASE_PASSWORD"],
                database: environment["DATABASE_NAME"], tls: .disable),
            databaseTable: environment["DATABASE_TABLE"] ?? "healthsignin_credentials",
            allowsLoopbackHTTP: environment["ALLOW_LOOPBACK_HTTP"] == "1",
            appSessions: Dictionary(sessions, uniquingKeysWith: { first, _ in first }))
    }

    private static let vitalEnvironments: [String: VitalEnvironment] = [
        "sandbox-us": .sandboxUS, "sandbox-eu": .sandboxEU, "production-us": .productionUS,
        "production-eu": .productionEU,
    ]
}
