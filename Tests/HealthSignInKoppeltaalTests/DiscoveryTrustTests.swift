import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Discovered endpoints cannot send the client secret or tokens to another host; configured endpoints always win,
/// also over a cache; the cache belongs to one FHIR base URL.
final class DiscoveryTrustTests: XCTestCase {
    private static let base = URL(string: "https://kt.example/FHIR/Koppeltaal")!

    /// A Conformance in the flat Koppeltaal form naming `authorize` and `token`.
    private static func conformance(authorize: String, token: String) -> Data {
        let form = "http://fhir-registry.smartplatforms.org/Profile/oauth-uris"
        return Data(
            """
            {"resourceType": "Conformance", "rest": [{"mode": "server", "security": {"extension": [
            {"url": "\(form)#authorize", "valueUri": "\(authorize)"}, {"url": "\(form)#token", "valueUri": "\(token)"}]}}]}
            """.utf8)
    }

    /// A transport whose Conformance names `token` and that answers Authorize and Token for any host.
    private static func server(token: String) throws -> RecordingTransport {
        let tokenResponse = try Fixtures.data("Koppeltaal/Token/response.json")
        return RecordingTransport { request in
            let json: HTTPHeaderFields = ["Content-Type": "application/json"]
            switch request.url.lastPathComponent {
            case "metadata":
                return HTTPResponseMessage(
                    status: 200, headers: json,
                    body: conformance(authorize: "https://kt.example/OAuth2/Koppeltaal/Authorize", token: token))
            case "Authorize":
                return HTTPResponseMessage(status: 200, headers: json, body: Data(#"{"authorization_code": "c"}"#.utf8))
            default: return HTTPResponseMessage(status: 200, headers: json, body: tokenResponse)
            }
        }
    }

    private func session(
        base: URL = base, transport: RecordingTransport, store: any CredentialStore = InMemoryCredentialStore(),
        overrides: EndpointOverrides = .init(), trusted: [String] = []
    ) -> KoppeltaalSession {
        KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: base,
                    client: OAuthClientCredentials(
                        clientID: "c", secret: "canary-client-secret", method: .unencodedBasic),
                    redirectURI: "app://cb", trustedHosts: trusted, endpoints: overrides),
                readsSMARTConfiguration: false,
                session: OAuthSessionSettings(store: store, options: ClientOptions(transport: transport))))
    }

    func testADiscoveredEndpointOnAnotherHostIsRefusedBeforeAnythingIsSent() async throws {
        let transport = try Self.server(token: "https://collector.example/Token")
        do {
            _ = try await session(transport: transport).activate(code: "123456")
            XCTFail("the token endpoint on another host was used")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .untrustedEndpoint)
            XCTAssertTrue(error.reason.contains("token_endpoint is on https://collector.example"), error.reason)
        }
        XCTAssertEqual(transport.requests.map(\.url.lastPathComponent), ["metadata"], "nothing but discovery was sent")
    }

    func testADiscoveredEndpointOnAnotherPortOfTheSameHostIsRefused() async throws {
        let transport = try Self.server(token: "https://kt.example:8443/OAuth2/Koppeltaal/Token")
        do {
            _ = try await session(transport: transport).activate(code: "123456")
            XCTFail("the token endpoint on another port was used")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .untrustedEndpoint)
            XCTAssertTrue(error.reason.contains(":8443"), error.reason)
        }
        XCTAssertEqual(transport.requests.map(\.url.lastPathComponent), ["metadata"], "nothing but discovery was sent")
    }

    func testATrustedHostOrAnOverrideIsUsed() async throws {
        let trusted = try Self.server(token: "https://AUTH.kt-cloud.example/Token")
        _ = try await session(transport: trusted, trusted: ["auth.kt-cloud.example"]).activate(code: "123456")
        XCTAssertEqual(trusted.requests.last?.url.host?.lowercased(), "auth.kt-cloud.example")

        let overridden = try Self.server(token: "https://collector.example/Token")
        let override = URL(string: "https://auth.kt-cloud.example/Token")!
        _ = try await session(transport: overridden, overrides: .init(token: override)).activate(code: "123456")
        XCTAssertEqual(overridden.requests.last?.url, override)
    }

    func testOverridesWinOverTheCache() async throws {
        let store = InMemoryCredentialStore()
        let transport = try Self.server(token: "https://kt.example/OAuth2/Koppeltaal/Token")
        _ = try await session(transport: transport, store: store).discover()
        let override = URL(string: "https://kt.example/OAuth2/Other/Token")!
        let endpoints = try await session(transport: transport, store: store, overrides: .init(token: override))
            .discover()
        XCTAssertEqual(endpoints.token, override)
        XCTAssertEqual(
            endpoints.authorization?.path, "/OAuth2/Koppeltaal/Authorize", "the rest still comes from the cache")
        XCTAssertEqual(transport.requests.count, 1, "the cache was used")
    }

    func testAChangedFHIRBaseURLDiscoversAgain() async throws {
        let store = InMemoryCredentialStore()
        let transport = try Self.server(token: "https://kt.example/OAuth2/Koppeltaal/Token")
        _ = try await session(transport: transport, store: store).discover()
        _ = try await session(transport: transport, store: store).discover()
        XCTAssertEqual(transport.requests.count, 1, "the same base URL uses the cache")
        let moved = URL(string: "https://kt.example/FHIR/Koppeltaal2")!
        _ = try await session(base: moved, transport: transport, store: store).discover()
        XCTAssertEqual(transport.requests.map(\.url.path), ["/FHIR/Koppeltaal/metadata", "/FHIR/Koppeltaal2/metadata"])
    }
}
