import AsyncHTTPClient
import Foundation
import HealthSignInConfiguration
import HealthSignInObservability
import HealthSignInSMART
import HealthSignInTesting
import HealthSignInVital
import Logging
import VaporBackend
import XCTest

/// The settings are read from the environment with their defaults, the SDK's clients read their own values when the
/// backend makes them, and a value that is missing or cannot be read is named by its key, without its value.
final class BackendSettingsTests: XCTestCase {
    private let minimal = [
        "VITAL_API_KEY": "sk_us_settings-canary", "SMART_FHIR_URL": "https://ehr.example/fhir",
        "SMART_CLIENT_ID": "my-service", "SMART_SCOPE": "system/Patient.rs system/Observation.rs",
        "SMART_PRIVATE_KEY": SMARTTestServer.backendPrivateKeyJWK,
    ]

    func testTheDefaultsAreASandboxOverHTTPSWithoutSessions() throws {
        let settings = try BackendSettings.fromEnvironment(minimal)
        XCTAssertEqual(settings.patientID, "example")
        XCTAssertFalse(settings.urlPolicy.allowsInsecureLoopback)
        XCTAssertEqual(settings.appSessions, [:])
        XCTAssertEqual(settings.port, 8080)
        let backend = try Self.backend(settings)
        XCTAssertEqual(backend.vital.configuration.apiKey.value, "sk_us_settings-canary")
        XCTAssertEqual(backend.vital.configuration.environment, .sandboxUS)
        XCTAssertEqual(backend.smart.configuration.registration.baseURL.absoluteString, "https://ehr.example/fhir")
        XCTAssertEqual(backend.smart.configuration.registration.client.clientID, "my-service")
        XCTAssertEqual(backend.smart.configuration.scope, "system/Patient.rs system/Observation.rs")
        XCTAssertEqual(backend.patientID, "example")
        XCTAssertFalse(backend.smart.configuration.session.options.urlPolicy.allowsInsecureLoopback)
    }

    func testEveryVariableIsRead() throws {
        var environment = minimal
        environment["VITAL_ENVIRONMENT"] = "production-eu"
        environment["VITAL_API_URL"] = "http://127.0.0.1:9/vital/api"
        environment["VITAL_AUTH_URL"] = "http://127.0.0.1:9/vital/auth"
        environment["SMART_PATIENT_ID"] = "patient-7"
        environment["ALLOW_LOOPBACK_HTTP"] = "1"
        environment["APP_SESSIONS"] = "a-session=alice, b-session=bob"
        environment["PORT"] = "8181"
        let settings = try BackendSettings.fromEnvironment(environment)
        XCTAssertEqual(settings.patientID, "patient-7")
        XCTAssertTrue(settings.urlPolicy.allowsInsecureLoopback)
        XCTAssertEqual(settings.appSessions, ["a-session": "alice", "b-session": "bob"])
        XCTAssertEqual(settings.port, 8181)
        let backend = try Self.backend(settings)
        XCTAssertEqual(backend.vital.configuration.environment, .productionEU)
        let hosts = backend.vital.configuration.hosts.hosts(for: .productionEU)
        XCTAssertEqual(hosts.api.absoluteString, "http://127.0.0.1:9/vital/api")
        XCTAssertEqual(hosts.auth.absoluteString, "http://127.0.0.1:9/vital/auth")
        XCTAssertEqual(backend.patientID, "patient-7")
        XCTAssertEqual(backend.appSessions, ["a-session": "alice", "b-session": "bob"])
    }

    /// Both clients send with one set of options (the settings' URL policy, traced and measured) and keep what they
    /// are issued in one store.
    func testTheClientsShareTheirOptionsAndStore() throws {
        var environment = minimal
        environment["ALLOW_LOOPBACK_HTTP"] = "1"
        let backend = try Self.backend(try BackendSettings.fromEnvironment(environment))
        let vital = backend.vital.configuration
        let smart = backend.smart.configuration.session
        for options in [vital.options, smart.options] {
            XCTAssertTrue(options.urlPolicy.allowsInsecureLoopback)
            XCTAssertTrue(options.middlewares.first is ObservabilityMiddleware, "\(options.middlewares)")
            XCTAssertNotNil(options.logger)
        }
        XCTAssertTrue(vital.store is InMemoryCredentialStore)
        XCTAssertTrue(vital.store as AnyObject === smart.store as AnyObject, "one store for both clients")
    }

    func testAValueThatIsMissingOrUnreadableIsNamedWithoutItsValue() throws {
        func problem(_ changes: [String: String?]) -> ConfigValueError? {
            var environment = minimal
            for (name, value) in changes { environment[name] = value }
            do {
                _ = try Self.backend(try BackendSettings.fromEnvironment(environment))
                return nil
            } catch {
                return error as? ConfigValueError
            }
        }
        XCTAssertNil(problem([:]))
        XCTAssertEqual(problem(["VITAL_API_KEY": nil])?.key, "vital.api.key")
        XCTAssertEqual(problem(["VITAL_API_KEY": ""])?.problem, "is missing")
        XCTAssertEqual(problem(["VITAL_ENVIRONMENT": "moon"])?.key, "vital.environment")
        XCTAssertEqual(problem(["VITAL_API_URL": "http://127.0.0.1:9/api"])?.key, "vital.auth.url")
        XCTAssertEqual(problem(["SMART_FHIR_URL": "ehr.example"])?.key, "smart.fhir.url")
        XCTAssertEqual(problem(["SMART_CLIENT_ID": nil])?.key, "smart.client.id")
        XCTAssertEqual(problem(["SMART_SCOPE": nil])?.key, "smart.scope")
        XCTAssertEqual(problem(["APP_SESSIONS": "alice-session"])?.key, "app.sessions")
        XCTAssertEqual(problem(["APP_SESSIONS": "s=alice,s=bob"])?.key, "app.sessions")
        let key = problem(["SMART_PRIVATE_KEY": "not-a-key-canary"])
        XCTAssertEqual(key?.key, "smart.private.key")
        XCTAssertFalse(key?.description.contains("canary") ?? true)
    }

    /// The backend the settings make; it sends nothing until it is called.
    private static func backend(_ settings: BackendSettings) throws -> Backend {
        try Backend(settings: settings, httpClient: .shared, logger: Logger(label: "settings-test"))
    }
}
