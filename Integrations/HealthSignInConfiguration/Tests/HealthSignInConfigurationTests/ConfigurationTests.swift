import Configuration
import Foundation
import HealthSignInConfiguration
import HealthSignInKoppeltaal2
import HealthSignInSMART
import HealthSignInTesting
import HealthSignInVital
import XCTest

/// The entry points read from environment variables as a server sets them, and every missing or unusable value is an
/// error naming its key, never its value.
final class ConfigurationTests: XCTestCase {
    private static let key = SMARTTestServer.backendPrivateKeyJWK

    private func reader(_ variables: [String: String]) -> ConfigReader {
        ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: variables))
    }

    private var smartVariables: [String: String] {
        [
            "SMART_CLIENT_ID": SMARTTestServer.backendClientID, "SMART_FHIR_URL": "https://fhir.example/r4",
            "SMART_SCOPE": "system/Observation.rs", "SMART_PRIVATE_KEY": Self.key,
        ]
    }

    func testASMARTServiceReadsFromTheEnvironment() throws {
        let store = InMemoryCredentialStore()
        let configuration = try SMARTBackendClient.Configuration(config: reader(smartVariables), store: store)
        XCTAssertEqual(configuration.registration.client.clientID, SMARTTestServer.backendClientID)
        XCTAssertEqual(configuration.registration.baseURL.absoluteString, "https://fhir.example/r4")
        XCTAssertEqual(configuration.scope, "system/Observation.rs")
        XCTAssertTrue(configuration.session.store as? InMemoryCredentialStore === store)
        XCTAssertNil(configuration.session.storeKey)
        var named = smartVariables
        named["SMART_STORE_KEY"] = "smart.service.fleet"
        XCTAssertEqual(
            try SMARTBackendClient.Configuration(config: reader(named)).session.storeKey, "smart.service.fleet")
    }

    func testEachMissingOrUnusableValueNamesItsKeyAndNotItsValue() throws {
        let cases: [(String, String?, String)] = [
            ("SMART_CLIENT_ID", nil, "smart.client.id is missing"),
            ("SMART_FHIR_URL", "ftp://fhir.example", "smart.fhir.url is not an http or https URL"),
            ("SMART_PRIVATE_KEY", "not a key", "smart.private.key is not a private key"),
            (
                "SMART_PRIVATE_KEY", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----",
                "smart.key.id is missing"
            ),
            ("SMART_KEY_ALGORITHM", "HS256", "smart.key.algorithm is not one of"),
            ("SMART_KEY_ALGORITHM", "RS384", "smart.private.key cannot sign"),
        ]
        for (variable, value, expected) in cases {
            var variables = smartVariables
            variables[variable] = value
            XCTAssertThrowsError(try SMARTBackendClient.Configuration(config: reader(variables)), variable) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
                XCTAssertEqual((error as? ConfigValueError)?.recovery, .reconfigure)
                XCTAssertFalse("\(error)".contains("WcrTiYk8"), "the key is not in the message")
            }
        }
    }

    func testAJunctionBackendReadsItsEnvironmentByName() throws {
        let variables = ["VITAL_API_KEY": VitalTestServer.sandboxUSKey, "VITAL_ENVIRONMENT": "production-eu"]
        let configuration = try VitalBackend.Configuration(config: reader(variables))
        XCTAssertEqual(configuration.environment, .productionEU)
        XCTAssertEqual(configuration.apiKey, APIKey(VitalTestServer.sandboxUSKey))
        XCTAssertEqual(try VitalBackend.Configuration(config: reader(["VITAL_API_KEY": "k"])).environment, .sandboxUS)
        let server = VitalTestServer()
        var overridden = variables
        overridden["VITAL_API_URL"] = server.apiURL.absoluteString
        overridden["VITAL_AUTH_URL"] = server.authURL.absoluteString
        let hosts = try VitalBackend.Configuration(config: reader(overridden)).hosts.hosts(for: .productionEU)
        XCTAssertEqual(hosts, VitalHosts(api: server.apiURL, auth: server.authURL))
        XCTAssertThrowsError(
            try VitalBackend.Configuration(config: reader(["VITAL_API_KEY": "k", "VITAL_ENVIRONMENT": "staging"]))
        ) {
            XCTAssertEqual(($0 as? ConfigValueError)?.key, "vital.environment")
        }
        XCTAssertThrowsError(
            try VitalBackend.Configuration(
                config: reader(["VITAL_API_URL": server.apiURL.absoluteString, "VITAL_API_KEY": "k"]))
        ) {
            XCTAssertEqual(($0 as? ConfigValueError)?.key, "vital.auth.url")
        }
    }

    func testAKoppeltaalModuleReadsItsDomain() throws {
        let variables = [
            "KOPPELTAAL_CLIENT_ID": "module-1", "KOPPELTAAL_FHIR_URL": "https://fhir.koppeltaal.example/fhir/DEFAULT",
            "KOPPELTAAL_PRIVATE_KEY": Self.key, "KOPPELTAAL_KEY_ALGORITHM": "ES384",
            "KOPPELTAAL_TRUSTED_HOSTS": "auth.koppeltaal.example, auth.example:8443",
        ]
        let configuration = try Koppeltaal2BackendClient.Configuration(config: reader(variables))
        XCTAssertEqual(configuration.registration.client.clientID, "module-1")
        XCTAssertEqual(configuration.registration.trustedHosts, ["auth.koppeltaal.example", "auth.example:8443"])
        var rs512 = variables
        rs512["KOPPELTAAL_KEY_ALGORITHM"] = nil
        XCTAssertThrowsError(try Koppeltaal2BackendClient.Configuration(config: reader(rs512))) {
            XCTAssertTrue("\($0)".contains("koppeltaal.private.key cannot sign"), "RS512 by default: \($0)")
        }
    }

    /// The documentation's example.
    func testTheDocumentedServiceReadsTheProcessEnvironment() throws {
        let store = InMemoryCredentialStore()
        XCTAssertThrowsError(
            try {
                // snippet doc-configuration-smart
                let config = ConfigReader(provider: EnvironmentVariablesProvider())
                let smart = SMARTBackendClient(configuration: try .init(config: config, store: store))
                // end snippet
                _ = smart
            }())
    }
}
