import Foundation
import HealthSignInVital
import XCTest

/// The documented Junction hosts for each environment, and overrides.
final class EnvironmentTests: XCTestCase {
    func testDocumentedHosts() {
        let expected: [(VitalEnvironment, String, String)] = [
            (.productionUS, "https://api.us.junction.com", "https://auth.us.junction.com"),
            (.productionEU, "https://api.eu.junction.com", "https://auth.eu.junction.com"),
            (.sandboxUS, "https://api.sandbox.us.junction.com", "https://auth.sandbox.us.junction.com"),
            (.sandboxEU, "https://api.sandbox.eu.junction.com", "https://auth.sandbox.eu.junction.com"),
            (VitalEnvironment(.dev, .us), "https://api.dev.us.junction.com", "https://auth.dev.us.junction.com"),
        ]
        for (environment, api, auth) in expected {
            XCTAssertEqual(environment.hosts.api.absoluteString, api, "\(environment)")
            XCTAssertEqual(environment.hosts.auth.absoluteString, auth, "\(environment)")
        }
    }

    func testOverridesReplaceOnlyTheirEnvironment() {
        let proxy = VitalHosts(
            api: URL(string: "https://vital-proxy.example/api")!, auth: URL(string: "https://vital-proxy.example/auth")!
        )
        let map = VitalHostMap(overrides: [.sandboxEU: proxy])
        XCTAssertEqual(map.hosts(for: .sandboxEU), proxy)
        XCTAssertEqual(map.hosts(for: .sandboxUS), VitalEnvironment.sandboxUS.hosts)
        XCTAssertEqual(VitalHostMap.all(proxy).hosts(for: .productionUS), proxy)
    }

    func testIssuerTierNames() {
        XCTAssertEqual(VitalEnvironment.Tier(issuerName: "stg"), .sandbox)
        XCTAssertEqual(VitalEnvironment.Tier(issuerName: "prd"), .production)
        XCTAssertEqual(VitalEnvironment.Tier(issuerName: "dev"), .dev)
        XCTAssertNil(VitalEnvironment.Tier(issuerName: "local"))
    }

    func testEnvironmentsParseFromTheirNames() {
        let named: [String: VitalEnvironment] = [
            "sandbox-us": .sandboxUS, "sandbox_eu": .sandboxEU, "production-us": .productionUS,
            "PRODUCTION-EU": .productionEU, "us.sandbox": .sandboxUS, "eu prd": .productionEU, "stg-us": .sandboxUS,
            "dev-eu": VitalEnvironment(.dev, .eu), "sandbox/us": .sandboxUS,
        ]
        for (name, environment) in named { XCTAssertEqual(VitalEnvironment(name: name), environment, name) }
        for environment in [VitalEnvironment.sandboxUS, .productionEU] {
            XCTAssertEqual(VitalEnvironment(name: environment.description), environment, "the description reads back")
        }
        for name in ["", "sandbox", "sandbox-us-1", "staging-us", "sandbox-ca", "us-eu", "sandbox--us"] {
            XCTAssertNil(VitalEnvironment(name: name), name)
        }
    }
}
