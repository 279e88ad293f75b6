import Foundation
import XCTest

@testable import HealthSignInHTTP

/// Which proxy a request takes: the environment's variables in either case (lower case first), `NO_PROXY`'s hosts,
/// domains and addresses by one rule, this machine and plain `http` through a plain proxy reached directly, and an
/// explicit setting over all of them.
final class ProxyRoutesTests: XCTestCase {
    private func route(_ setting: ProxySetting, _ environment: [String: String], _ url: String) throws -> String? {
        let target = try RequestTarget(try XCTUnwrap(URL(string: url)))
        return ProxyRoutes(setting, environment: environment).route(for: target).url
    }

    func testEachSchemeTakesItsOwnVariableInEitherCase() throws {
        let environment = ["HTTPS_PROXY": "http://secure:3128", "HTTP_PROXY": "http://plain:3128"]
        XCTAssertEqual(try route(.environment, environment, "https://api.example.com/"), "http://secure:3128")
        XCTAssertEqual(
            try route(.environment, ["HTTP_PROXY": "https://tls-proxy:3128"], "http://api.example.com/"),
            "https://tls-proxy:3128")
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

    /// A token on a plain `http` request never goes to a plain `http` proxy nobody named in code, and this machine is
    /// never reached through the environment's proxy; an explicit proxy takes both.
    func testThisMachineAndPlainHTTPThroughAPlainProxyAreReachedDirectly() throws {
        let environment = ["HTTP_PROXY": "http://plain:3128", "HTTPS_PROXY": "http://proxy:3128"]
        XCTAssertNil(try route(.environment, environment, "http://api.example.com/"))
        for loopback in [
            "https://127.0.0.1/", "https://127.8.9.10:8443/", "https://localhost/", "https://[::1]/",
            "https://app.localhost/", "http://127.0.0.1:8000/",
        ] {
            XCTAssertNil(try route(.environment, environment, loopback), loopback)
        }
        let explicit = try XCTUnwrap(URL(string: "http://named:8080"))
        XCTAssertEqual(try route(.proxy(explicit), environment, "http://127.0.0.1:8000/"), "http://named:8080")
        XCTAssertEqual(try route(.proxy(explicit), environment, "http://api.example.com/"), "http://named:8080")
    }

    /// Every `NO_PROXY` form by one rule: addresses match exactly (an IPv6 entry is never read as a suffix), names
    /// cover the names under them, and ports are ignored.
    func testNoProxyEntriesOfEveryFormMatchByOneRule() throws {
        func bypassed(_ noProxy: String, _ url: String) throws -> Bool {
            try route(.environment, ["HTTPS_PROXY": "http://proxy:3128", "NO_PROXY": noProxy], url) == nil
        }
        XCTAssertFalse(try bypassed("::1", "https://10.0.0.1/"), "an IPv6 entry is not a suffix")
        XCTAssertFalse(try bypassed("::1", "https://api.host1/"))
        XCTAssertTrue(try bypassed("fd00::1", "https://[fd00::1]/"))
        XCTAssertTrue(try bypassed("[fd00::1]", "https://[fd00::1]/"))
        XCTAssertTrue(try bypassed("[fd00:0:0::1]:8443", "https://[fd00::1]:9000/"), "the same address, any port")
        XCTAssertFalse(try bypassed("fd00::2", "https://[fd00::1]/"))
        XCTAssertTrue(try bypassed("10.1.2.3:8443", "https://10.1.2.3/"))
        XCTAssertFalse(try bypassed("10.1.2.3", "https://10.1.2.30/"))
        XCTAssertFalse(try bypassed("1", "https://10.0.0.1/"), "a bare number is a name, and matches no address")
        XCTAssertTrue(try bypassed("example.com:8443", "https://example.com/"))
        XCTAssertTrue(try bypassed(".example.com", "https://example.com/"))
        XCTAssertTrue(try bypassed("Example.COM", "https://api.example.com/"))
        XCTAssertFalse(try bypassed("example.com", "https://notexample.com/"))
        XCTAssertTrue(try bypassed("a.test, *", "https://anything.example/"))
        XCTAssertFalse(try bypassed(" , ,", "https://anything.example/"))
    }
}

/// Hosts that name one place to one check and another to the resolver are refused; the forms every check reads alike
/// are sent.
final class RequestTargetTests: XCTestCase {
    func testIPv4InOtherFormsAndIPv4WrittenAsIPv6AreRefused() {
        for text in [
            "https://0x7f.0.0.1/", "https://127.1/", "https://2130706433/", "https://0177.0.0.1/",
            "https://127.000.0.1/", "https://127.0.0.1.0x1/", "https://256.0.0.1/", "https://[::ffff:127.0.0.1]/",
            "https://[::ffff:7f00:1]/", "https://[::127.0.0.1]/", "https://example.0x10/", "https://host.123/",
            "https://b%C3%BCcher.example/",
        ] {
            guard let url = URL(string: text) else { continue }
            XCTAssertThrowsError(try RequestTarget(url), text) {
                guard case .invalidURL = $0 as? RequestEncodingError else { return XCTFail("\(text): \($0)") }
            }
        }
    }

    func testCanonicalAddressesAndALabelsAreSent() throws {
        for (text, host) in [
            ("https://127.0.0.1:8443/", "127.0.0.1"), ("https://10.0.0.255/", "10.0.0.255"),
            ("https://[::1]/", "::1"), ("https://[fd00::1]/", "fd00::1"),
            ("https://xn--bcher-kva.example/", "xn--bcher-kva.example"),
            ("https://API.Example.COM/", "api.example.com"),
            ("https://host.123abc/", "host.123abc"),
        ] {
            XCTAssertEqual(try RequestTarget(try XCTUnwrap(URL(string: text))).host, host, text)
        }
        // Where Foundation reads a Unicode host, it keeps the A-label, and that is what is sent.
        if let unicode = URL(string: "https://b\u{00FC}cher.example/") {
            XCTAssertEqual(try RequestTarget(unicode).host, "xn--bcher-kva.example")
        }
    }
}
