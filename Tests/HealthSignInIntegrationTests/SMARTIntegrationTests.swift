import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInFHIR
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// SMART App Launch and Backend Services against the emulator's Authlib SMART server over 127.0.0.1 (the real
/// transport, the browser played by following the server's redirect) and against the test kit's in-process SMART
/// server (the browser its scripted user): the same journeys, the same assertions.
final class SMARTIntegrationTests: EachServerTestCase {
    private var server: SMARTServerUnderTest!
    private var store: InMemoryCredentialStore!

    /// Runs `body` against the emulator and the in-process server, each fresh, with an empty store.
    private func journey(_ kinds: [ServerKind] = ServerKind.allCases, _ body: () async throws -> Void) async throws {
        try await onEachServer(kinds) { kind in
            server = try await SMARTServerUnderTest(kind)
            store = InMemoryCredentialStore()
            try await body()
        }
    }

    private var fhirBase: URL { server.fhirBase }

    private func session(
        clientID: String = "smart-public", secret: String? = nil, signer: ClientAssertionSigner? = nil,
        fhirBaseURL: URL? = nil, standalone: Bool = true, clock: any TimeSource = SystemClock(),
        transport: (any HTTPTransport)? = nil, middlewares: [any HTTPClientMiddleware] = []
    ) -> SMARTSession {
        let base = fhirBaseURL ?? fhirBase
        let client =
            signer.map { OAuthClientCredentials(clientID: clientID, signer: $0) }
            ?? OAuthClientCredentials(clientID: clientID, secret: secret)
        return SMARTSession(
            configuration: .init(
                registrations: [
                    OAuthRegistration(baseURL: base, client: client, redirectURI: "http://127.0.0.1/smart/callback")
                ], standaloneServer: standalone ? base : nil,
                session: OAuthSessionSettings(
                    store: store,
                    options: ClientOptions(
                        transport: transport ?? server.transport(), urlPolicy: server.urlPolicy,
                        middlewares: middlewares), clock: clock)))
    }

    static func signer(clock: any TimeSource = SystemClock()) throws -> ClientAssertionSigner {
        try ClientAssertionSigner(key: SMARTTestServer.backendPrivateKey, algorithm: .es384, clock: clock)
    }

    private func backend(
        clientID: String = "smart-backend", signer: ClientAssertionSigner? = nil, scope: String = "system/*.rs"
    ) throws -> SMARTBackendClient {
        SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBase,
                    client: OAuthClientCredentials(clientID: clientID, signer: try signer ?? Self.signer())),
                scope: scope,
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(),
                    options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))))
    }

    /// The browser: opens the authorization URL and returns where the server redirects it.
    private func browse(_ url: URL) async throws -> URL {
        let redirect = try await server.visit(url)
        return try XCTUnwrap(redirect, "the authorization server did not redirect")
    }

    /// A standalone launch through a browser whose user signs in and consents.
    private func launched(_ session: SMARTSession) async throws -> SMARTLaunchContext {
        try await session.authorize(with: server.browser)
    }

    private func tokenRequests(_ grant: String) async throws -> Int {
        try await server.stats().token[grant] ?? 0
    }

    private func storedGrant(of session: SMARTSession) async throws -> [String: Any] {
        let data = try await XCTUnwrapAsync(try await store.read(session.storeKey))
        let record = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let state = try XCTUnwrap(record["state"] as? [String: Any])
        return try XCTUnwrap(state["grant"] as? [String: Any])
    }

    private static func query(_ url: URL) -> [String: String] {
        Dictionary(
            (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                ($0.name, $0.value ?? "")
            }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - App launch

    func testStandaloneLaunchWithPKCEAndAValidatedIDToken() async throws {
        try await journey {
            let session = session()
            let url = try await session.standaloneAuthorizationURL()
            let query = Self.query(url)
            XCTAssertEqual(query["code_challenge_method"], "S256")
            XCTAssertEqual(query["code_challenge"]?.count, 43)
            XCTAssertEqual(query["aud"], fhirBase.absoluteString)
            XCTAssertGreaterThanOrEqual(query["state"]?.count ?? 0, 43, "state carries 256 bits")
            XCTAssertNotNil(query["nonce"])
            XCTAssertNil(query["launch"])
            let pending = try await session.status()
            XCTAssertEqual(pending, .awaitingRedirect)

            let context = try await session.completeAuthorization(redirectURL: try await browse(url))
            XCTAssertEqual(context.patient, "smart-patient-1")
            XCTAssertEqual(context.fhirUser, fhirBase.appendingPathComponent("Practitioner/smart-practitioner-1"))
            XCTAssertTrue(context.grantedScopes.contains("offline_access"))
            XCTAssertEqual(context.extensions["__emulatorExtension"], "kept")
            guard case .authorized(let stored, let expiresAt) = try await session.status() else {
                return XCTFail("expected an authorized session")
            }
            XCTAssertEqual(stored, context)
            XCTAssertNotNil(expiresAt)
            let patient = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
            XCTAssertEqual(patient.status, 200)
            XCTAssertEqual(try JSONValue.parse(patient.body)["id"]?.stringValue, "smart-patient-1")
        }
    }

    /// The whole journey (launch, FHIR, a refresh, revocation) against the emulator as a permissive server and as a
    /// strict, certified OpenID provider: offline access only with prompt=consent, `iss` in the authorization
    /// response, ES256 id tokens, and an id token in every refresh response that must match the sign-in's.
    func testTheJourneyRunsAgainstAPermissiveAndAStrictOpenIDProvider() async throws {
        try await journey {
            for strict in [false, true] {
                try await server.reset()
                try await server.configure(["strict_openid": strict, "id_token_alg": strict ? "ES256" : "RS256"])
                store = InMemoryCredentialStore()
                let session = SMARTSession(
                    configuration: .init(
                        registration: OAuthRegistration(
                            baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-public"),
                            redirectURI: "http://127.0.0.1/smart/callback"),
                        openID: OpenIDPolicy(algorithms: [strict ? .es256 : .rs256]),
                        session: OAuthSessionSettings(
                            store: store,
                            options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))))
                let url = try await session.standaloneAuthorizationURL()
                XCTAssertEqual(Self.query(url)["prompt"], "consent")
                let redirect = try await browse(url)
                XCTAssertEqual(Self.query(redirect)["iss"], strict ? fhirBase.absoluteString : nil)
                let context = try await session.completeAuthorization(redirectURL: redirect)
                XCTAssertTrue(context.grantedScopes.contains("offline_access"), "strict \(strict)")
                XCTAssertEqual(context.issuer, fhirBase.absoluteString)
                XCTAssertEqual(context.subject, "smart-user-1")
                let signInIDToken = try await XCTUnwrapAsync(try await storedGrant(of: session)["idToken"] as? String)
                XCTAssertEqual(try JWS.parts(of: signInIDToken).algorithm, strict ? "ES256" : "RS256")
                try await server.expireTokens()
                let read = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
                XCTAssertEqual(read.status, 200)
                let refreshes = try await tokenRequests("refresh_token")
                XCTAssertEqual(refreshes, 1)
                let refreshedIDToken = try await XCTUnwrapAsync(
                    try await storedGrant(of: session)["idToken"] as? String)
                XCTAssertEqual(
                    refreshedIDToken != signInIDToken, strict, "a strict provider's refresh carries a new one")
                guard case .revoked = try await session.revoke() else { return XCTFail("not revoked") }
            }
        }
    }

    /// A strict provider issues no refresh token when the app turns `prompt=consent` off; a refresh whose id token
    /// names another issuer than the sign-in's ends the grant.
    func testAStrictProviderNeedsConsentAndARefreshMustNameTheSameIssuer() async throws {
        try await journey {
            try await server.configure(["strict_openid": true])
            let noConsent = SMARTSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-public"),
                        redirectURI: "http://127.0.0.1/smart/callback"), authorization: .init(prompt: ""),
                    session: OAuthSessionSettings(
                        store: InMemoryCredentialStore(),
                        options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))))
            let dropped = try await launched(noConsent)
            XCTAssertFalse(dropped.grantedScopes.contains("offline_access"))

            let session = session()
            _ = try await launched(session)
            await XCTAssertNotNilAsync(try await storedGrant(of: session)["refreshToken"])
            try await server.configure(["id_token_issuer": server.evil.absoluteString])
            try await server.expireTokens()
            await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
                guard case .issuerMismatch = (error as? SignInError)?.idTokenError else { return XCTFail("\(error)") }
            }
            let status = try await session.status()
            XCTAssertEqual(status, .signedOut)
        }
    }

    func testDiscoveryKeepsWhatItDoesNotKnow() async throws {
        try await journey {
            let document = try await SMARTAPIClient(
                configuration: .init(
                    servers: .init(fhir: fhirBase),
                    options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))
            ).getConfiguration()
            XCTAssertEqual(document.codeChallengeMethodsSupported, ["S256"])
            XCTAssertEqual(document.additionalProperties["x-emulator-extension"], ["kept": true])
            let endpoints = try await session().discover()
            XCTAssertEqual(endpoints.token, server.url("/auth/token"))
            XCTAssertTrue(endpoints.capabilities.contains("sso-openid-connect"))
        }
    }

    func testEHRLaunchCarriesTheLaunchAndReturnsItsContext() async throws {
        try await journey {
            let minted = try await server.mintLaunch(
                [
                    "client_id": "smart-public", "patient": "ehr-patient-7", "encounter": "ehr-encounter-3",
                    "need_patient_banner": false, "intent": "reconcile-medications", "tenant": "clinic-12",
                    "smart_style_url": "https://ehr.example/style.json",
                    // One item as SMART 2.1 writes it, one as 2.0 did.
                    "fhirContext": [
                        ["reference": "Questionnaire/q-1", "role": "questionnaire-render"], "DiagnosticReport/d-2",
                    ] as [any Sendable],
                ])
            let launch = minted.launch
            XCTAssertEqual(minted.iss, fhirBase.absoluteString)
            var components = URLComponents(string: "https://app.example/launch")!
            components.queryItems = [
                .init(name: "iss", value: fhirBase.absoluteString), .init(name: "launch", value: launch),
            ]
            let session = session(standalone: false)
            let url = try await session.ehrAuthorizationURL(launchURL: try XCTUnwrap(components.url))
            let query = Self.query(url)
            XCTAssertEqual(query["launch"], launch)
            XCTAssertEqual(query["aud"], fhirBase.absoluteString)
            XCTAssertTrue(query["scope"]?.split(separator: " ").contains("launch") ?? false)
            let context = try await session.completeAuthorization(redirectURL: try await browse(url))
            XCTAssertEqual(context.patient, "ehr-patient-7")
            XCTAssertEqual(context.encounter, "ehr-encounter-3")
            XCTAssertEqual(context.needPatientBanner, false)
            XCTAssertEqual(context.intent, "reconcile-medications")
            XCTAssertEqual(context.tenant, "clinic-12")
            XCTAssertEqual(context.smartStyleURL, "https://ehr.example/style.json")
            XCTAssertEqual(
                context.resources,
                [
                    .init(reference: "Questionnaire/q-1", role: "questionnaire-render"),
                    .init(reference: "DiagnosticReport/d-2"),
                ])
        }
    }

    func testAnEHRLaunchFromAServerNotAllowedIsRefusedBeforeAnythingIsSent() async throws {
        try await journey {
            let session = session(standalone: false)
            let launchURL = URL(string: "https://app.example/launch?iss=https%3A%2F%2Fevil.example%2Ffhir&launch=x")!
            await XCTAssertThrowsErrorAsync(try await session.ehrAuthorizationURL(launchURL: launchURL)) { error in
                XCTAssertEqual((error as? SignInError)?.code, .unknownServer, "\(error)")
                XCTAssertTrue("\(error)".contains("https://evil.example/fhir"), "\(error)")
            }
            await XCTAssertThrowsErrorAsync(
                try await session.ehrAuthorizationURL(launchURL: URL(string: "https://app.example/launch?launch=x")!)
            ) { error in
                XCTAssertEqual((error as? SignInError)?.code, .invalidLaunch, "\(error)")
            }
        }
    }

    /// The mix-up attack (RFC 9700 §4.4): the user picks the attacker's server, which sends the browser on to the
    /// honest one with the app's own request; the honest server's code comes back to the app. It must not go to the
    /// attacker's token endpoint, with the PKCE verifier, under either defence: the honest server's `iss` in the
    /// response (RFC 9207), with servers that both say they name themselves and share a redirect URI, or a redirect
    /// URI of the app's own per server.
    func testAMixUpIssuerGetsNeitherTheCodeNorTheVerifier() async throws {
        try await journey {
            let evil = server.evil
            let honestRedirect = "http://127.0.0.1/smart/callback"
            for (strict, evilRedirect) in [(true, honestRedirect), (false, "sdkdemo://smart/callback")] {
                try await server.reset()
                try await server.configure([
                    "strict_openid": strict, "evil_iss_supported": strict, "evil_redirect_uri": honestRedirect,
                ])
                let session = SMARTSession(
                    configuration: .init(
                        registrations: [
                            OAuthRegistration(
                                baseURL: fhirBase, client: OAuthClientCredentials(clientID: "smart-public"),
                                redirectURI: honestRedirect)
                        ] + [
                            OAuthRegistration(
                                baseURL: evil, client: OAuthClientCredentials(clientID: "smart-public"),
                                redirectURI: evilRedirect)
                        ], standaloneServer: fhirBase,
                        session: OAuthSessionSettings(
                            store: store,
                            options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))))
                var launch = try XCTUnwrap(URLComponents(string: "http://127.0.0.1/app/launch"))
                launch.queryItems = [.init(name: "iss", value: evil.absoluteString), .init(name: "launch", value: "x")]
                let url = try await session.ehrAuthorizationURL(launchURL: try XCTUnwrap(launch.url))
                let honest = try await browse(url)
                XCTAssertEqual(
                    honest.path, server.rootPath + "/auth/authorize",
                    "the attacker sends the browser to the honest server")
                let redirect = try await browse(honest)
                await XCTAssertThrowsErrorAsync(try await session.completeAuthorization(redirectURL: redirect)) {
                    error in
                    switch (strict, error) {
                    case (true, let error as SignInError) where error.code == .issuerMismatch:
                        XCTAssertTrue(error.reason.contains("comes from the issuer \(self.fhirBase.absoluteString)"))
                    case (false, let error as SignInError) where error.code == .redirectMismatch: break
                    default: XCTFail("\(error)")
                    }
                }
                let stats = try await server.stats()
                XCTAssertEqual(stats.attackerAuthorizations, 1)
                XCTAssertEqual(
                    stats.attackerTokenRequests, 0, "the attacker's token endpoint received the honest server's code")
            }
        }
    }

    func testConfidentialClientsAuthenticateWithBasicOrAPrivateKey() async throws {
        try await journey {
            // The secret holds a space and a plus: percent-encoded (RFC 6749 §2.3.1), the server reads it back.
            let basic = try await launched(session(clientID: "smart-confidential", secret: "smart-secret 1+x"))
            XCTAssertEqual(basic.patient, "smart-patient-1")
            store = InMemoryCredentialStore()
            let asymmetric = try await launched(session(clientID: "smart-asymmetric", signer: try Self.signer()))
            XCTAssertEqual(asymmetric.patient, "smart-patient-1")
        }
    }

    func testAWrongStateIsRefusedAndTheAuthorizationKeepsWaiting() async throws {
        try await journey {
            let session = session()
            let url = try await session.standaloneAuthorizationURL()
            let redirect = try await browse(url)
            var forged = try XCTUnwrap(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
            forged.queryItems = forged.queryItems?.map {
                $0.name == "state" ? .init(name: "state", value: "forged") : $0
            }
            await XCTAssertThrowsErrorAsync(
                try await session.completeAuthorization(redirectURL: try XCTUnwrap(forged.url))
            ) { error in
                XCTAssertEqual((error as? SignInError)?.code, .stateMismatch, "\(error)")
            }
            let redeemed = try await tokenRequests("authorization_code")
            XCTAssertEqual(redeemed, 0, "the code is not redeemed after a state mismatch")
            let status = try await session.status()
            XCTAssertEqual(status, .awaitingRedirect)
            let context = try await session.completeAuthorization(redirectURL: redirect)
            XCTAssertEqual(context.patient, "smart-patient-1")
        }
    }

    func testATamperedIDTokenIsRefusedAndNothingIsStored() async throws {
        try await journey {
            try await server.configure(["id_token_tamper": true])
            let session = session()
            await XCTAssertThrowsErrorAsync(try await launched(session)) { error in
                XCTAssertEqual((error as? SignInError)?.idTokenError, .signature(.invalidSignature), "\(error)")
            }
            let status = try await session.status()
            XCTAssertEqual(status, .signedOut)
            let stored = try await store.read(session.storeKey).flatMap {
                try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
            }
            XCTAssertNil((stored?["state"] as? [String: Any] ?? stored)?["grant"], "no grant is stored")
        }
    }

    func testAnIDTokenFromAnotherIssuerOrWithAnotherNonceIsRefused() async throws {
        try await journey {
            try await server.configure(["id_token_issuer": "https://evil.example/fhir"])
            await XCTAssertThrowsErrorAsync(try await launched(session())) { error in
                XCTAssertEqual(
                    (error as? SignInError)?.idTokenError, .issuerMismatch("https://evil.example/fhir"), "\(error)")
            }
            try await server.reset()
            try await server.configure(["id_token_nonce": "replayed-nonce"])
            await XCTAssertThrowsErrorAsync(try await launched(session())) { error in
                XCTAssertEqual((error as? SignInError)?.idTokenError, .nonceMismatch, "\(error)")
            }
        }
    }

    func testAWrongAudienceIsRefusedByTheServerAsATypedError() async throws {
        try await journey {
            // One extra slash: the server compares aud with its FHIR base exactly, as real servers do.
            let session = session(fhirBaseURL: URL(string: fhirBase.absoluteString + "/")!)
            await XCTAssertThrowsErrorAsync(try await launched(session)) { error in
                guard let denied = error as? SignInError, denied.code == .authorizationDenied,
                    denied.serverError?.code == .invalidRequest
                else { return XCTFail("\(error)") }
                XCTAssertTrue(denied.description.contains("aud"), denied.description)
            }
            let redeemed = try await tokenRequests("authorization_code")
            XCTAssertEqual(redeemed, 0)
        }
    }

    func testRefreshRotatesTheRefreshTokenAndTheOldOneIsDead() async throws {
        try await journey {
            let session = session()
            _ = try await launched(session)
            let first = try await storedGrant(of: session)
            let oldRefreshToken = try XCTUnwrap(first["refreshToken"] as? String)
            try await server.expireTokens()
            // The expired access token gets invalid_token; the session refreshes once and replays.
            let response = try await session.fhir(.fhir("Patient", id: "smart-patient-1"))
            XCTAssertEqual(response.status, 200)
            let refreshes = try await tokenRequests("refresh_token")
            XCTAssertEqual(refreshes, 1)
            let second = try await storedGrant(of: session)
            XCTAssertNotEqual(
                second["refreshToken"] as? String, oldRefreshToken, "the rotated token replaced the old one")
            XCTAssertNotEqual(second["accessToken"] as? String, first["accessToken"] as? String)
            let client = OAuth2APIClient(
                configuration: .init(
                    servers: .init(token: server.url("/auth/token")),
                    options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy)))
            await XCTAssertThrowsErrorAsync(
                try await client.requestToken(
                    .refreshToken(.init(refreshToken: oldRefreshToken)),
                    client: OAuthClientCredentials(clientID: "smart-public"))
            ) { error in
                XCTAssertEqual((error as? OAuthError)?.code, .invalidGrant, "\(error)")
            }
        }
    }

    private func fhirCalls() async throws -> Int { try await server.stats().fhir }

    func testARevocationInOneInstanceStopsAnotherSharingTheStore() async throws {
        try await journey {
            let first = session()
            _ = try await launched(first)
            let second = session()
            let read = try await second.fhir(.fhir("Patient", id: "smart-patient-1"))
            XCTAssertEqual(read.status, 200)
            let sent = try await fhirCalls()
            guard case .revoked = try await first.revoke() else { return XCTFail("not revoked") }
            await XCTAssertThrowsErrorAsync(try await second.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
                XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
            }
            let after = try await fhirCalls()
            XCTAssertEqual(after, sent, "the second instance sent the revoked grant's access token")
            let status = try await second.status()
            XCTAssertEqual(status, .signedOut)
        }
    }

    func testARevocationStopsARequestAnotherInstanceHadAlreadyPrepared() async throws {
        try await journey {
            let first = session()
            _ = try await launched(first)
            // The second instance's request waits in a middleware, after it took the credential and before it is sent.
            let holder = GatedTransport { _ in HTTPResponseMessage(status: 204) }
            let gate = holder.hold { $0.url.path.hasSuffix("/Patient/smart-patient-1") }
            let second = session(middlewares: [HoldingMiddleware(holder: holder)])
            let call = Task { try await second.fhir(.fhir("Patient", id: "smart-patient-1")) }
            _ = await gate.arrival()
            let sent = try await fhirCalls()
            guard case .revoked = try await first.revoke() else { return XCTFail("not revoked") }
            gate.release()
            await XCTAssertThrowsErrorAsync(try await call.value) { error in
                XCTAssertEqual((error as? any SDKError)?.recovery, .reauthorize, "\(error)")
            }
            let after = try await fhirCalls()
            XCTAssertEqual(after, sent, "the request prepared before the revocation was sent after it")
        }
    }

    func testRevocationEndsTheGrantHereAndAtTheServer() async throws {
        try await journey {
            let session = session()
            _ = try await launched(session)
            let accessToken = try await XCTUnwrapAsync(try await storedGrant(of: session)["accessToken"] as? String)
            let outcome = try await session.revoke()
            guard case .revoked = outcome else { return XCTFail("\(outcome)") }
            let status = try await session.status()
            XCTAssertEqual(status, .signedOut)
            await XCTAssertThrowsErrorAsync(try await session.fhir(.fhir("Patient", id: "smart-patient-1"))) { error in
                XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
            }
            // The server agrees: its introspection says the access token of the revoked grant is inactive.
            let caller = try await backend().token()
            let introspection = try await OAuth2APIClient(
                configuration: .init(
                    servers: .init(introspection: server.url("/auth/introspect")),
                    options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))
            ).introspect(.init(token: accessToken), token: caller.accessToken)
            XCTAssertFalse(introspection.active)
            let own = try await OAuth2APIClient(
                configuration: .init(
                    servers: .init(introspection: server.url("/auth/introspect")),
                    options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy))
            ).introspect(.init(token: caller.accessToken.value), token: caller.accessToken)
            XCTAssertTrue(own.active)
            XCTAssertEqual(own.clientID, "smart-backend")
        }
    }

    // MARK: - Backend services

    func testOneHundredConcurrentBackendCallersShareOneTokenRequest() async throws {
        try await journey {
            let backend = try backend()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await backend.fhir(.fhir("Patient", id: "smart-patient-1")).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            XCTAssertEqual(statuses, Array(repeating: 200, count: 100))
            let requests = try await tokenRequests("client_credentials")
            XCTAssertEqual(requests, 1)
            let token = try await backend.token()
            XCTAssertEqual(token.scope, "system/*.rs")
            XCTAssertLessThanOrEqual(token.expiresAt.timeIntervalSinceNow, 300)
        }
    }

    func testTheGeneratedFHIRClientReadsWithABackendsTokenAndTheCapabilityStatementWithout() async throws {
        try await journey {
            let token = try await backend().token()
            let fhir = fhirClient()
            let resource = try await fhir.read(
                .init(resourceType: "Patient", id: "smart-patient-1"), token: token.accessToken)
            guard case .patient(let patient) = resource else { return XCTFail("\(resource) is not a Patient") }
            XCTAssertEqual(patient.id, "smart-patient-1")
            XCTAssertFalse(patient.name.isEmpty)
            let capabilities = try await fhir.capabilities()
            XCTAssertEqual(capabilities.fhirVersion, ._401)
            // An id that would leave its path segment is refused before anything is sent.
            await XCTAssertThrowsErrorAsync(
                try await fhir.read(.init(resourceType: "Patient", id: "../metadata"), token: token.accessToken)
            ) { error in XCTAssertTrue(error is SchemaValidationError, "\(error)") }
        }
    }

    private func fhirClient() -> FHIRAPIClient {
        FHIRAPIClient(
            configuration: .init(
                servers: .init(base: fhirBase),
                options: ClientOptions(transport: server.transport(), urlPolicy: server.urlPolicy)))
    }

    func testTheFHIRClientSearchesPageByPageWithTypedMatchesAndIncludedResources() async throws {
        try await journey {
            let token = try await backend().token().accessToken
            let fhir = fhirClient()
            let first = try await fhir.search(
                "Observation", ["patient": "smart-patient-1", "_count": "2", "_include": "Observation:subject"],
                token: token)
            XCTAssertEqual(first.total, 3)
            let observations = first.matches(of: FHIRObservation.self)
            XCTAssertEqual(observations.map(\.id), ["smart-patient-1-obs-1", "smart-patient-1-obs-2"])
            XCTAssertEqual(observations.first?.valueQuantity?.value, JSONNumber(72))
            XCTAssertEqual(observations.first?.code.coding.first?.code, "8867-4")
            XCTAssertEqual(first.included(of: Patient.self).map(\.id), ["smart-patient-1"])
            XCTAssertTrue(first.included(of: FHIRObservation.self).isEmpty)
            XCTAssertEqual(first.unreadableEntries, [])
            let second = try await XCTUnwrapAsync(try await fhir.page(after: first, token: token))
            XCTAssertEqual(second.matches(of: FHIRObservation.self).map(\.id), ["smart-patient-1-obs-3"])
            XCTAssertEqual(second.included(of: Patient.self).map(\.id), ["smart-patient-1"])
            XCTAssertNil(second.next)
            let after = try await fhir.page(after: second, token: token)
            XCTAssertNil(after)
            // A type that is not a FHIR name never reaches the path.
            await XCTAssertThrowsErrorAsync(try await fhir.search("../metadata", token: token)) { error in
                XCTAssertTrue(error is SchemaValidationError, "\(error)")
            }
        }
    }

    func testANextLinkOffTheFHIRServerIsRefusedAndTheTokenNeverLeaves() async throws {
        try await journey {
            try await server.configure(["fhir_next_link": "evil"])
            let token = try await backend().token().accessToken
            let fhir = fhirClient()
            let first = try await fhir.search(
                "Observation", ["patient": "smart-patient-1", "_count": "1"], token: token)
            XCTAssertEqual(first.next.map { $0.path }, server.evil.path + "/Observation")
            await XCTAssertThrowsErrorAsync(try await fhir.page(after: first, token: token)) { error in
                guard case .linkLeavesServer = error as? PagingError else { return XCTFail("\(error)") }
                XCTAssertFalse("\(error)".contains("patient"), "\(error)")
            }
            let seen = try await server.stats().attackerSearches
            XCTAssertEqual(seen, [])
        }
    }

    func testAnEntryTheModelsCannotReadCostsThatEntryOnly() async throws {
        try await journey {
            try await server.configure(["fhir_unreadable_entry": true])
            let token = try await backend().token().accessToken
            let page = try await fhirClient().search("Observation", ["patient": "smart-patient-1"], token: token)
            XCTAssertEqual(page.matches(of: FHIRObservation.self).count, 3)
            XCTAssertEqual(page.unreadableEntries.map(\.path), ["entry[3]/resource/status"])
        }
    }

    /// A backend service that may create, read, update and delete Observations (`system/Observation.cruds`).
    private func writer() async throws -> SMARTBackendClient {
        var jwk = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(SMARTTestServer.backendPrivateKeyJWK.utf8)) as? [String: String]
        )
        jwk["d"] = nil
        let scope = "system/Observation.cruds"
        try await server.registerBackend(clientID: "smart-writer", jwks: ["keys": [jwk]], scopes: [scope])
        return try backend(clientID: "smart-writer", scope: scope)
    }

    func testTheFHIRClientCreatesConditionallyUpdatesWithIfMatchAndDeletes() async throws {
        try await journey {
            let token = try await writer().token().accessToken
            let fhir = fhirClient()
            let steps = try FHIRJSON.decode(
                Resource.self,
                from: Data(
                    #"""
                    {"resourceType": "Observation", "status": "final", "code": {"text": "Steps"},
                     "identifier": [{"system": "urn:example:steps", "value": "day-1"}],
                     "valueQuantity": {"value": 1200.0, "unit": "steps"}}
                    """#.utf8))
            let condition: KeyValuePairs<String, String> = ["identifier": "urn:example:steps|day-1"]
            let created = try await fhir.create(steps, ifNoneExist: condition, token: token)
            XCTAssertTrue(created.created)
            XCTAssertEqual(created.versionID, "1")
            guard case .observation(var stored) = created.resource, let id = stored.id else {
                return XCTFail("\(created) holds no Observation with an id")
            }
            XCTAssertEqual(created.location, "\(fhirBase.absoluteString)/Observation/\(id)/_history/1")
            XCTAssertEqual(stored.meta?.versionID, "1")
            XCTAssertEqual(stored.valueQuantity?.value?.text, "1200.0", "the decimal keeps its text both ways")

            // The same conditional create finds the Observation and creates nothing.
            let again = try await fhir.create(steps, ifNoneExist: condition, token: token)
            XCTAssertEqual(again.status, 200)
            XCTAssertEqual(again.resource, created.resource)

            stored.valueQuantity?.value = JSONNumber("1500")
            let updated = try await fhir.update(.observation(stored), ifMatch: "1", token: token)
            XCTAssertEqual(updated.status, 200)
            XCTAssertEqual(updated.versionID, "2")
            // An update based on the version another writer replaced changes nothing.
            stored.valueQuantity?.value = JSONNumber("9")
            await XCTAssertThrowsErrorAsync(try await fhir.update(.observation(stored), ifMatch: "1", token: token)) {
                error in
                let outcome = error as? FHIROperationOutcomeError
                XCTAssertEqual(outcome?.origin.httpStatus, 412, "\(error)")
                XCTAssertEqual(outcome?.code, .conflict, "\(error)")
            }
            let read = try await fhir.read(.init(resourceType: "Observation", id: id), token: token)
            guard case .observation(let current) = read else { return XCTFail("\(read) is not an Observation") }
            XCTAssertEqual(current.valueQuantity?.value, JSONNumber("1500"))
            XCTAssertEqual(current.meta?.versionID, "2")

            let deleted = try await fhir.delete("Observation", id: id, token: token)
            XCTAssertEqual(deleted.status, 204)
            XCTAssertNil(deleted.resource)
            await XCTAssertThrowsErrorAsync(
                try await fhir.read(.init(resourceType: "Observation", id: id), token: token)
            ) { error in
                XCTAssertEqual((error as? FHIROperationOutcomeError)?.code, .notFound, "\(error)")
            }
            // Refused before anything is sent: an update without an id, a version that would break the header.
            stored.id = nil
            await XCTAssertThrowsErrorAsync(try await fhir.update(.observation(stored), token: token)) { error in
                XCTAssertEqual((error as? SchemaValidationError)?.path, "/id", "\(error)")
            }
            stored.id = id
            await XCTAssertThrowsErrorAsync(
                try await fhir.update(.observation(stored), ifMatch: "1\"\r\nX-Injected: 1", token: token)
            ) { error in
                XCTAssertEqual((error as? SchemaValidationError)?.path, "/meta/versionId", "\(error)")
            }
        }
    }

    // MARK: - The typed FHIR client of a grant

    func testTheFHIRClientOfALaunchReadsAndPagesOnTheGrantsServer() async throws {
        try await journey {
            let session = session()
            let context = try await launched(session)
            let patientID = try XCTUnwrap(context.patient)
            let fhir = FHIRClient(session)
            let patient = try await fhir.read("Patient", id: patientID).model(as: Patient.self)
            XCTAssertEqual(patient?.id, patientID)
            let first = try await fhir.search("Observation", ["patient": patientID, "_count": "2"])
            XCTAssertEqual(first.matches(of: FHIRObservation.self).count, 2)
            let second = try await XCTUnwrapAsync(try await fhir.page(after: first))
            XCTAssertEqual(second.matches(of: FHIRObservation.self).map(\.id), ["\(patientID)-obs-3"])
            let after = try await fhir.page(after: second)
            XCTAssertNil(after)
        }
    }

    func testTheFHIRClientsPagesEndAtTheLastPageOrWhereANextLinkRepeats() async throws {
        try await journey {
            let fhir = FHIRClient(try backend())
            var ids: [String?] = []
            for try await page in fhir.pages("Observation", ["patient": "smart-patient-1", "_count": "1"]) {
                ids += page.matches(of: FHIRObservation.self).map(\.id)
            }
            XCTAssertEqual(ids, ["smart-patient-1-obs-1", "smart-patient-1-obs-2", "smart-patient-1-obs-3"])

            // A server whose next link names the page it is on would be followed forever.
            try await server.configure(["fhir_next_link": "repeat"])
            var pages = 0
            do {
                for try await _ in fhir.pages("Observation", ["patient": "smart-patient-1", "_count": "1"]) {
                    pages += 1
                }
                XCTFail("a next link naming its own page was followed to an end")
            } catch {
                XCTAssertEqual(error as? PagingError, .repeatedCursor, "\(error)")
            }
            XCTAssertEqual(pages, 2, "the first page, then its next link once")
        }
    }

    func testTheFHIRClientRefreshesARefusedTokenOnceWhetherTheServerExplainsTheRefusalOrNot() async throws {
        try await journey {
            for explained in [false, true] {
                try await server.configure(["fhir_refusal_outcome": explained])
                let session = session()
                _ = try await launched(session)
                let before = try await tokenRequests("refresh_token")
                try await server.expireTokens()
                let patient = try await FHIRClient(session).read("Patient", id: "smart-patient-1")
                XCTAssertEqual(patient.model(as: Patient.self)?.id, "smart-patient-1")
                let refreshes = try await tokenRequests("refresh_token") - before
                XCTAssertEqual(refreshes, 1, "explained: \(explained)")
            }
        }
    }

    func testTheFHIRClientSendsNothingOnceTheGrantIsRevoked() async throws {
        try await journey {
            let first = session()
            _ = try await launched(first)
            // The second instance's read waits in a middleware, after it took the token and before it is sent.
            let holder = GatedTransport { _ in HTTPResponseMessage(status: 204) }
            let gate = holder.hold { $0.url.path.hasSuffix("/Patient/smart-patient-1") }
            let second = session(middlewares: [HoldingMiddleware(holder: holder)])
            let call = Task { try await FHIRClient(second).read("Patient", id: "smart-patient-1") }
            _ = await gate.arrival()
            let sent = try await fhirCalls()
            guard case .revoked = try await first.revoke() else { return XCTFail("not revoked") }
            gate.release()
            await XCTAssertThrowsErrorAsync(try await call.value) { error in
                XCTAssertEqual((error as? any SDKError)?.recovery, .reauthorize, "\(error)")
            }
            await XCTAssertThrowsErrorAsync(try await FHIRClient(second).read("Patient", id: "smart-patient-1")) {
                error in
                XCTAssertEqual((error as? SignInError)?.code, .needsSignIn, "\(error)")
            }
            let after = try await fhirCalls()
            XCTAssertEqual(after, sent, "a read was sent with the revoked grant's token")
        }
    }

    func testTheFHIRClientOfABackendWritesWithItsToken() async throws {
        try await journey {
            let fhir = FHIRClient(try await writer())
            var steps = FHIRObservation(status: .final, code: CodeableConcept(text: "Steps"))
            steps.valueQuantity = Quantity(value: JSONNumber("1200"), unit: "steps")
            let created = try await fhir.create(.observation(steps))
            let id = try XCTUnwrap(created.resource?.model(as: FHIRObservation.self)?.id)
            XCTAssertEqual(created.versionID, "1")
            steps.id = id
            steps.valueQuantity?.value = JSONNumber("1500")
            let updated = try await fhir.update(.observation(steps), ifMatch: "1")
            XCTAssertEqual(updated.versionID, "2")
            let version = try await fhir.vread("Observation", id: id, versionID: "2")
            XCTAssertEqual(version.model(as: FHIRObservation.self)?.valueQuantity?.value, JSONNumber("1500"))
            try await fhir.delete("Observation", id: id)
            await XCTAssertThrowsErrorAsync(try await fhir.read("Observation", id: id)) { error in
                XCTAssertEqual((error as? FHIROperationOutcomeError)?.code, .notFound, "\(error)")
            }
        }
    }

    func testAnRS384KeyWorksAsWellAsES384() async throws {
        try await journey {
            let rsa = try XCTUnwrap(
                try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == "test-rsa" })
            let file =
                try JSONSerialization.jsonObject(with: try Fixtures.data("JOSE/test-keys.json")) as? [String: Any]
            let entry = try XCTUnwrap((file?["keys"] as? [[String: String]])?.first { $0["kid"] == "test-rsa" })
            let jwk = ["kty": "RSA", "kid": "test-rsa", "alg": "RS384", "n": entry["n"] ?? "", "e": entry["e"] ?? ""]
            try await server.registerBackend(clientID: "rs-backend", jwks: ["keys": [jwk]], scopes: ["system/*.rs"])
            let backend = try backend(
                clientID: "rs-backend", signer: try ClientAssertionSigner(key: rsa, algorithm: .rs384))
            let response = try await backend.fhir(.fhir("Patient", id: "smart-patient-1"))
            XCTAssertEqual(response.status, 200)
        }
    }

    func testAnExpiredAssertionIsRefusedAsAClientError() async throws {
        try await journey {
            let backend = try backend(signer: try Self.signer(clock: OffsetClock(offset: -600)))
            await XCTAssertThrowsErrorAsync(try await backend.token()) { error in
                XCTAssertEqual((error as? OAuthError)?.code, .invalidClient, "\(error)")
            }
            let rejected = try await server.stats().assertionsRejected
            XCTAssertEqual(rejected, 1)
        }
    }

    /// fhirclient, the SMART on FHIR Python client, completes a standalone launch with a refresh, an EHR launch and
    /// a confidential client's launch against the emulator (`Tests/Tools/fhirclient_launch.py`): the server these
    /// tests trust speaks SMART as the ecosystem's clients do.
    func testFhirclientCompletesLaunchesAgainstTheEmulator() async throws {
        try await journey([.emulator]) {
            let python = Fixtures.repository.appendingPathComponent("Tests/Emulator/.venv/bin/python")
            guard FileManager.default.isExecutableFile(atPath: python.path) else {
                XCTFail("Tests/Emulator/.venv is missing; run `make venv` (make test does it) to install fhirclient")
                return
            }
            let script = Fixtures.repository.appendingPathComponent("Tests/Tools/fhirclient_launch.py")
            let base = try Emulator.shared.get().baseURL.absoluteString
            let result = try await Task.detached { try Subprocess.run([python.path, script.path, base]) }.value
            XCTAssertEqual(result.status, 0, result.output)
            for step in ["standalone_public", "ehr_launch", "standalone_confidential"] {
                XCTAssertTrue(result.output.contains("fhirclient \(step): "), result.output)
            }
            let redeemed = try await tokenRequests("authorization_code")
            XCTAssertEqual(redeemed, 3)
        }
    }

    /// Every fault of the matrix on the refresh an expired access token needs; see ``FaultMatrix``. Faults that strike
    /// after the server rotated the refresh token (a garbled answer, a timeout the server outlived) are the lost
    /// response: the grant is kept, and the next call learns from the server that it is dead.
    func testFaultMatrix() async throws {
        try await journey {
            var session = session()
            try await FaultMatrix.run(
                family: "SMART", endpoint: server.tokenURL, server: server,
                expected: FaultMatrix.rotatingRefresh(afterLostRotation: "SignInError.needsSignIn"),
                scenario: .init(
                    prepare: { skewed, transport in
                        self.store = InMemoryCredentialStore()
                        session = self.session(
                            clock: skewed ? OffsetClock(offset: 600) : SystemClock(), transport: transport)
                        _ = try await self.launched(session)
                        try await self.server.expireTokens()
                    },
                    credentials: { try await self.store.read(session.storeKey) },
                    call: { _ = try await session.fhir(.fhir("Patient", id: "smart-patient-1")) }
                )
            )
        }
    }
}

/// Holds each request at `holder`'s gates before sending it on.
private struct HoldingMiddleware: HTTPClientMiddleware {
    let holder: GatedTransport

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        _ = try await holder.send(request)
        return try await next(request)
    }
}
