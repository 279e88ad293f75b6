import Foundation
import HealthSignInCore
import HealthSignInVital

/// What the backend is configured with, read from its environment: the Junction team's API key and region, the FHIR
/// server of the SMART job with the service's client id and private key, and the app's sessions.
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
    /// The service's private key, a JWK (ES384), whose public half the authorization server knows.
    public var smartPrivateKey: JSONWebKey
    /// The patient the job syncs.
    public var smartPatientID: String
    /// Whether plain http to this machine is allowed (an emulator on loopback); https otherwise.
    public var allowsLoopbackHTTP: Bool
    /// The app's own sessions: bearer token to user id. An example stand-in for the app's real sign-in.
    public var appSessions: [String: String]

    /// Creates settings.
    public init(
        vitalAPIKey: APIKey, vitalEnvironment: VitalEnvironment, vitalHosts: VitalHostMap = .init(), fhirBaseURL: URL,
        smartClientID: String, smartPrivateKey: JSONWebKey, smartPatientID: String, allowsLoopbackHTTP: Bool = false,
        appSessions: [String: String]
    ) {
        self.vitalAPIKey = vitalAPIKey
        self.vitalEnvironment = vitalEnvironment
        self.vitalHosts = vitalHosts
        self.fhirBaseURL = fhirBaseURL
        self.smartClientID = smartClientID
        self.smartPrivateKey = smartPrivateKey
        self.smartPatientID = smartPatientID
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
        self.appSessions = appSessions
    }

    /// A variable that is missing or cannot be read; the message names it, never its value.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        /// The variable.
        public let variable: String
        /// What is wrong with it.
        public let problem: String
        /// A one-line explanation.
        public var description: String { "\(variable): \(problem)" }
    }

    /// Settings from environment variables:
    /// - `VITAL_API_KEY` (required); `VITAL_ENVIRONMENT`, one of `sandbox-us` (the default), `sandbox-eu`,
    ///   `production-us`, `production-eu`; `VITAL_API_URL` with `VITAL_AUTH_URL`, for another host than the
    ///   environment's;
    /// - `SMART_FHIR_URL`, `SMART_CLIENT_ID` and `SMART_PRIVATE_KEY` (a JWK), required; `SMART_PATIENT_ID`
    ///   (`example` by default);
    /// - `ALLOW_LOOPBACK_HTTP=1` for an emulator on this machine; `APP_SESSIONS` as `token=user,token=user`.
    ///
    /// - Throws: a ``Problem`` naming the first variable that is missing or cannot be read.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BackendSettings
    {
        let variables = Variables(environment: environment)
        let environmentName = variables.optional("VITAL_ENVIRONMENT") ?? "sandbox-us"
        guard let vitalEnvironment = vitalEnvironments[environmentName] else {
            throw Problem(
                variable: "VITAL_ENVIRONMENT",
                problem: "not one of \(vitalEnvironments.keys.sorted().joined(separator: ", "))")
        }
        var hosts = VitalHostMap()
        if variables.optional("VITAL_API_URL") != nil || variables.optional("VITAL_AUTH_URL") != nil {
            hosts = .all(VitalHosts(api: try variables.url("VITAL_API_URL"), auth: try variables.url("VITAL_AUTH_URL")))
        }
        let key: JSONWebKey
        let keyText = try variables.required("SMART_PRIVATE_KEY")
        do {
            key = try JSONWebKey(json: Data(keyText.utf8))
        } catch {
            throw Problem(variable: "SMART_PRIVATE_KEY", problem: "not a JSON Web Key")
        }
        return BackendSettings(
            vitalAPIKey: APIKey(try variables.required("VITAL_API_KEY")), vitalEnvironment: vitalEnvironment,
            vitalHosts: hosts, fhirBaseURL: try variables.url("SMART_FHIR_URL"),
            smartClientID: try variables.required("SMART_CLIENT_ID"), smartPrivateKey: key,
            smartPatientID: variables.optional("SMART_PATIENT_ID") ?? "example",
            allowsLoopbackHTTP: variables.optional("ALLOW_LOOPBACK_HTTP") == "1",
            appSessions: try sessions(variables.optional("APP_SESSIONS") ?? ""))
    }

    /// `token=user,token=user` as a dictionary; a pair without both halves, or a token given twice, is a problem.
    private static func sessions(_ text: String) throws -> [String: String] {
        var sessions: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw Problem(variable: "APP_SESSIONS", problem: "expected token=user pairs separated by commas")
            }
            guard sessions.updateValue(parts[1], forKey: parts[0]) == nil else {
                throw Problem(variable: "APP_SESSIONS", problem: "a token is given twice")
            }
        }
        return sessions
    }

    private static let vitalEnvironments: [String: VitalEnvironment] = [
        "sandbox-us": .sandboxUS, "sandbox-eu": .sandboxEU, "production-us": .productionUS,
        "production-eu": .productionEU,
    ]

    /// Reads variables, an empty one counting as unset.
    private struct Variables {
        let environment: [String: String]

        func optional(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }

        func required(_ name: String) throws -> String {
            guard let value = optional(name) else { throw Problem(variable: name, problem: "not set") }
            return value
        }

        func url(_ name: String) throws -> URL {
            guard let url = URL(string: try required(name)), url.scheme != nil, url.host != nil else {
                throw Problem(variable: name, problem: "not an absolute URL")
            }
            return url
        }
    }
}
