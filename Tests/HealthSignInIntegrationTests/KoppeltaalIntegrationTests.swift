import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// The mobile launch against the emulator's Authlib server over 127.0.0.1 (the real transport) and against the test
/// kit's in-process Koppeltaal server: the same journeys, the same assertions.
final class KoppeltaalIntegrationTests: EachServerTestCase {
    private var server: KoppeltaalServerUnderTest!
    private var store: InMemoryCredentialStore!

    /// Runs `body` against the emulator and the in-process server, each fresh, with an empty store.
    private func journey(_ body: () async throws -> Void) async throws {
        try await onEachServer { kind in
            server = try await KoppeltaalServerUnderTest(kind)
            store = InMemoryCredentialStore()
            try await body()
        }
    }

    private var backend: KoppeltaalBackend {
        KoppeltaalBackend(
            configuration: .init(
                launchURL: server.launchBase,
                credentials: BasicCredentials(username: "portal", password: "portal-secret"),
                urlPolicy: server.urlPolicy, transport: server.transport()
            ))
    }

    private func session(
        clientID: String = "KTSTESTGAME", secret: String? = "kt-secret",
        method: OAuthClientCredentials.Method = .unencodedBasic,
        store: (any CredentialStore)? = nil, timeout: TimeInterval = 5, overrides: EndpointOverrides = .init(),
        pkce: KoppeltaalSession.PKCEMode = .whenAdvertised,
        clock: any TimeSource = SystemClock(), transport: (any HTTPTransport)? = nil
    ) -> KoppeltaalSession {
        KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: server.fhirBase,
                    client: OAuthClientCredentials(clientID: clientID, secret: secret, method: method),
                    redirectURI: "http://127.0.0.1/after-auth", endpoints: overrides), pkce: pkce,
                session: OAuthSessionSettings(
                    store: store ?? self.store,
                    options: ClientOptions(
                        transport: transport ?? server.transport(timeout: timeout), urlPolicy: server.urlPolicy),
                    clock: clock)))
    }

    private func launch(for clientID: String = "KTSTESTGAME") async throws -> String {
        try await backend.mobileLaunch(
            clientID: clientID, patient: "https://portal.example/Patient/72308",
            user: "https://portal.example/RelatedPerson/452", resource: "KTSTESTGAME"
        ).code
    }

    private func calls(_ name: KoppeltaalTestServer.Operation) async throws -> Int { try await server.calls(name) }

    private static func messages(_ session: KoppeltaalSession) async throws -> Int {
        let response = try await session.fhir(
            ResourcePath("MessageHeader", "_search"),
            query: {
                var query = FormFields()
                query.append("_query", "MessageHeader.GetNextNewAndClaim")
                return query
            }())
        return response.status
    }

    func testFromMobileLaunchToAnAuthorizedFHIRCall() async throws {
        try await journey {
            let activation = try await backend.mobileLaunch(
                clientID: "KTSTESTGAME", patient: "https://portal.example/Patient/72308",
                user: "https://portal.example/RelatedPerson/452", resource: "KTSTESTGAME")
            XCTAssertEqual(activation.code.count, 6)
            XCTAssertEqual(activation.validityInDays, 7)
            XCTAssertEqual(activation.expiresAt.timeIntervalSinceNow, 7 * 86_400, accuracy: 60)
            let session = session()
            let context = try await session.activate(code: activation.code)
            XCTAssertEqual(
                context,
                LaunchContext(
                    patient: "https://portal.example/Patient/72308", user: "https://portal.example/RelatedPerson/452",
                    resource: "KTSTESTGAME", domain: server.domain, scope: "patient/*.read"
                ))
            await XCTAssertEqualAsync(try await Self.messages(session), 200)
            guard case .active(let stored, let expiresAt) = try await session.status() else {
                return XCTFail("not active")
            }
            XCTAssertEqual(stored, context)
            XCTAssertEqual(try XCTUnwrap(expiresAt).timeIntervalSinceNow, 900, accuracy: 30)
        }
    }

    func testUsedAndExpiredActivationCodesAreRejected() async throws {
        try await journey {
            let code = try await launch()
            _ = try await session().activate(code: code)
            do {
                _ = try await session(store: InMemoryCredentialStore()).activate(code: code)
                XCTFail("a used code was accepted")
            } catch let error as SignInError where error.code == .activationCodeRejected {
                XCTAssertEqual(error.serverError?.code, .invalidScope)
                XCTAssertEqual(error.serverError?.message, "Unknown, used or expired launch code")
            }
            try await server.configure(["activation_ttl_seconds": -1])
            let expired = try await launch()
            do {
                _ = try await session(store: InMemoryCredentialStore()).activate(code: expired)
                XCTFail("an expired code was accepted")
            } catch let error as SignInError where error.code == .activationCodeRejected {}
        }
    }

    func testClientAuthenticationAsTheKoppeltaalServerReadsIt() async throws {
        try await journey {
            try await server.configure(["smart_configuration": true])
            // The default sends the id and secret as they are, which carries a secret with a space: activation,
            // refresh and revocation all authenticate.
            let session = session(clientID: "KTSPACE", secret: "Who@re U123?")
            _ = try await session.activate(code: try await launch(for: "KTSPACE"))
            try await server.expireTokens()
            await XCTAssertEqualAsync(try await Self.messages(session), 200)
            guard case .revoked = try await session.revoke() else { return XCTFail("not revoked") }
            // Form-encoding first (RFC 6749 §2.3.1) turns the space into "+", which such a server cannot match...
            let formEncoding = self.session(
                clientID: "KTSPACE", secret: "Who@re U123?", method: .basic, store: InMemoryCredentialStore())
            do {
                _ = try await formEncoding.activate(code: try await launch(for: "KTSPACE"))
                XCTFail("a form-encoded secret with a space was accepted by a server that does not form-decode")
            } catch let error as SignInError where error.code == .clientRejected {
                XCTAssertEqual(error.serverError?.code, .invalidClient)
            }
            // ...and is what a server that form-decodes expects.
            try await server.configure(["basic_decoding": "rfc6749"])
            _ = try await formEncoding.activate(code: try await launch(for: "KTSPACE"))
        }
    }

    func testExpiryWithAHundredConcurrentCallsRefreshesOnce() async throws {
        try await journey {
            let session = session()
            _ = try await session.activate(code: try await launch())
            try await server.expireTokens()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 { group.addTask { try await Self.messages(session) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            XCTAssertEqual(statuses, Array(repeating: 200, count: 100))
            await XCTAssertEqualAsync(try await calls(.refreshToken), 1, "one refresh for a hundred callers")
        }
    }

    func testProactiveRefreshWithinTheSkew() async throws {
        try await journey {
            try await server.configure(["token_lifetime": 30])
            let session = session()
            _ = try await session.activate(code: try await launch())
            let token = try await session.accessToken()
            await XCTAssertEqualAsync(try await calls(.refreshToken), 1, "30 s left is inside the 60 s skew")
            XCTAssertFalse(token.value.isEmpty)
        }
    }

    func testRotationSurvivesARestartWithTheFileStore() async throws {
        try await journey {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kt-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try FileCredentialStore(directory: directory)
            let first = session(store: store)
            _ = try await first.activate(code: try await launch())
            try await server.expireTokens()
            await XCTAssertEqualAsync(try await Self.messages(first), 200)
            // A new process reads the rotated grant and continues, refreshing again with the newest refresh token.
            let second = session(store: try FileCredentialStore(directory: directory))
            await XCTAssertEqualAsync(try await Self.messages(second), 200)
            try await server.expireTokens()
            await XCTAssertEqualAsync(try await Self.messages(second), 200)
            await XCTAssertEqualAsync(try await calls(.refreshToken), 2)
            await XCTAssertEqualAsync(try await calls(.authorize), 1, "no re-activation")
        }
    }

    func testALostRefreshResponseEndsInNeedsActivation() async throws {
        try await journey {
            let session = session()
            _ = try await session.activate(code: try await launch())
            try await server.configure(["drop_next_refresh_response": true])
            try await server.expireTokens()
            do {
                _ = try await Self.messages(session)
                XCTFail("expected the dropped response to fail the call")
            } catch let error as TransportError {
                XCTAssertTrue(error.isTransient)
            }
            guard case .active = try await session.status() else {
                return XCTFail("a network error must not discard the grant")
            }
            // The server rotated before the response was lost: the stored refresh token is now dead.
            do {
                _ = try await Self.messages(session)
                XCTFail("expected invalid_grant")
            } catch let error as SignInError where error.code == .needsSignIn {
                XCTAssertEqual(error.serverError?.code, .invalidGrant)
            }
            await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        }
    }

    func testRevokeWithDiscoveredEndpointAndPKCE() async throws {
        try await journey {
            try await server.configure(["smart_configuration": true])
            let session = session()
            _ = try await session.activate(code: try await launch())
            let endpoints = try await session.discover()
            XCTAssertEqual(endpoints.codeChallengeMethods, ["S256"])
            XCTAssertEqual(endpoints.revocation, server.url("/OAuth2/Koppeltaal/Revoke"))
            guard case .revoked = try await session.revoke() else { return XCTFail("not revoked") }
            await XCTAssertEqualAsync(try await session.status(), .needsActivation)
            await XCTAssertEqualAsync(try await server.liveRefreshTokens, 0, "the server revoked the refresh token")
            guard case .nothingToRevoke = try await session.revoke() else { return XCTFail("revoking twice") }
        }
    }

    func testRevokeClearsLocallyWhenTheServerIsUnreachable() async throws {
        try await journey {
            let unreachable = server.kind == .emulator ? "http://127.0.0.1:9/revoke" : "https://unreachable.test/revoke"
            let session = session(overrides: EndpointOverrides(revocation: URL(string: unreachable)))
            _ = try await session.activate(code: try await launch())
            guard case .failed(let error) = try await session.revoke() else { return XCTFail("expected a failure") }
            XCTAssertTrue(error is TransportError, "\(error)")
            await XCTAssertEqualAsync(try await session.status(), .needsActivation)
        }
    }

    func testEveryConformanceFormInJSONAndXML() async throws {
        try await journey {
            for form in ["F1", "F2", "F3", "F4"] {
                for format in ["json", "xml"] {
                    for restAsObject in [false, true] {
                        try await server.configure([
                            "conformance_form": form, "conformance_format": format, "rest_as_object": restAsObject,
                            "relative_uris": form == "F3",
                        ])
                        let endpoints = try await session(store: InMemoryCredentialStore()).discover()
                        XCTAssertEqual(
                            endpoints.authorization, server.url("/OAuth2/Koppeltaal/Authorize"), "\(form) \(format)")
                        XCTAssertEqual(endpoints.token, server.url("/OAuth2/Koppeltaal/Token"), "\(form) \(format)")
                        XCTAssertEqual(
                            endpoints.revocation, form == "F4" ? server.url("/OAuth2/Koppeltaal/Revoke") : nil,
                            "\(form) \(format)")
                    }
                }
            }
        }
    }

    func testDiscoveryNamesWhatIsMissingAndOverridesWin() async throws {
        try await journey {
            try await server.configure(["conformance_form": "none"])
            do {
                _ = try await session().discover()
                XCTFail("expected a discovery failure")
            } catch let error as SignInError where error.code == .discoveryFailed {
                XCTAssertTrue(error.reason.contains("names no authorization_endpoint or token_endpoint"), error.reason)
            }
            let manual = EndpointOverrides(
                authorization: server.url("/OAuth2/Koppeltaal/Authorize"), token: server.url("/OAuth2/Koppeltaal/Token")
            )
            let session = session(store: InMemoryCredentialStore(), overrides: manual)
            _ = try await session.activate(code: try await launch())
            await XCTAssertEqualAsync(try await Self.messages(session), 200)
        }
    }

    /// Plain http is a socket matter: only the emulator is reached over it.
    func testPlainHTTPIsRefusedUnlessLoopbackIsAllowed() async throws {
        try await onEachServer([.emulator]) { _ in
            server = try await KoppeltaalServerUnderTest(.emulator)
            let strict = KoppeltaalSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: server.fhirBase,
                        client: OAuthClientCredentials(
                            clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
                        redirectURI: "http://127.0.0.1/after-auth"),
                    session: OAuthSessionSettings(store: InMemoryCredentialStore())))
            do {
                _ = try await strict.discover()
                XCTFail("expected http to be refused")
            } catch let error as ConfigurationError {
                XCTAssertEqual(error, .insecureURL(host: "127.0.0.1"))
            }
        }
    }

    func testExpirySignalsInEveryShapeAreRefreshedAndReplayed() async throws {
        let shapes: [[String: any Sendable]] = [
            ["outcome_shape": "dstu1"], ["outcome_shape": "dstu2"],
            ["outcome_shape": "dstu1", "www_authenticate": true], ["empty_401": true],
        ]
        for (index, shape) in shapes.enumerated() {
            try await journey {
                try await server.configure(shape)
                let session = session(store: InMemoryCredentialStore())
                _ = try await session.activate(code: try await launch())
                try await server.expireTokens()
                for accept in ["application/json", "application/xml+fhir"] {
                    await XCTAssertEqualAsync(
                        try await session.fhir(ResourcePath("MessageHeader", "_search"), accept: accept).status, 200,
                        "shape \(index) \(accept)")
                }
                await XCTAssertEqualAsync(try await calls(.refreshToken), 1, "shape \(index)")
            }
        }
    }

    func testATransientRefreshFailureSurfacesAndKeepsTheGrant() async throws {
        try await journey {
            try await server.configure(["outcome_shape": "dstu2"])
            let session = session()
            _ = try await session.activate(code: try await launch())
            try await server.expireTokens()
            // The XML OperationOutcome says the token expired; the refresh then fails with a 500.
            try await server.inject(.status(500), at: server.tokenURL)
            do {
                _ = try await session.fhir(ResourcePath("MessageHeader", "_search"), accept: "application/xml+fhir")
                XCTFail("expected an error")
            } catch let error as UnexpectedResponseError {
                XCTAssertEqual(error.status, 500, "the refresh failed transiently; the grant is kept")
            }
            guard case .active = try await session.status() else { return XCTFail("grant lost") }
        }
    }

    func testAClientWithoutRefreshTokensNeedsActivationAfterExpiry() async throws {
        try await journey {
            let session = session(clientID: "KTNOREFRESH")
            _ = try await session.activate(code: try await launch(for: "KTNOREFRESH"))
            try await server.expireTokens()
            do {
                _ = try await Self.messages(session)
                XCTFail("expected activation to be needed")
            } catch let error as SignInError where error.code == .needsSignIn {}
        }
    }

    func testPublicClientAndClientSecretPost() async throws {
        try await journey {
            let publicSession = session(clientID: "KTPUBLIC", secret: nil, pkce: .always)
            _ = try await publicSession.activate(code: try await launch(for: "KTPUBLIC"))
            await XCTAssertEqualAsync(try await Self.messages(publicSession), 200)
            let postSession = session(method: .post, store: InMemoryCredentialStore())
            _ = try await postSession.activate(code: try await launch())
            try await server.expireTokens()
            await XCTAssertEqualAsync(try await Self.messages(postSession), 200)
        }
    }

    func testWrongClientSecretIsAConfigurationErrorThatKeepsNothingBroken() async throws {
        try await journey {
            do {
                _ = try await session(secret: "wrong").activate(code: try await launch())
                XCTFail("expected the client to be refused")
            } catch let error as SignInError where error.code == .clientRejected {
                XCTAssertEqual(error.serverError?.code, .invalidClient)
                XCTAssertEqual(error.serverError?.httpStatus, 401)
            }
        }
    }

    /// Every fault of the matrix on the refresh an expired access token needs; see ``FaultMatrix``. Faults that strike
    /// after the server rotated the refresh token (a garbled answer, a timeout the server outlived) are the lost
    /// response: the grant is kept, and the next call learns from the server that it is dead.
    func testFaultMatrix() async throws {
        try await journey {
            var session = session()
            try await FaultMatrix.run(
                family: "Koppeltaal", endpoint: server.tokenURL, server: server,
                expected: FaultMatrix.rotatingRefresh(afterLostRotation: "SignInError.needsSignIn"),
                scenario: .init(
                    prepare: { skewed, transport in
                        self.store = InMemoryCredentialStore()
                        session = self.session(
                            clock: skewed ? OffsetClock(offset: 600) : SystemClock(), transport: transport)
                        _ = try await session.activate(code: try await self.launch())
                        try await self.server.expireTokens()
                    },
                    credentials: { try await self.store.read(session.storeKey) },
                    call: { _ = try await Self.messages(session) }
                )
            )
        }
    }
}
