import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// A SMART session sends its secrets and tokens only to endpoints on the FHIR server's origin (or a trusted one):
/// discovered ones, and those it stored (a pending authorization's, the kept discovery, a grant's FHIR server) are
/// checked again when they are loaded. A server-sent id cannot move a FHIR call out of the FHIR base path.
final class EndpointTrustTests: XCTestCase {
    private static let base = URL(string: "https://ehr.example/fhir")!
    private static let json: HTTPHeaderFields = ["Content-Type": "application/json"]

    /// A server whose SMART configuration names `token` as its token endpoint and whose token responses carry
    /// `patient`.
    private static func transport(
        token: String = "https://ehr.example/auth/token", patient: String = "p1", issuer: String? = nil
    ) -> RecordingTransport {
        RecordingTransport { request in
            switch request.url.path {
            case "/fhir/.well-known/smart-configuration":
                let named = issuer.map { #", "issuer": "\#($0)""# } ?? ""
                return HTTPResponseMessage(
                    status: 200, headers: json,
                    body: Data(
                        #"{"authorization_endpoint": "https://ehr.example/auth/authorize", "token_endpoint": "\#(token)"\#(named)}"#
                            .utf8))
            case "/auth/token":
                return HTTPResponseMessage(
                    status: 200, headers: json,
                    body: Data(
                        #"{"access_token": "at", "token_type": "Bearer", "expires_in": 900, "refresh_token": "rt", "patient": "\#(patient)"}"#
                            .utf8))
            default:
                return HTTPResponseMessage(status: 200, headers: json, body: Data(#"{"resourceType": "Patient"}"#.utf8))
            }
        }
    }

    private func session(
        _ transport: any HTTPTransport, store: any CredentialStore = InMemoryCredentialStore(),
        trustedHosts: [String] = []
    ) -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: Self.base, client: OAuthClientCredentials(clientID: "app"), redirectURI: "app://cb",
                    trustedHosts: trustedHosts), scope: "launch/patient patient/*.rs",
                session: OAuthSessionSettings(store: store, options: ClientOptions(transport: transport))))
    }

    func testAnIssuerOnAnotherOriginIsRefusedUnlessTrusted() async throws {
        // A server that claims another's identity would have the app accept that one's id tokens and responses.
        let transport = Self.transport(issuer: "https://honest-ehr.example/fhir")
        await XCTAssertThrowsErrorAsync(try await session(transport).standaloneAuthorizationURL()) { error in
            XCTAssertEqual((error as? SignInError)?.code, .untrustedIssuer, "\(error)")
            XCTAssertTrue("\(error)".contains("https://honest-ehr.example/fhir"), "\(error)")
        }
        for issuer in ["https://ehr.example:8443/fhir", "http://ehr.example/fhir", "not a url"] {
            await XCTAssertThrowsErrorAsync(
                try await session(Self.transport(issuer: issuer)).standaloneAuthorizationURL(), issuer)
        }
        let trusted = session(Self.transport(issuer: "https://auth.ehr.example"), trustedHosts: ["auth.ehr.example"])
        let trustedIssuer = try await trusted.discover().issuer
        XCTAssertEqual(trustedIssuer, "https://auth.ehr.example")
        let own = try await session(Self.transport(issuer: "https://ehr.example/fhir")).discover().issuer
        XCTAssertEqual(own, "https://ehr.example/fhir")
    }

    func testTheLaunchContextNamesTheUserByIssuerAndSubject() async throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let provider = FakeOpenIDProvider(issuer: FakeSMARTServer.issuer, clientID: "app", clock: clock)
        let server = FakeSMARTServer(openID: provider)
        let session = SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: Self.base, client: OAuthClientCredentials(clientID: "app"), redirectURI: "app://cb"),
                scope: "launch/patient openid fhirUser",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(),
                    options: ClientOptions(transport: RecordingTransport { server.answer($0) }), clock: clock)))
        let url = try await session.standaloneAuthorizationURL()
        provider.authorize(url, code: "ac-alice")
        let context = try await session.completeAuthorization(
            redirectURL: try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "ac-alice")))
        XCTAssertEqual(context.issuer, FakeSMARTServer.issuer)
        XCTAssertEqual(context.subject, FakeSMARTServer.subject(ofGrant: 1))
        XCTAssertEqual(context.fhirUser?.absoluteString, "https://ehr.example/fhir/Practitioner/user-1")
    }

    func testADiscoveredEndpointOnAnotherPortIsRefused() async throws {
        let transport = Self.transport(token: "https://ehr.example:8443/auth/token")
        do {
            _ = try await session(transport).standaloneAuthorizationURL()
            XCTFail("a token endpoint on another port was accepted")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .untrustedEndpoint)
            XCTAssertTrue(error.reason.contains("token_endpoint is on https://ehr.example:8443"), error.reason)
        }
        XCTAssertEqual(transport.requests.map(\.url.path), ["/fhir/.well-known/smart-configuration"])
    }

    func testAPendingAuthorizationsStoredEndpointsAreCheckedWhenItCompletes() async throws {
        let store = InMemoryCredentialStore()
        let transport = Self.transport()
        let first = session(transport, store: store)
        let url = try await first.standaloneAuthorizationURL()
        // The stored pending authorization is edited to redeem its code elsewhere.
        let stored = try await XCTUnwrapAsync(try await store.read(first.storeKey))
        let tampered = String(decoding: stored, as: UTF8.self).replacingOccurrences(
            of: "https://ehr.example/auth/token", with: "https://evil.example/token")
        try await store.write(Data(tampered.utf8), for: first.storeKey)
        do {
            _ = try await session(transport, store: store).completeAuthorization(
                redirectURL: try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "c")))
            XCTFail("the code was redeemed at a stored endpoint on another host")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .untrustedEndpoint)
            XCTAssertTrue(error.reason.contains("token_endpoint is on https://evil.example"), error.reason)
        }
        XCTAssertFalse(transport.requests.contains { $0.url.host == "evil.example" })
    }

    func testAStoredGrantsEndpointsAreCheckedWhenItIsRefreshed() async throws {
        let store = InMemoryCredentialStore()
        let transport = Self.transport()
        let discovering = session(transport, store: store)
        _ = try await discovering.discover()
        // The kept discovery is edited, and an expired grant stored by an earlier version (under the key every SMART
        // session then used) names the same endpoint.
        let keptKey = discovering.storeKey + ".endpoints"
        let kept = try await XCTUnwrapAsync(try await store.read(keptKey))
        let tampered = String(decoding: kept, as: UTF8.self).replacingOccurrences(
            of: "https://ehr.example/auth/token", with: "https://evil.example/token")
        try await store.write(Data(tampered.utf8), for: keptKey)
        let grant = """
            {"grant": {"accessToken": "at", "refreshToken": "rt", "expiresAt": 0,
            "tokenEndpoint": "https://evil.example/token", "revocationEndpoint": "https://evil.example/revoke",
            "context": {"fhirBaseURL": "https://ehr.example/fhir", "grantedScopes": [], "resources": [], "extensions": {}}}}
            """
        try await store.write(Data(grant.utf8), for: "smart.session")
        do {
            _ = try await session(transport, store: store).accessToken()
            XCTFail("the grant was refreshed at a stored endpoint on another host")
        } catch let error as SignInError {
            XCTAssertEqual(error.code, .untrustedEndpoint)
            XCTAssertTrue(error.reason.contains("token_endpoint is on https://evil.example"), error.reason)
        }
        XCTAssertFalse(transport.requests.contains { $0.url.host == "evil.example" })
    }

    func testAStoredGrantOfAServerTheConfigurationDoesNotAllowIsNotUsed() async throws {
        let grant = """
            {"grant": {"accessToken": "at", "refreshToken": "rt", "expiresAt": 9999999999,
            "context": {"fhirBaseURL": "https://evil.example/fhir", "grantedScopes": [], "resources": [], "extensions": {}}}}
            """
        let recorded = """
            {"registration": {"family": "SMART", "server": "https://evil.example/fhir", "client": "app"},
            "state": \(grant)}
            """
        let transport = Self.transport()
        // Stored by an earlier version under this session's key or the former one: nothing to use. Recorded for
        // another server under this session's own key (someone gave that key to another registration's session):
        // nothing to use, and nowhere else to go.
        for (value, key) in [(grant, nil), (grant, "smart.session"), (recorded, nil)] {
            let store = InMemoryCredentialStore()
            let session = session(transport, store: store)
            try await store.write(Data(value.utf8), for: key ?? session.storeKey)
            await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "1"))) { error in
                if value == recorded {
                    guard case .heldByAnotherRegistration? = error as? CredentialStoreError else {
                        return XCTFail("\(error)")
                    }
                } else {
                    XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
                }
            }
            await XCTAssertEqualAsync(
                try await store.read(key ?? session.storeKey), Data(value.utf8),
                "a grant that is not the session's stays")
        }
        XCTAssertTrue(transport.requests.isEmpty, "the access token went nowhere")
    }

    func testAServerSentPatientIdCannotLeaveTheFHIRBasePath() async throws {
        let transport = Self.transport(patient: "../../tenantB/Patient/7")
        let session = session(transport)
        let url = try await session.standaloneAuthorizationURL()
        let context = try await session.completeAuthorization(
            redirectURL: try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "c")))
        let sent = transport.requests.count
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: context.patient))) { error in
            XCTAssertEqual(error as? ResourcePathError, .invalidID("../../tenantB/Patient/7"))
        }
        XCTAssertEqual(transport.requests.count, sent, "nothing was sent for a refused id")
        // Given as a segment, the id is one segment under the base path.
        _ = try await session.fhir(ResourcePath("Patient", try XCTUnwrap(context.patient)))
        let request = try XCTUnwrap(transport.requests.last)
        XCTAssertEqual(request.url.absoluteString, "https://ehr.example/fhir/Patient/..%2F..%2FtenantB%2FPatient%2F7")
        XCTAssertNotNil(request.headers["Authorization"])
        // A launch without a patient in context cannot turn into a search across patients.
        await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: nil))) { error in
            XCTAssertEqual(error as? ResourcePathError, .missingID(resourceType: "Patient"))
        }
    }

    /// An app registered at two EHRs with a secret at each: each secret goes to its own EHR only, through the code
    /// exchange, a refresh and revocation.
    func testEachServersCredentialGoesOnlyToThatServer() async throws {
        let transport = RecordingTransport { request in
            let host = request.url.host ?? ""
            switch request.url.path {
            case "/fhir/.well-known/smart-configuration":
                return HTTPResponseMessage(
                    status: 200, headers: Self.json,
                    body: Data(
                        """
                        {"authorization_endpoint": "https://\(host)/auth/authorize", "token_endpoint": "https://\(host)/auth/token",
                         "revocation_endpoint": "https://\(host)/auth/revoke"}
                        """.utf8))
            case "/auth/token":
                return HTTPResponseMessage(
                    status: 200, headers: Self.json,
                    body: Data(
                        #"{"access_token": "at", "token_type": "Bearer", "expires_in": 60, "refresh_token": "rt", "patient": "p"}"#
                            .utf8))
            default: return HTTPResponseMessage(status: 200)
            }
        }
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let session = SMARTSession(
            configuration: .init(
                registrations: [
                    OAuthRegistration(
                        baseURL: URL(string: "https://ehr-a.example/fhir")!,
                        client: OAuthClientCredentials(clientID: "app-at-a", secret: "secret-a"),
                        redirectURI: "app://cb/a")
                ] + [
                    OAuthRegistration(
                        baseURL: URL(string: "https://ehr-b.example/fhir")!,
                        client: OAuthClientCredentials(clientID: "app-at-b", secret: "secret-b"),
                        redirectURI: "app://cb/b")
                ], standaloneServer: URL(string: "https://ehr-a.example/fhir")!,
                scope: "launch patient/*.rs offline_access",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), clock: clock)))
        let url = try await session.ehrAuthorizationURL(
            launchURL: try XCTUnwrap(URL(string: "app://launch?iss=https%3A%2F%2Fehr-b.example%2Ffhir&launch=l1")))
        let query = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        XCTAssertEqual(query.first { $0.name == "client_id" }?.value, "app-at-b")
        XCTAssertEqual(query.first { $0.name == "redirect_uri" }?.value, "app://cb/b")
        let state = try XCTUnwrap(FakeSMARTServer.state(in: url))
        await XCTAssertThrowsErrorAsync(
            try await session.completeAuthorization(
                redirectURL: try XCTUnwrap(URL(string: "app://cb/a?code=c&state=\(state)")))
        ) { error in
            XCTAssertEqual((error as? SignInError)?.code, .redirectMismatch, "\(error)")
        }
        _ = try await session.completeAuthorization(
            redirectURL: try XCTUnwrap(URL(string: "app://cb/b?code=c&state=\(state)")))
        clock.advance(by: 120)
        _ = try await session.fhir(.fhir("Patient", id: "p"))
        _ = try await session.revoke()
        let basicB = "Basic " + Data("app-at-b:secret-b".utf8).base64EncodedString()
        let credentialed = transport.requests.filter { $0.headers["Authorization"]?.hasPrefix("Basic") ?? false }
        XCTAssertEqual(credentialed.map(\.url.path), ["/auth/token", "/auth/token", "/auth/revoke", "/auth/revoke"])
        for request in credentialed {
            XCTAssertEqual(request.url.host, "ehr-b.example")
            XCTAssertEqual(request.headers["Authorization"], basicB)
        }
        XCTAssertFalse(transport.requests.contains { $0.url.host == "ehr-a.example" }, "nothing went to the other EHR")
    }
}
