import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Endpoints are pinned to the base URL's origin (scheme, host in any case, port) or a trusted one; configured ones
/// win and are used as they are; what was read is kept per base URL and checked again whenever it is used.
final class DiscoveryTests: XCTestCase {
    private static let base = URL(string: "https://fhir.example/r4")!

    func testAnOriginIsItsSchemeHostAndPort() {
        let origins = TrustedOrigins(base: Self.base, trustedHosts: ["auth.example", "login.example:8443"])
        for accepted in [
            "https://fhir.example/token", "https://FHIR.Example/token", "https://fhir.example:443/token",
            "https://auth.example/token", "https://login.example:8443/token",
        ] {
            XCTAssertTrue(origins.contains(URL(string: accepted)!), accepted)
        }
        for refused in [
            "https://fhir.example:8443/token", "http://fhir.example/token", "https://fhir.example.evil/token",
            "https://login.example/token", "https://auth.example:444/token", "https://evil.example/token",
        ] {
            XCTAssertFalse(origins.contains(URL(string: refused)!), refused)
        }
    }

    /// A discovery whose server advertises `uris`, counting how often it is asked.
    private func discovery(
        _ uris: [EndpointName: String], overrides: EndpointOverrides = .init(), trusted: [String] = [],
        store: (any CredentialStore)? = nil, reads: LockedValue<Int> = .init(0)
    ) -> OAuthDiscovery {
        OAuthDiscovery(
            overrides: overrides, trustedHosts: trusted, urlPolicy: URLPolicy(), store: store, storeKey: "kept"
        ) { _ in
            reads.withValue { $0 += 1 }
            return AdvertisedEndpoints(uris: uris, codeChallengeMethods: ["S256"])
        }
    }

    func testAnEndpointOnAnotherPortOfTheSameHostIsRefused() async throws {
        let found = discovery([.token: "https://fhir.example:8443/token"])
        do {
            _ = try await found.endpoints(for: Self.base)
            XCTFail("the token endpoint on another port was accepted")
        } catch DiscoveryError.untrustedEndpoint(let name, let url) {
            XCTAssertEqual(name, .token)
            XCTAssertEqual(url.port, 8443)
        }
    }

    func testRelativeURIsResolveAgainstTheBaseAndOverridesWin() async throws {
        let override = URL(string: "https://elsewhere.example/revoke")!
        let endpoints = try await discovery(
            [.token: "auth/token", .authorization: "/authorize", .revocation: "https://fhir.example/revoke"],
            overrides: .init(revocation: override)
        ).endpoints(for: Self.base, needing: [.authorization])
        XCTAssertEqual(endpoints.token.absoluteString, "https://fhir.example/auth/token")
        XCTAssertEqual(endpoints.authorization?.absoluteString, "https://fhir.example/authorize")
        XCTAssertEqual(endpoints.revocation, override, "a configured endpoint is used as it is, on any origin")
        XCTAssertEqual(endpoints.codeChallengeMethods, ["S256"])
    }

    func testWhatIsReadIsKeptPerBaseURLAndNothingIsReadWhenConfigured() async throws {
        let reads = LockedValue(0)
        let store = InMemoryCredentialStore()
        let found = discovery([.token: "/token"], store: store, reads: reads)
        _ = try await found.endpoints(for: Self.base)
        _ = try await found.endpoints(for: Self.base)
        XCTAssertEqual(reads.current, 1)
        let other = URL(string: "https://fhir.example/other")!
        _ = try await found.endpoints(for: other)
        XCTAssertEqual(reads.current, 2, "another base URL is read on its own")
        let again = discovery([.token: "/token"], store: store, reads: reads)
        _ = try await again.endpoints(for: other)
        XCTAssertEqual(reads.current, 2, "the store keeps what was read")
        let configured = discovery([:], overrides: .init(token: URL(string: "https://fhir.example/t")), reads: reads)
        _ = try await configured.endpoints(for: Self.base)
        XCTAssertEqual(reads.current, 2, "every endpoint needed is configured")
        do {
            _ = try await discovery([.token: "/token"]).endpoints(for: Self.base, needing: [.jwks])
            XCTFail("a missing key set was accepted")
        } catch DiscoveryError.missingEndpoints(let names) {
            XCTAssertEqual(names, [.jwks])
        }
    }

    func testStoredEndpointsAreCheckedAgainWhenLoaded() async throws {
        let store = InMemoryCredentialStore()
        _ = try await discovery([.token: "/token"], store: store).endpoints(for: Self.base)
        // The stored cache is edited to send tokens elsewhere.
        let kept = try XCTUnwrap(try store.text("kept"))
        try store.write(text: kept.replacingOccurrences(of: "/token", with: "https://evil.example/token"), for: "kept")
        let reads = LockedValue(0)
        do {
            _ = try await discovery([.token: "/token"], store: store, reads: reads).endpoints(for: Self.base)
            XCTFail("a stored endpoint on another origin was used")
        } catch DiscoveryError.untrustedEndpoint(_, let url) {
            XCTAssertEqual(url.host, "evil.example")
        }
        XCTAssertThrowsError(
            try discovery([:]).check(
                OAuthEndpoints(baseURL: Self.base, token: URL(string: "https://evil.example/token")!)))
        XCTAssertNoThrow(
            try discovery([:]).check(OAuthEndpoints(baseURL: Self.base, token: URL(string: "https://fhir.example/t")!)))
    }
}

extension CredentialStore {
    /// The stored text under `key`.
    fileprivate func text(_ key: String) throws -> String? {
        try read(key).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Stores `text` under `key`.
    fileprivate func write(text: String, for key: String) throws {
        try write(Data(text.utf8), for: key)
    }
}
