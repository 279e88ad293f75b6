import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// Attacks on a module through the public API: launch tokens that try to crash or to spend another's `jti`, page
/// links that try to take the token elsewhere, and secrets in dumps. Kept SHOF requests: `SHOFRequestTamperingTests`.
final class Koppeltaal2SecurityTests: XCTestCase {
    private let fhirBase = URL(string: "https://fhir.koppeltaal.test/fhir/DEFAULT")!
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    private func key(_ id: String) throws -> JSONWebKey {
        try XCTUnwrap(try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == id })
    }

    private func token(_ claims: JSONObject, signedBy keyID: String = "test-rsa") throws -> String {
        try JWS.sign(
            header: JSONValue.object(["alg": "RS512", "kid": .string(keyID)]).serialized(),
            payload: JSONValue.object(claims).serialized(), key: try key(keyID), algorithm: .rs512)
    }

    private func claims(jti: String = "j-1", iat: Double = 1_800_000_000, exp: Double = 1_800_000_300) -> JSONObject {
        [
            "iss": "portal-1", "aud": "Device/module-1", "sub": "Patient/p1", "resource": "Task/t1",
            "jti": .string(jti),
            "iat": .number(JSONNumber(iat)), "exp": .number(JSONNumber(exp)),
        ]
    }

    private func receiver(_ verification: HTILaunchReceiver.Verification, store: any HTIReplayStore)
        -> HTILaunchReceiver
    {
        HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase, verification: verification,
                replayStore: store, clock: clock))
    }

    private func form(_ token: String) -> FormFields { ["launch": token, "iss": fhirBase.absoluteString] }

    private func code(_ receiver: HTILaunchReceiver, _ form: FormFields) async -> HTILaunchError.Code? {
        do {
            _ = try await receiver.receive(form)
            return nil
        } catch {
            return (error as? HTILaunchError)?.code
        }
    }

    func testAnAbsurdExpiryIsRefusedNotACrash() async throws {
        let portal = JSONWebKeySet(keys: [try key("test-rsa").publicKey])
        for verification in [HTILaunchReceiver.Verification.keys(["portal-1": portal]), .signIn] {
            let receiver = receiver(verification, store: InMemoryHTIReplayStore())
            let huge = await code(receiver, form(try token(claims(exp: 1e300))))
            XCTAssertEqual(huge, .lifetimeTooLong)
            let backwards = await code(receiver, form(try token(claims(iat: 1_800_000_000, exp: 1_799_999_990))))
            XCTAssertEqual(backwards, .malformedToken)
        }
    }

    func testAnUnverifiedLaunchCannotSpendAnotherLaunchsJTI() async throws {
        let store = InMemoryHTIReplayStore()
        // Anyone can post a token to a module that leaves the signature to the auth service.
        let genuineParts = try token(claims(jti: "victim")).split(separator: ".")
        let forged = genuineParts[0] + "." + genuineParts[1] + ".AAAA"
        _ = try await receiver(.signIn, store: store).receive(form(String(forged)))
        let portal = JSONWebKeySet(keys: [try key("test-rsa").publicKey])
        let genuine = try await receiver(.keys(["portal-1": portal]), store: store).receive(
            form(try token(claims(jti: "victim"))))
        XCTAssertEqual(genuine.id, "victim", "the forged post recorded nothing")
    }

    func testInstancesSharingAFileStoreAcceptALaunchOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hti-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = try (0..<4).map { _ in
            CredentialStoreHTIReplayStore(store: try FileCredentialStore(directory: directory))
        }
        let expiry = Date(timeIntervalSince1970: 1_800_000_300)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                let store = stores[index % stores.count]
                group.addTask { try await store.use("j-1", issuer: "portal-1", until: expiry, now: now) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        XCTAssertEqual(accepted, 1)
    }

    /// A search whose first page links to `next`: the URLs requested after discovery and the token, and the error.
    private func follow(_ next: String) async throws -> (sent: [URL], error: (any Error)?) {
        let sent = LockedValue<[URL]>([])
        let transport = RecordingTransport { request in
            sent.withValue { $0.append(request.url) }
            switch request.url.path {
            case "/fhir/DEFAULT/.well-known/smart-configuration":
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"token_endpoint": "https://fhir.koppeltaal.test/token"}"#.utf8))
            case "/token":
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"access_token": "t", "token_type": "Bearer", "expires_in": 300}"#.utf8))
            default:
                let link = sent.current.count > 3 ? "" : #", "link": [{"relation": "next", "url": "\#(next)"}]"#
                let bundle = #"{"resourceType": "Bundle", "type": "searchset"\#(link)}"#
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/fhir+json"], body: Data(bundle.utf8))
            }
        }
        let fhir = Koppeltaal2FHIRClient(
            backend: Koppeltaal2BackendClient(
                configuration: .init(
                    clientID: "module-1", signer: try Koppeltaal2BackendClient.signer(key: try key("test-rsa")),
                    fhirBaseURL: fhirBase, options: ClientOptions(transport: transport))))
        var failure: (any Error)?
        do {
            for try await _ in fhir.search(KT2Task.self) {}
        } catch {
            failure = error
        }
        return (sent.current.filter { $0.path != "/token" && !$0.path.contains(".well-known") }, failure)
    }

    func testAPageLinkOutsideTheFHIRBaseNeverGetsTheToken() async throws {
        // Each spelling reaches outside /fhir/DEFAULT as some server reads it.
        let base = "https://fhir.koppeltaal.test/fhir/DEFAULT"
        for next in [
            "https://fhir.koppeltaal.test/fhir/DEFAULT2?_getpages=x",
            base + "/../OTHER?_getpages=x",
            "https://collector.example/fhir/DEFAULT?_getpages=x",
            "https://user@fhir.koppeltaal.test/fhir/DEFAULT?_getpages=x",
            "http://fhir.koppeltaal.test/fhir/DEFAULT?_getpages=x",
            "https://fhir.koppeltaal.test:8443/fhir/DEFAULT?_getpages=x",
            base + "/..;/OTHER?_getpages=x",
            base + "/..;x=1/OTHER?_getpages=x",
            base + "/%2e%2e%2fOTHER?_getpages=x",
            base + "/%2E%2E/OTHER?_getpages=x",
            base + "/..%2FOTHER?_getpages=x",
            base + "/..%5COTHER?_getpages=x",
            base + "/..%5cOTHER?_getpages=x",
            base + "/%252e%252e%252fOTHER?_getpages=x",
            base + "/%252e%252e/OTHER?_getpages=x",
            base + "/.%00./OTHER?_getpages=x",
            base + "/Task/../../OTHER?_getpages=x",
            base + "/./../OTHER?_getpages=x",
            "https://fhir.koppeltaal.test/fhir/DEFAULT%2F..%2F..%2Fadmin?_getpages=x",
            "https://fhir.koppeltaal.test/fhir/DEFAULT/%2e%2e;/%2e%2e;/admin",
        ] {
            let (sent, error) = try await follow(next)
            XCTAssertEqual((error as? KT2RequestError)?.code, .foreignPageLink, next)
            XCTAssertEqual(sent.count, 1, "\(next) was followed")
        }
    }

    func testAPageLinkUnderTheFHIRBaseIsFollowed() async throws {
        for next in [
            "https://fhir.koppeltaal.test/fhir/DEFAULT?_getpages=x",
            "https://FHIR.koppeltaal.test:443/fhir/DEFAULT/Task?page=2",
            "https://fhir.koppeltaal.test/fhir/DEFAULT/Task/../Task?page=2",
            "https://fhir.koppeltaal.test/fhir/DEFAULT/Task;jsessionid=1?page=2",
        ] {
            let (sent, error) = try await follow(next)
            XCTAssertNil(error, next)
            XCTAssertGreaterThan(sent.count, 1, "\(next) was not followed")
        }
    }

    func testDumpsShowNeitherTheLaunchTokenNorTheSubscriptionSecret() async throws {
        let portal = JSONWebKeySet(keys: [try key("test-rsa").publicKey])
        let token = try token(claims())
        let launch = try await receiver(.keys(["portal-1": portal]), store: InMemoryHTIReplayStore()).receive(
            form(token))
        let receiver = KT2NotificationReceiver(header: "X-KTSubscription", value: "s3cret-canary")
        var dumped = ""
        dump(launch, to: &dumped)
        dump(receiver, to: &dumped)
        XCTAssertFalse(dumped.contains(token))
        XCTAssertFalse(dumped.contains("s3cret-canary"))
    }
}
