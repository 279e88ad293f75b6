import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The SODA journey with the real URLSession transport against the emulator over 127.0.0.1.
final class HealthVaultIntegrationTests: XCTestCase {
    private static let shared = Emulator.shared
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    private var emulator: Emulator!
    private var store: InMemoryCredentialStore!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
        store = InMemoryCredentialStore()
    }

    private func connection(
        timeout: TimeInterval = 5, store: (any CredentialStore)? = nil, clock: any TimeSource = SystemClock(),
        transport: (any HTTPTransport)? = nil
    ) -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: emulator.url("/hv/1/platform/wildcat.ashx"),
                defaultShellURL: emulator.url("/hv/shell/1"),
                store: store ?? self.store,
                instanceName: "Integration iPhone",
                client: .init(
                    transport: transport ?? DefaultHTTPTransport(timeout: timeout),
                    urlPolicy: URLPolicy(allowsInsecureLoopback: true), clock: clock,
                    envelope: .init(clientVersion: "HV-Swift/test")
                )
            ))
    }

    private func calls(_ method: String) async throws -> Int {
        let stats = try await emulator.read("healthvault/stats")
        return (stats["calls"] as? [String: Int])?[method] ?? 0
    }

    /// Provisions, lets the emulated user grant access in Shell (a browser that takes the page's redirect), and
    /// completes the hand-off.
    private func connect(_ connection: HealthVaultConnection) async throws {
        let shellPage = try await connection.provision(masterAppID: Self.master)
        let browser = RedirectFollowingBrowser(transport: DefaultHTTPTransport(timeout: 5))
        try await connection.authorize(shellPage, with: browser)
    }

    private func names(_ connection: HealthVaultConnection, pageSize: Int? = nil) async throws -> [String] {
        var names: [String] = []
        for try await person in connection.authorizedPeople(pageSize: pageSize) { names.append(person.name) }
        return names
    }

    func testProvisionShellSessionAndEveryPage() async throws {
        try await emulator.control("healthvault", ["people": 7, "page_size": 2, "shell_instance": "2"])
        let connection = connection()
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned)
        let shellPage = try await connection.provision(masterAppID: Self.master)
        XCTAssertTrue(shellPage.absoluteString.contains("target=CREATEAPPLICATION"))
        guard case .awaitingAuthorization(let pending) = try await connection.status() else {
            return XCTFail("not awaiting authorization")
        }
        XCTAssertEqual(pending, shellPage)
        // The page was abandoned: provisioning again creates a fresh instance with a fresh creation token.
        let freshPage = try await connection.provision(masterAppID: Self.master)
        XCTAssertNotEqual(freshPage, shellPage)
        await XCTAssertEqualAsync(try await calls("NewApplicationCreationInfo"), 2)

        let completion = try await XCTUnwrapAsync(try await emulator.visit(freshPage))
        XCTAssertTrue(completion.path.hasSuffix("/hv/shell/2/application/complete"), "the user bounced to instance 2")
        let outcome = try await connection.completeAuthorization(redirect: completion)
        XCTAssertEqual(outcome.target, .appAuthSuccess)
        guard case .connected(let instance) = try await connection.status() else { return XCTFail("not connected") }
        XCTAssertEqual(instance.id, "2")
        XCTAssertEqual(instance.platformURL, emulator.url("/hv/2/platform/wildcat.ashx"))

        await XCTAssertEqualAsync(try await calls("GetAuthorizedPeople"), 4, "7 people in pages of 2, each page once")
        await XCTAssertEqualAsync(try await connection.people().map(\.name), (0..<7).map { "Person \($0) & Co" })
        await XCTAssertEqualAsync(
            try await calls("GetAuthorizedPeople"), 4, "the people learned at completion are kept")
        await XCTAssertEqualAsync(try await names(connection), (0..<7).map { "Person \($0) & Co" })
        await XCTAssertEqualAsync(try await calls("GetAuthorizedPeople"), 8, "paging again reads each page once more")
        await XCTAssertEqualAsync(try await calls("CreateAuthenticatedSessionToken"), 1)
        await XCTAssertEqualAsync(try await calls("GetServiceDefinition"), 1)
    }

    func testEmptyAndExactPages() async throws {
        try await emulator.control("healthvault", ["people": 0])
        let connection = connection()
        try await connect(connection)
        await XCTAssertEqualAsync(try await names(connection), [])
        try await emulator.control("healthvault", ["people": 4, "page_size": 2])
        await XCTAssertEqualAsync(try await names(connection).count, 4)
        await XCTAssertEqualAsync(
            try await calls("GetAuthorizedPeople"), 4, "one at completion, one empty page, two pages")
    }

    func testExpiredSessionWithFiftyConcurrentCallsCreatesOneSession() async throws {
        let connection = connection()
        try await connect(connection)
        let sessionsBefore = try await calls("CreateAuthenticatedSessionToken")
        try await emulator.control("healthvault/expire-sessions")
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await connection.withSession { client, session in
                        try await client.getAuthorizedPeople(session: session).responseResults.personInfo.count
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(results, Array(repeating: 2, count: 50))
        await XCTAssertEqualAsync(
            try await calls("CreateAuthenticatedSessionToken") - sessionsBefore, 1,
            "one new session for all fifty callers")
    }

    func testRevokedAccessNeedsReauthorizationAtAppAuth() async throws {
        let connection = connection()
        try await connect(connection)
        try await emulator.control("healthvault/revoke")
        do {
            _ = try await names(connection)
            XCTFail("expected reauthorization")
        } catch HealthVaultConnectionError.reauthorizationRequired(let appAuth, let underlying) {
            XCTAssertEqual(underlying.code, .accessDenied)
            XCTAssertEqual(underlying.message, "Access is denied.")
            XCTAssertTrue(appAuth.absoluteString.contains("target=APPAUTH"), appAuth.absoluteString)
            await XCTAssertEqualAsync(appAuth, try await connection.appAuthorizationURL())
            // The user authorizes again; calls work with the same instance and credentials.
            let completion = try await XCTUnwrapAsync(try await emulator.visit(appAuth))
            try await connection.completeAuthorization(redirect: completion)
            await XCTAssertEqualAsync(try await names(connection).count, 3)
        }
    }

    func testRejectThenRetryGetsAFreshToken() async throws {
        try await emulator.control("healthvault", ["shell_decision": "reject"])
        let connection = connection()
        let rejectedPage = try await connection.provision(masterAppID: Self.master)
        let rejection = try await XCTUnwrapAsync(try await emulator.visit(rejectedPage))
        await XCTAssertThrowsErrorAsync(try await connection.completeAuthorization(redirect: rejection)) {
            guard case .authorizationRejected? = $0 as? HealthVaultConnectionError else { return XCTFail("\($0)") }
        }
        await XCTAssertEqualAsync(
            try await connection.status(), .notProvisioned, "the page's single-use token is spent")

        try await emulator.control("healthvault", ["shell_decision": "grant"])
        let retryPage = try await connection.provision(masterAppID: Self.master)
        XCTAssertNotEqual(retryPage, rejectedPage)
        let completion = try await XCTUnwrapAsync(try await emulator.visit(retryPage))
        try await connection.completeAuthorization(redirect: completion)
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
        await XCTAssertEqualAsync(try await calls("NewApplicationCreationInfo"), 2)
    }

    func testStateSurvivesRelaunchAndDisconnectErasesIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCredentialStore(directory: directory)
        try await connect(connection(store: store))
        let relaunched = connection(store: store)
        guard case .connected = try await relaunched.status() else { return XCTFail("state was not persisted") }
        await XCTAssertEqualAsync(try await names(relaunched).count, 3)
        await XCTAssertEqualAsync(try await calls("CreateAuthenticatedSessionToken"), 1, "the stored session is reused")
        try await relaunched.disconnect()
        await XCTAssertEqualAsync(try await relaunched.status(), .notProvisioned)
        XCTAssertNil(try store.read("healthvault.connection"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testDeletedInstanceNeedsReprovisioning() async throws {
        let connection = connection()
        try await connect(connection)
        try await emulator.control("healthvault/delete-apps")
        try await emulator.control("healthvault/expire-sessions")
        do {
            _ = try await names(connection)
            XCTFail("expected reprovisioning")
        } catch HealthVaultConnectionError.reprovisionRequired(let underlying) {
            XCTAssertEqual(underlying.code, .invalidApp)
        }
    }

    func testClockSkewIsATypedError() async throws {
        // Within the message time-to-live but outside the signing window: the CAST signature is refused.
        try await emulator.control("healthvault", ["clock_offset_seconds": 1000])
        do {
            try await connect(connection())
            XCTFail("expected a signature error")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .badSig)
            XCTAssertEqual(error.message, "the signing time is outside the allowed window")
        }
        // Beyond the time-to-live every request is refused as timed out, which the app should retry once the
        // device clock is right.
        try await emulator.control("healthvault", ["clock_offset_seconds": 7200])
        do {
            _ = try await connection(store: InMemoryCredentialStore()).provision(masterAppID: Self.master)
            XCTFail("expected a time-to-live error")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .requestTimedOut)
            XCTAssertEqual(error.recovery, .retryLater)
        }
        // A device clock that far ahead of the server is refused too.
        try await emulator.control("healthvault", ["clock_offset_seconds": -7200])
        do {
            _ = try await connection(store: InMemoryCredentialStore()).provision(masterAppID: Self.master)
            XCTFail("expected a time-to-live error")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .requestTimedOut)
            XCTAssertEqual(error.message, "the message time is in the future")
        }
    }

    /// Every fault of the matrix on a signed call with a live session; see ``FaultMatrix``.
    func testFaultMatrix() async throws {
        var current = connection()
        let success = FaultMatrix.Row(outcome: "success", attempts: 1, credentials: "unchanged", next: "success")
        func failure(_ outcome: String) -> FaultMatrix.Row {
            FaultMatrix.Row(outcome: outcome, attempts: 1, credentials: "unchanged", next: "success")
        }
        try await FaultMatrix.run(
            family: "HealthVault", path: "/hv/1/platform", emulator: emulator,
            expected: [
                "latency beyond the timeout": failure("TransportError.timedOut"),
                "connection reset": failure("TransportError.connectionLost"),
                "HTTP 500": failure("UnexpectedResponseError 500"),
                "HTTP 502": failure("UnexpectedResponseError 502"),
                "HTTP 503 with Retry-After": failure("UnexpectedResponseError 503, Retry-After 30 s"),
                "HTTP 429 with Retry-After": failure("UnexpectedResponseError 429, Retry-After 2 s"),
                "truncated body": failure("ResponseDecodingError (malformed XML)"),
                "wrong content type": success,
                "HTML error page": failure("UnexpectedResponseError 502"),
                "unknown extra element or field": success,
                "client clock 10 minutes fast": success,
            ],
            scenario: .init(
                prepare: { skewed, transport in
                    self.store = InMemoryCredentialStore()
                    try await self.connect(self.connection(transport: transport))
                    current = self.connection(
                        clock: skewed ? OffsetClock(offset: 600) : SystemClock(), transport: transport)
                },
                credentials: { try self.store.read("healthvault.connection") },
                call: {
                    _ = try await current.withSession { client, session in
                        try await client.getAuthorizedPeople(session: session)
                    }
                }
            )
        )
    }

    /// The emulator checks the SDK's signatures itself: bytes changed after signing are refused with status 4.
    func testTamperedRequestsAreRefused() async throws {
        let connection = connection()
        try await connect(connection)
        let edits = [
            ("<num-results>2</num-results>", "<num-results>3</num-results>"),
            ("<msg-ttl>1800</msg-ttl>", "<msg-ttl>1801</msg-ttl>"),
        ]
        for (original, tampered) in edits {
            let base = DefaultHTTPTransport()
            let tampering = RecordingTransport { request in
                var changed = request
                changed.body = request.body.map {
                    Data(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: original, with: tampered).utf8)
                }
                return try await base.send(changed)
            }
            let client = HealthVaultAPIClient(
                configuration: .init(
                    servers: .init(platform: emulator.url("/hv/1/platform/wildcat.ashx")), transport: tampering,
                    urlPolicy: URLPolicy(allowsInsecureLoopback: true),
                    envelope: .init(clientVersion: "HV-Swift/test")
                ))
            do {
                _ = try await connection.withSession { _, session in
                    try await client.getAuthorizedPeople(.init(parameters: .init(numResults: 2)), session: session)
                }
                XCTFail("\(tampered): expected BAD_SIG")
            } catch let error as HealthVaultError {
                XCTAssertEqual(error.code, .badSig, tampered)
            }
        }
    }

    func testUnknownElementsAreIgnored() async throws {
        let connection = connection()
        try await connect(connection)
        try await emulator.inject("extra_element", path: "/hv/1/platform")
        await XCTAssertEqualAsync(try await names(connection).count, 3)
    }
}
