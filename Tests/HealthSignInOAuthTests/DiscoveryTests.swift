import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Endpoints are pinned to the origins a registration trusts (scheme, host in any case, port); configured ones win
/// and are used as they are; what was read is kept per base URL and checked again whenever it is used.
final class DiscoveryTests: XCTestCase {
    private static let base = URL(string: "https://fhir.example/r4")!

    private static func registration(
        _ base: URL = base, overrides: EndpointOverrides = .init(), trusted: [String] = []
    ) -> OAuthRegistration {
        OAuthRegistration(
            baseURL: base, client: OAuthClientCredentials(clientID: "app"), trustedHosts: trusted, endpoints: overrides)
    }

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
            "https://fhir.example@evil.example/token", "https://evil.example@fhir.example/token",
            "https://user:pass@fhir.example/token",
        ] {
            XCTAssertFalse(origins.contains(URL(string: refused)!), refused)
        }
    }

    /// A discovery whose server advertises `uris` (and `issuer`), counting how often it is asked.
    private func discovery(
        _ uris: [EndpointName: String], issuer: String? = nil, store: (any CredentialStore)? = nil,
        reads: LockedValue<Int> = .init(0)
    ) -> OAuthDiscovery {
        OAuthDiscovery(family: "Test", urlPolicy: URLPolicy(), store: store, storeKey: "kept") { _ in
            reads.withValue { $0 += 1 }
            return AdvertisedEndpoints(issuer: issuer, uris: uris, codeChallengeMethods: ["S256"])
        }
    }

    /// The code of the ``SignInError`` `body` throws, or nil when it throws none.
    private func code(_ body: () async throws -> Void) async -> SignInError.Code? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? SignInError)?.code
        }
    }

    func testAnEndpointOnAnotherPortOfTheSameHostIsRefused() async throws {
        let found = discovery([.token: "https://fhir.example:8443/token"])
        let refused = await code { _ = try await found.endpoints(for: Self.registration()) }
        XCTAssertEqual(refused, .untrustedEndpoint)
    }

    func testRelativeURIsResolveAgainstTheBaseAndOverridesWin() async throws {
        let override = URL(string: "https://elsewhere.example/revoke")!
        let endpoints = try await discovery(
            [.token: "auth/token", .authorization: "/authorize", .revocation: "https://fhir.example/revoke"]
        ).endpoints(for: Self.registration(overrides: .init(revocation: override)), needing: [.authorization])
        XCTAssertEqual(endpoints.token.absoluteString, "https://fhir.example/auth/token")
        XCTAssertEqual(endpoints.authorization?.absoluteString, "https://fhir.example/authorize")
        XCTAssertEqual(endpoints.revocation, override, "a configured endpoint is used as it is, on any origin")
        XCTAssertEqual(endpoints.codeChallengeMethods, ["S256"])
    }

    /// What a registration trusts is its own: an issuer on a host another registration trusts is refused.
    func testAnIssuerCountsOnlyOnTheRegistrationsOwnOrigins() async throws {
        let found = discovery([.token: "/token"], issuer: "https://auth.example")
        let untrusted = await code { _ = try await found.endpoints(for: Self.registration()) }
        XCTAssertEqual(untrusted, .untrustedIssuer)
        let trusted = try await found.endpoints(for: Self.registration(trusted: ["auth.example"]))
        XCTAssertEqual(trusted.expectedIssuer, "https://auth.example")
        for issuer in ["https://auth.example@fhir.example", "https://fhir.example@auth.example", "not a url"] {
            let refused = await code {
                _ = try await self.discovery([.token: "/token"], issuer: issuer).endpoints(
                    for: Self.registration(trusted: ["auth.example"]))
            }
            XCTAssertEqual(refused, .untrustedIssuer, issuer)
        }
    }

    /// A server may not put a parameter the SDK sets into its authorization endpoint's query, in any case.
    func testAnAuthorizationEndpointQueryMayNotNameAReservedParameter() async throws {
        let fine = try await discovery([.token: "/token", .authorization: "/authorize?tenant=a"]).endpoints(
            for: Self.registration(), needing: [.authorization])
        XCTAssertEqual(fine.authorization?.query, "tenant=a")
        for query in ["redirect_uri=https://evil.example/cb", "Client_ID=x", "response_mode=fragment", "request_uri=x"]
        {
            let refused = await code {
                _ = try await self.discovery([.token: "/token", .authorization: "/authorize?" + query]).endpoints(
                    for: Self.registration(), needing: [.authorization])
            }
            XCTAssertEqual(refused, .untrustedEndpoint, query)
        }
        let configured = URL(string: "https://fhir.example/authorize?client_id=x")!
        let endpoints = try await discovery([.token: "/token"]).endpoints(
            for: Self.registration(overrides: .init(authorization: configured)), needing: [.authorization])
        XCTAssertEqual(endpoints.authorization, configured, "the app's own configuration is used as it is")
    }

    func testWhatIsReadIsKeptPerBaseURLAndNothingIsReadWhenConfigured() async throws {
        let reads = LockedValue(0)
        let store = InMemoryCredentialStore()
        let found = discovery([.token: "/token"], store: store, reads: reads)
        _ = try await found.endpoints(for: Self.registration())
        _ = try await found.endpoints(for: Self.registration())
        XCTAssertEqual(reads.current, 1)
        let other = Self.registration(URL(string: "https://fhir.example/other")!)
        _ = try await found.endpoints(for: other)
        XCTAssertEqual(reads.current, 2, "another base URL is read on its own")
        let again = discovery([.token: "/token"], store: store, reads: reads)
        _ = try await again.endpoints(for: other)
        _ = try await again.endpoints(for: Self.registration())
        XCTAssertEqual(reads.current, 2, "the store keeps what was read, for every base URL")
        _ = try await discovery([:], reads: reads).endpoints(
            for: Self.registration(overrides: .init(token: URL(string: "https://fhir.example/t"))))
        XCTAssertEqual(reads.current, 2, "every endpoint needed is configured")
        let missing = await code {
            _ = try await self.discovery([.token: "/token"]).endpoints(for: Self.registration(), needing: [.jwks])
        }
        XCTAssertEqual(missing, .discoveryFailed)
    }

    func testStoredEndpointsAreCheckedAgainWhenLoaded() async throws {
        let store = InMemoryCredentialStore()
        _ = try await discovery([.token: "/token"], store: store).endpoints(for: Self.registration())
        // The stored cache is edited to send tokens elsewhere.
        let kept = try await XCTUnwrapAsync(try await store.text("kept"))
        try await store.write(
            text: kept.replacingOccurrences(of: "/token", with: "https://evil.example/token"), for: "kept")
        let reads = LockedValue(0)
        let refused = await code {
            _ = try await self.discovery([.token: "/token"], store: store, reads: reads).endpoints(
                for: Self.registration())
        }
        XCTAssertEqual(refused, .untrustedEndpoint)
        XCTAssertThrowsError(
            try discovery([:]).check(
                OAuthEndpoints(baseURL: Self.base, token: URL(string: "https://evil.example/token")!),
                for: Self.registration()))
        XCTAssertNoThrow(
            try discovery([:]).check(
                OAuthEndpoints(baseURL: Self.base, token: URL(string: "https://fhir.example/t")!),
                for: Self.registration()))
    }
}

extension CredentialStore {
    /// The stored text under `key`.
    fileprivate func text(_ key: String) async throws -> String? {
        try await read(key).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Stores `text` under `key`.
    fileprivate func write(text: String, for key: String) async throws {
        try await write(Data(text.utf8), for: key)
    }
}
