import Foundation
import HealthSignInVital
import VaporBackend
import XCTest

/// The settings are read from the environment with their defaults, and a variable that is missing or cannot be read
/// is named, without its value.
final class BackendSettingsTests: XCTestCase {
    private let minimal = [
        "VITAL_API_KEY": "sk_us_settings-canary", "SMART_FHIR_URL": "https://ehr.example/fhir",
        "SMART_CLIENT_ID": "my-service", "SMART_PRIVATE_KEY": VaporBackendTests.serviceKey,
    ]

    func testTheDefaultsAreASandboxOverHTTPSWithoutSessions() throws {
        let settings = try BackendSettings.fromEnvironment(minimal)
        XCTAssertEqual(settings.vitalAPIKey.value, "sk_us_settings-canary")
        XCTAssertEqual(settings.vitalEnvironment, .sandboxUS)
        XCTAssertEqual(settings.fhirBaseURL.absoluteString, "https://ehr.example/fhir")
        XCTAssertEqual(settings.smartClientID, "my-service")
        XCTAssertEqual(settings.smartPatientID, "example")
        XCTAssertFalse(settings.allowsLoopbackHTTP)
        XCTAssertEqual(settings.appSessions, [:])
    }

    func testEveryVariableIsRead() throws {
        var environment = minimal
        environment["VITAL_ENVIRONMENT"] = "production-eu"
        environment["VITAL_API_URL"] = "http://127.0.0.1:9/vital/api"
        environment["VITAL_AUTH_URL"] = "http://127.0.0.1:9/vital/auth"
        environment["SMART_PATIENT_ID"] = "patient-7"
        environment["ALLOW_LOOPBACK_HTTP"] = "1"
        environment["APP_SESSIONS"] = "a-session=alice, b-session=bob"
        let settings = try BackendSettings.fromEnvironment(environment)
        XCTAssertEqual(settings.vitalEnvironment, .productionEU)
        let hosts = settings.vitalHosts.hosts(for: .productionEU)
        XCTAssertEqual(hosts.api.absoluteString, "http://127.0.0.1:9/vital/api")
        XCTAssertEqual(hosts.auth.absoluteString, "http://127.0.0.1:9/vital/auth")
        XCTAssertEqual(settings.smartPatientID, "patient-7")
        XCTAssertTrue(settings.allowsLoopbackHTTP)
        XCTAssertEqual(settings.appSessions, ["a-session": "alice", "b-session": "bob"])
    }

    func testAVariableThatIsMissingOrUnreadableIsNamedWithoutItsValue() {
        func problem(_ changes: [String: String?]) -> BackendSettings.Problem? {
            var environment = minimal
            for (name, value) in changes { environment[name] = value }
            do {
                _ = try BackendSettings.fromEnvironment(environment)
                return nil
            } catch {
                return error as? BackendSettings.Problem
            }
        }
        XCTAssertEqual(problem(["VITAL_API_KEY": nil])?.variable, "VITAL_API_KEY")
        XCTAssertEqual(problem(["VITAL_API_KEY": ""])?.problem, "not set")
        XCTAssertEqual(problem(["VITAL_ENVIRONMENT": "moon"])?.variable, "VITAL_ENVIRONMENT")
        XCTAssertEqual(problem(["VITAL_API_URL": "http://127.0.0.1:9/api"])?.variable, "VITAL_AUTH_URL")
        XCTAssertEqual(problem(["SMART_FHIR_URL": "ehr.example"])?.variable, "SMART_FHIR_URL")
        XCTAssertEqual(problem(["SMART_CLIENT_ID": nil])?.variable, "SMART_CLIENT_ID")
        XCTAssertEqual(problem(["APP_SESSIONS": "alice-session"])?.variable, "APP_SESSIONS")
        XCTAssertEqual(problem(["APP_SESSIONS": "s=alice,s=bob"])?.variable, "APP_SESSIONS")
        let key = problem(["SMART_PRIVATE_KEY": "not-a-key-canary"])
        XCTAssertEqual(key?.variable, "SMART_PRIVATE_KEY")
        XCTAssertFalse(key?.description.contains("canary") ?? true)
    }
}
