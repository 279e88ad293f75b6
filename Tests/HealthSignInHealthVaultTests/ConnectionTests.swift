import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The connection's state machine against a scripted transport: what it stores, when it renews, what it throws.
final class ConnectionTests: XCTestCase {
    static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    static let child = "39a952bb-aac4-4a3d-8fba-f53e5605eca5"

    /// Answers by method name; `script` may return nil to use the standard answer.
    final class FakeHealthVault: Sendable {
        let calls = LockedValue<[String]>([])
        let overrides = LockedValue<[String: [String]]>([:])

        func answer(_ request: HTTPRequestMessage) throws -> HTTPResponseMessage {
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            guard let start = body.range(of: "<method>"), let end = body.range(of: "</method>") else {
                throw TransportError(.other, url: request.url, detail: "no method")
            }
            let method = String(body[start.upperBound..<end.lowerBound])
            calls.withValue { $0.append(method) }
            let answer: String = nextScripted(method) ?? standard(method)
            return HTTPResponseMessage(status: 200, body: Data(answer.utf8))
        }

        /// The next scripted answer for `method`, taking it from the script.
        private func nextScripted(_ method: String) -> String? {
            overrides.withValue { (scripts: inout [String: [String]]) -> String? in
                guard var queue = scripts[method], !queue.isEmpty else { return nil }
                let next = queue.removeFirst()
                scripts[method] = queue
                return next
            }
        }

        func script(_ method: String, _ bodies: String...) { overrides.withValue { $0[method, default: []] += bodies } }
        func count(_ method: String) -> Int { calls.current.filter { $0 == method }.count }

        private func standard(_ method: String) -> String {
            switch method {
            case "NewApplicationCreationInfo":
                return ok(
                    "NewApplicationCreationInfo",
                    "<app-id>\(child)</app-id><shared-secret>AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=</shared-secret><app-token>tok/en+=</app-token>"
                )
            case "GetServiceDefinition":
                return ok(
                    "GetServiceDefinition2",
                    "<instances><instance><id>1</id><name>US</name><platform-url>https://us.example/platform/wildcat.ashx</platform-url><shell-url>https://shell.us.example/</shell-url></instance></instances>"
                )
            case "CreateAuthenticatedSessionToken":
                return ok(
                    "CreateAuthenticatedSessionToken2",
                    "<token>session-\(count(method))</token><shared-secret>AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=</shared-secret>"
                )
            default:
                return ok(
                    "GetAuthorizedPeople",
                    "<response-results><person-info><person-id>cc5e5771-4da7-4961-a758-d7714223d9ab</person-id><name>A</name></person-info><more-results>false</more-results></response-results>"
                )
            }
        }
    }

    static func ok(_ namespace: String, _ info: String) -> String {
        "<response><status><code>0</code></status><wc:info xmlns:wc=\"urn:com.microsoft.wc.methods.response.\(namespace)\">\(info)</wc:info></response>"
    }

    static func status(_ code: Int) -> String {
        "<response><status><code>\(code)</code><error><message>status \(code)</message></error></status></response>"
    }

    private let fake = FakeHealthVault()
    private let store = InMemoryCredentialStore()

    private func connection() -> HealthVaultConnection {
        let fake = fake
        return HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: URL(string: "https://default.example/platform/wildcat.ashx")!,
                defaultShellURL: URL(string: "https://shell.default.example")!,
                store: store,
                client: .init(
                    transport: RecordingTransport { try fake.answer($0) }, envelope: .init(clientVersion: "test"))
            ))
    }

    private func connected() async throws -> HealthVaultConnection {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        try await connection.completeAuthorization(
            redirect: URL(
                string:
                    "https://shell.us.example/application/complete?appid=\(Self.child)&target=AppAuthSuccess&instanceid=1"
            )!)
        return connection
    }

    func testProvisioningStoresTheInstanceBeforeReturning() async throws {
        let connection = connection()
        let page = try await connection.provision(masterAppID: Self.master)
        XCTAssertTrue(
            page.absoluteString.hasPrefix(
                "https://shell.default.example/redirect.aspx?target=CREATEAPPLICATION&targetqs=appid%3D6556d00c"))
        XCTAssertTrue(
            page.absoluteString.contains("appCreationToken%3Dtok%252Fen%252B%253D"), "the token is encoded twice")
        XCTAssertTrue(
            page.absoluteString.contains("instanceName%3D\(Self.child)"), "the child id names the instance by default")
        let stored = try await XCTUnwrapAsync(await store.read(connection.storeKey))
        XCTAssertTrue(String(decoding: stored, as: UTF8.self).lowercased().contains(Self.child))
    }

    func testCompletionResolvesTheInstanceAndCreatesASession() async throws {
        let connection = try await connected()
        await XCTAssertEqualAsync(
            try await connection.status(),
            .connected(
                HealthVaultInstance(
                    id: "1", platformURL: URL(string: "https://us.example/platform/wildcat.ashx")!,
                    shellURL: URL(string: "https://shell.us.example/")!
                )))
        XCTAssertEqual(
            fake.calls.current,
            [
                "NewApplicationCreationInfo", "GetServiceDefinition", "CreateAuthenticatedSessionToken",
                "GetAuthorizedPeople",
            ],
            "the people who authorized are learned at once"
        )
    }

    func testExpiredSessionIsRenewedAndTheCallReplayedOnce() async throws {
        let connection = try await connected()
        fake.script("GetAuthorizedPeople", Self.status(65))
        let people = try await connection.withSession { client, session in
            try await client.getAuthorizedPeople(session: session)
        }
        XCTAssertEqual(people.responseResults.personInfo.count, 1)
        XCTAssertEqual(fake.count("CreateAuthenticatedSessionToken"), 2)
        XCTAssertEqual(fake.count("GetAuthorizedPeople"), 1 + 2, "one at completion, then the call and its replay")
    }

    func testASecondExpiryIsNotRetriedAgain() async throws {
        let connection = try await connected()
        fake.script("GetAuthorizedPeople", Self.status(65), Self.status(65))
        do {
            _ = try await connection.withSession { client, session in
                try await client.getAuthorizedPeople(session: session)
            }
            XCTFail("expected the second 65")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .authenticatedSessionTokenExpired)
        }
        XCTAssertEqual(fake.count("GetAuthorizedPeople"), 1 + 2, "one at completion, then one replay, no loop")
    }

    func testInvalidAppWhileRenewingIsReprovisionRequired() async throws {
        let connection = try await connected()
        fake.script("GetAuthorizedPeople", Self.status(65))
        fake.script("CreateAuthenticatedSessionToken", Self.status(6))
        let before = try await store.read(connection.storeKey)
        do {
            _ = try await connection.withSession { client, session in
                try await client.getAuthorizedPeople(session: session)
            }
            XCTFail("expected reprovisioning")
        } catch HealthVaultConnectionError.reprovisionRequired(let underlying) {
            XCTAssertEqual(underlying.code, .invalidApp)
        }
        await XCTAssertEqualAsync(
            try await store.read(connection.storeKey), before, "nothing is cleared until the app decides")
    }

    func testOtherStatusesKeepTheirCodeMessageAndContext() async throws {
        let connection = try await connected()
        fake.script(
            "GetAuthorizedPeople",
            "<response><status><code>152</code><error><message>Read only.</message><context><server-name>S1</server-name></context></error></status></response>"
        )
        do {
            _ = try await connection.withSession { client, session in
                try await client.getAuthorizedPeople(session: session)
            }
            XCTFail("expected an error")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .maintenanceModeAccessDenied)
            XCTAssertEqual(error.recovery, .retryLater)
            XCTAssertEqual(error.message, "Read only.")
            XCTAssertEqual(error.body.error?.context?.serverName, "S1")
        }
    }

    func testMalformedResponsesAreTypedAndNeverClearCredentials() async throws {
        let connection = try await connected()
        let before = try await store.read(connection.storeKey)
        let bodies = [
            ("not XML", "{\"json\": true}"),
            (
                "another namespace",
                Self.ok(
                    "GetAuthorizedPeople2", "<response-results><more-results>false</more-results></response-results>")
            ),
            ("a missing element", Self.ok("GetAuthorizedPeople", "<response-results></response-results>")),
            (
                "a bad value",
                Self.ok(
                    "GetAuthorizedPeople", "<response-results><more-results>maybe</more-results></response-results>")
            ),
        ]
        let expected = [
            "malformed XML at line 1, column 1: expected the document element",
            "info: expected namespace 'urn:com.microsoft.wc.methods.response.GetAuthorizedPeople', found 'urn:com.microsoft.wc.methods.response.GetAuthorizedPeople2'",
            "response-results/more-results: missing required element",
            #"response-results/more-results: expected Bool, found "maybe""#,
        ]
        for ((name, body), message) in zip(bodies, expected) {
            fake.script("GetAuthorizedPeople", body)
            do {
                _ = try await connection.withSession { client, session in
                    try await client.getAuthorizedPeople(session: session)
                }
                XCTFail("\(name): expected a decoding error")
            } catch let error as ResponseDecodingError {
                XCTAssertEqual(error.description, message, name)
            }
            await XCTAssertEqualAsync(try await store.read(connection.storeKey), before, name)
        }
    }

    func testCallsBeforeProvisioningOrAuthorizationSayWhatIsMissing() async throws {
        let connection = connection()
        do {
            _ = try await connection.withSession { _, _ in 0 }
            XCTFail("expected notProvisioned")
        } catch HealthVaultConnectionError.notProvisioned {}
        _ = try await connection.provision(masterAppID: Self.master)
        do {
            _ = try await connection.withSession { _, _ in 0 }
            XCTFail("expected notAuthorized")
        } catch HealthVaultConnectionError.notAuthorized {}
    }

    func testRedirectForAnotherInstanceIdIsAnError() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        do {
            try await connection.completeAuthorization(
                redirect: URL(
                    string:
                        "https://shell.default.example/application/complete?appid=\(Self.child)&target=AppAuthSuccess&instanceid=9"
                )!)
            XCTFail("expected unknownInstance")
        } catch HealthVaultConnectionError.unknownInstance(let id) {
            XCTAssertEqual(id, "9")
        }
    }
}
