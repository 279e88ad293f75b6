import Foundation
import XCTest

@testable import HealthSignInHTTP

/// Which proxy a request takes: the environment's variables in either case (lower case first), `NO_PROXY`'s hosts and
/// domains, and an explicit setting over all of them.
final class ProxyRoutesTests: XCTestCase {
    private func route(_ setting: ProxySetting, _ environment: [String: String], _ url: String) throws -> String? {
        let target = try RequestTarget(try XCTUnwrap(URL(string: url)))
        return ProxyRoutes(setting, environment: environment).route(for: target).url
    }

    func testEachSchemeTakesItsOwnVariableInEitherCase() throws {
        let environment = ["HTTPS_PROXY": "http://secure:3128", "HTTP_PROXY": "http://plain:3128"]
        XCTAssertEqual(try route(.environment, environment, "https://api.example.com/"), "http://secure:3128")
        XCTAssertEqual(try route(.environment, environment, "http://api.example.com/"), "http://plain:3128")
        let lower = ["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:2"]
        XCTAssertEqual(try route(.environment, lower, "https://api.example.com/"), "http://lower:1")
        XCTAssertEqual(try route(.environment, ["ALL_PROXY": "http://all:3"], "https://a.example/"), "http://all:3")
        XCTAssertNil(try route(.environment, [:], "https://api.example.com/"))
    }

    func testNoProxyNamesHostsAndDomains() throws {
        let environment = [
            "HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": " internal.example, .corp.example ,10.0.0.1",
        ]
        XCTAssertNil(try route(.environment, environment, "https://internal.example/"))
        XCTAssertNil(try route(.environment, environment, "https://api.internal.example/"))
        XCTAssertNil(try route(.environment, environment, "https://fhir.corp.example/"))
        XCTAssertNil(try route(.environment, environment, "https://10.0.0.1/"))
        XCTAssertEqual(try route(.environment, environment, "https://notinternal.example/"), "http://proxy:3128")
        XCTAssertNil(
            try route(.environment, ["HTTPS_PROXY": "http://proxy:3128", "no_proxy": "*"], "https://a.example/"))
    }

    func testAnExplicitSettingOverridesTheEnvironment() throws {
        let environment = ["HTTPS_PROXY": "http://proxy:3128"]
        XCTAssertNil(try route(.none, environment, "https://api.example.com/"))
        let explicit = try XCTUnwrap(URL(string: "http://other:8080"))
        XCTAssertEqual(
            try route(.proxy(explicit, bypass: ["skip.example"]), environment, "https://api.example.com/"),
            "http://other:8080")
        XCTAssertNil(try route(.proxy(explicit, bypass: ["skip.example"]), environment, "https://skip.example/"))
    }
}
