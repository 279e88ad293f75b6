import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInKoppeltaal
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import HealthSignInTesting
import HealthSignInVital
import XCTest

/// Every time and size a configuration takes, given NaN, infinities, a negative and an absurd value, through the
/// public API: each is a typed error where it is first used, or a documented bound, and never stops the process (a
/// crash here ends the whole test run). The transports' timeouts are `HTTPTransportConformance`'s
/// `invalidTimeoutRefused`; the PostgreSQL store's and the AsyncHTTPClient transport's are in their packages' tests.
final class ConfigurationNumbersTests: XCTestCase {
    private static let strange: [TimeInterval] = [.nan, .infinity, -.infinity, -1, 1e300]

    /// The test keys' private keys: the RSA one first.
    private func privateKeys() throws -> (rsa: JSONWebKey, other: JSONWebKey) {
        let keys = try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys
        return (
            try XCTUnwrap(keys.first { $0.keyID == "test-rsa" }),
            try XCTUnwrap(keys.first { $0.keyID != "test-rsa" && $0.isPrivate })
        )
    }

    private func assertInvalidSetting(
        _ error: any Error, _ name: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case .invalidSetting(name, _, _)? = error as? ConfigurationError else {
            return XCTFail("expected the setting \(name) refused, got \(error)", file: file, line: line)
        }
        XCTAssertEqual((error as? any SDKError)?.recovery, .reconfigure, file: file, line: line)
    }

    func testALockTimeoutThatIsNaNOrNegativeIsRefusedAndAHugeOneWaits() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("numbers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for timeout in Self.strange {
            let store = try FileCredentialStore(directory: directory, lockTimeout: timeout)
            let locks = LockDirectory(directory, timeout: timeout)
            for take in [{ try await store.lock("key") }, { try await locks.lock("other") }] {
                do {
                    let lock = try await take()
                    XCTAssertTrue(timeout >= 0, "\(timeout) took the lock")
                    lock?.release()
                } catch {
                    XCTAssertTrue(timeout.isNaN || timeout < 0, "\(timeout): \(error)")
                    assertInvalidSetting(error, "lock timeout")
                }
            }
        }
    }

    func testStateBytesOutsideSixteenToOneThousandAndTwentyFourAreRefused() async throws {
        let server = SMARTTestServer()
        let registration = OAuthRegistration(
            baseURL: server.fhirBaseURL, client: OAuthClientCredentials(clientID: "smart-public"),
            redirectURI: "http://127.0.0.1/smart/callback")
        let session = OAuthSession(
            profile: SMARTProfile(
                configuration: .init(
                    registration: registration,
                    session: OAuthSessionSettings(
                        store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport)))))
        for count in [Int.min, -1, 0, 15, 1_025, Int(Int32.max) + 1, Int.max] {
            await XCTAssertThrowsErrorAsync(
                try await session.newAuthorization(at: registration, openID: false, stateBytes: count)
            ) { self.assertInvalidSetting($0, "stateBytes") }
            // Made by hand, a pending request never has a short state, nor draws an absurd number of bytes.
            let pending = PendingAuthorization(
                random: SystemRandomSource(), stateBytes: count, openID: false, redirectURI: "app:/cb",
                endpoints: OAuthEndpoints(baseURL: server.fhirBaseURL, token: server.fhirBaseURL), startedAt: Date())
            XCTAssertTrue((22...1_366).contains(pending.state.count), "\(count): \(pending.state.count)")
        }
        let pending = try await session.newAuthorization(at: registration, openID: false, stateBytes: 16)
        XCTAssertEqual(pending.state.count, 22)
    }

    func testAnIDTokenLeewayOrMaximumAgeOutsideItsRangeRefusesEveryToken() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let key = try privateKeys().rsa
        let claims: JSONObject = [
            "iss": "https://ehr.example", "sub": "user-1", "aud": "app", "exp": .number(JSONNumber(1_800_000_300)),
            "iat": .number(JSONNumber(1_800_000_000 - 5)),
        ]
        let token = try JWS.sign(
            header: JSONValue.object(["alg": "RS256", "kid": "test-rsa", "typ": "JWT"]).serialized(),
            payload: JSONValue.object(claims).serialized(), key: key, algorithm: .rs256)
        func validate(leeway: TimeInterval = 120, maximumAge: TimeInterval? = 600) throws -> IDToken {
            try IDToken(
                validating: token, keys: JSONWebKeySet(keys: [key.publicKey]),
                expecting: .init(
                    issuer: "https://ehr.example", clientID: "app", nonce: nil, leeway: leeway, maximumAge: maximumAge),
                now: now)
        }
        XCTAssertEqual(try validate().subject, "user-1")
        for value in Self.strange {
            for (leeway, maximumAge) in [(value, 600), (120, value)] {
                XCTAssertThrowsError(try validate(leeway: leeway, maximumAge: maximumAge), "\(leeway), \(maximumAge)") {
                    guard case .invalidExpectations? = $0 as? IDTokenError else { return XCTFail("\($0)") }
                }
            }
        }
    }

    func testAnHTILaunchReceiverRefusesAStrangeLifetimeOrSkewAndAComposerANaNLifetime() async throws {
        let key = try privateKeys().rsa
        let fhirBase = try XCTUnwrap(URL(string: "https://fhir.example/fhir"))
        let context = HTILaunchContext(
            issuer: "portal-1", audience: "Device/module-1", subject: "Practitioner/1", resource: "Task/1")
        for value in Self.strange {
            for (lifetime, skew) in [(value, 30), (300, value)] {
                let receiver = HTILaunchReceiver(
                    configuration: .init(
                        deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase,
                        verification: .keys(["portal-1": JSONWebKeySet(keys: [key.publicKey])]),
                        maximumLifetime: lifetime, clockSkew: skew))
                var form = FormFields()
                form.append("launch", try HTILaunchComposer(clientID: "portal-1", key: key).token(for: context))
                form.append("iss", fhirBase.absoluteString)
                await XCTAssertThrowsErrorAsync(try await receiver.receive(form)) {
                    self.assertInvalidSetting($0, lifetime == 300 ? "clockSkew" : "maximumLifetime")
                }
            }
            do {
                let composer = try HTILaunchComposer(clientID: "portal-1", key: key, lifetime: value)
                XCTAssertFalse(value.isNaN)
                // Any other lifetime is held to 1 to 300 seconds.
                let payload = try JWS.parts(of: try composer.token(for: context)).payload
                let claims = try XCTUnwrap(try JSONValue.parse(payload).objectValue)
                let span =
                    (claims["exp"]?.numberValue?.doubleValue ?? 0) - (claims["iat"]?.numberValue?.doubleValue ?? 0)
                XCTAssertTrue((1...300).contains(span), "\(value): \(span)")
            } catch {
                XCTAssertTrue(value.isNaN, "\(value): \(error)")
                guard case .invalidTime? = error as? JOSEError else { return XCTFail("\(error)") }
            }
        }
    }

    func testARetryPolicyKeepsNoNaN() {
        for value in Self.strange {
            let policy = RequestRetryPolicy(maxRetries: 1, delay: value, maxRetryAfter: value)
            XCTAssertFalse(policy.delay.isNaN || policy.delay < 0, "\(value)")
            XCTAssertFalse(policy.maxRetryAfter.isNaN || policy.maxRetryAfter < 0, "\(value)")
        }
    }

    func testAServiceRenewalMarginOutsideItsRangeSendsNothing() async throws {
        let server = SMARTTestServer()
        for margin in Self.strange {
            let recording = RecordingTransport { try await server.transport.send($0) }
            let backend = SMARTBackendClient(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: server.fhirBaseURL,
                        client: OAuthClientCredentials(
                            clientID: "smart-backend", signer: try SMARTIntegrationTests.signer())),
                    scope: "system/*.rs", renewalMargin: margin,
                    session: OAuthSessionSettings(
                        store: InMemoryCredentialStore(), options: ClientOptions(transport: recording))))
            await XCTAssertThrowsErrorAsync(try await backend.token()) {
                self.assertInvalidSetting($0, "renewalMargin")
            }
            XCTAssertFalse(
                recording.requests.contains { $0.url.path.hasSuffix("token") }, "\(margin): a token was asked for")
        }
    }

    func testSignInTimesOutsideTheirRangeAreRefusedBeforeTheSignInStarts() async throws {
        let server = SMARTTestServer()
        let registration = OAuthRegistration(
            baseURL: server.fhirBaseURL, client: OAuthClientCredentials(clientID: "smart-public"),
            redirectURI: "http://127.0.0.1/smart/callback")
        for value in Self.strange {
            for (name, skew, lifetime) in [("refreshSkew", value, 600), ("pendingLifetime", 60, value)] {
                let session = SMARTSession(
                    configuration: .init(
                        registration: registration,
                        session: OAuthSessionSettings(
                            store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport),
                            refreshSkew: skew, pendingLifetime: lifetime)))
                await XCTAssertThrowsErrorAsync(try await session.authorize(with: server.browser(.approve))) {
                    self.assertInvalidSetting($0, name)
                }
            }
            let koppeltaal = KoppeltaalTestServer()
            let recording = RecordingTransport { try await koppeltaal.transport.send($0) }
            let activation = KoppeltaalSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: koppeltaal.fhirBaseURL,
                        client: OAuthClientCredentials(clientID: "KTSTESTGAME", secret: "kt-secret"),
                        redirectURI: "koppeltaal-game://callback"),
                    activationRetryWindow: value,
                    session: OAuthSessionSettings(
                        store: InMemoryCredentialStore(), options: ClientOptions(transport: recording))))
            await XCTAssertThrowsErrorAsync(try await activation.activate(code: "a-code")) {
                self.assertInvalidSetting($0, "activationRetryWindow")
            }
            XCTAssertEqual(recording.requests.count, 0, "\(value): the activation code was sent")
            let vital = VitalSession(
                configuration: .init(store: InMemoryCredentialStore(), refreshSkew: value, transport: server.transport))
            await XCTAssertThrowsErrorAsync(try await vital.signIn(token: "any")) {
                self.assertInvalidSetting($0, "refreshSkew")
            }
            XCTAssertEqual(RefreshPolicy(skew: value).skew, value.isNaN || value < 0 ? 0 : 86_400, "\(value)")
        }
    }

    func testAKeyOverlapOrAnSHOFLifetimeOutsideItsRangeIsRefused() async throws {
        let (rsa, other) = try privateKeys()
        let fhirBase = try XCTUnwrap(URL(string: "https://fhir.example/fhir"))
        let form = try HTILaunchComposer(clientID: "portal-1", key: rsa).launch(
            HTILaunchContext(issuer: "portal-1", audience: "Device/module-1", subject: "Patient/1", resource: "Task/1"),
            to: try XCTUnwrap(URL(string: "https://module.example/launch")), fhirBaseURL: fhirBase)
        let launch = try await HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase, verification: .signIn)
        ).receive(form.fields)
        let backend = Koppeltaal2BackendClient(
            configuration: .init(
                clientID: "module-1", signer: try Koppeltaal2BackendClient.signer(key: rsa), fhirBaseURL: fhirBase,
                options: ClientOptions(transport: RecordingTransport { _ in HTTPResponseMessage(status: 500) })))
        for value in Self.strange {
            var set = try Koppeltaal2KeySet(keys: [rsa])
            XCTAssertThrowsError(try set.rotate(to: other, overlap: value), "\(value)") {
                guard case .invalidTime? = $0 as? JOSEError else { return XCTFail("\($0)") }
            }
            let signIn = SHOFSignIn(
                backend: backend, redirectURI: "https://module.example/cb", requestSealing: try .testSealing(),
                lifetime: value)
            await XCTAssertThrowsErrorAsync(try await signIn.start(launch)) {
                self.assertInvalidSetting($0, "lifetime")
            }
        }
    }

    /// The test kit's servers date tokens by a test's clock and settings: an odd clock (NaN, infinite, absurd) or an
    /// absurd lifetime gives odd dates, never a crash, and a manual clock stays a date.
    func testTheTestServersTakeAnyClockAndLifetime() async throws {
        for value in Self.strange {
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            clock.advance(by: value)
            XCTAssertFalse(clock.now().timeIntervalSince1970.isNaN)
            XCTAssertTrue((Date.distantPast...Date.distantFuture).contains(clock.now()), "\(value)")
            for clock in [clock, FixedClock(date: Date(timeIntervalSince1970: value))] as [any TimeSource] {
                let server = SMARTTestServer(clock: clock)
                server.settings.tokenLifetime = .max
                let session = SMARTSession(
                    configuration: .init(
                        registration: OAuthRegistration(
                            baseURL: server.fhirBaseURL, client: OAuthClientCredentials(clientID: "smart-public"),
                            redirectURI: "http://127.0.0.1/smart/callback"),
                        scope: "openid fhirUser launch/patient patient/*.rs",
                        session: OAuthSessionSettings(
                            store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport))))
                // The server dates its codes, tokens and id token by that clock: the sign-in ends with a session or a
                // typed error (an id token dated oddly is refused), never a crash.
                do {
                    _ = try await session.authorize(with: server.browser(.approve))
                } catch {
                    XCTAssertTrue(error is any SDKError, "\(value): \(error)")
                }
            }
        }
        XCTAssertEqual(SeededRandomSource(seed: "x").bytes(count: -1), [])
    }
}

/// A clock stopped at any `Double`, NaN and infinities included.
private struct FixedClock: TimeSource {
    let date: Date
    func now() -> Date { date }
}
