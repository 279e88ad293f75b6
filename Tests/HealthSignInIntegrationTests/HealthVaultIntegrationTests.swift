import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The SODA journey against the emulator over 127.0.0.1 (the real transport) and against the test kit's in-process
/// HealthVault: the same journeys, the same assertions.
final class HealthVaultIntegrationTests: EachServerTestCase {
    private static let master = HealthVaultServerUnderTest.master
    private var server: HealthVaultServerUnderTest!
    private var store: InMemoryCredentialStore!

    /// Runs `body` against the emulator and the in-process server, each fresh, with an empty store.
    private func journey(_ body: () async throws -> Void) async throws {
        try await onEachServer { kind in
            server = try await HealthVaultServerUnderTest(kind)
            store = InMemoryCredentialStore()
            try await body()
        }
    }

    private func connection(
        timeout: TimeInterval = 5, store: (any CredentialStore)? = nil, clock: any TimeSource = SystemClock(),
        transport: (any HTTPTransport)? = nil
    ) -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: server.platformURL(), defaultShellURL: server.shellURL(),
                store: store ?? self.store,
                instanceName: "Integration iPhone",
                client: .init(
                    transport: transport ?? server.transport(timeout: timeout), urlPolicy: server.urlPolicy,
                    clock: clock,
                    envelope: .init(clientVersion: "HV-Swift/test")
                )
            ))
    }

    private func calls(_ method: HealthVaultTestServer.Operation) async throws -> Int { try await server.calls(method) }

    /// Provisions, lets the emulated user grant access in Shell (a browser that takes the page's redirect), and
    /// completes the hand-off.
    private func connect(_ connection: HealthVaultConnection) async throws {
        let shellPage = try await connection.provision(masterAppID: Self.master)
        try await connection.authorize(shellPage, with: server.browser)
    }

    private func names(_ connection: HealthVaultConnection, pageSize: Int? = nil) async throws -> [String] {
        var names: [String] = []
        for try await person in connection.authorizedPeople(pageSize: pageSize) { names.append(person.name) }
        return names
    }

    func testProvisionShellSessionAndEveryPage() async throws {
        try await journey {
            try await server.configure(["people": 7, "page_size": 2, "shell_instance": "2"])
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
            await XCTAssertEqualAsync(try await calls(.newApplicationCreationInfo), 2)

            // The page opens on instance 1's Shell, which bounces the user to instance 2's, where the browser stops.
            let outcome = try await connection.authorize(freshPage, with: server.browser)
            XCTAssertEqual(outcome.target, .appAuthSuccess)
            XCTAssertEqual(outcome.instanceID, "2", "the user bounced to instance 2")
            guard case .connected(let instance) = try await connection.status() else { return XCTFail("not connected") }
            XCTAssertEqual(instance.id, "2")
            XCTAssertEqual(instance.platformURL, server.platformURL(instance: "2"))

            await XCTAssertEqualAsync(
                try await calls(.getAuthorizedPeople), 4, "7 people in pages of 2, each page once")
            await XCTAssertEqualAsync(try await connection.people().map(\.name), (0..<7).map { "Person \($0) & Co" })
            await XCTAssertEqualAsync(
                try await calls(.getAuthorizedPeople), 4, "the people learned at completion are kept")
            await XCTAssertEqualAsync(try await names(connection), (0..<7).map { "Person \($0) & Co" })
            await XCTAssertEqualAsync(
                try await calls(.getAuthorizedPeople), 8, "paging again reads each page once more")
            await XCTAssertEqualAsync(try await calls(.createAuthenticatedSessionToken), 1)
            await XCTAssertEqualAsync(try await calls(.getServiceDefinition), 1)
        }
    }

    func testEmptyAndExactPages() async throws {
        try await journey {
            try await server.configure(["people": 0])
            let connection = connection()
            try await connect(connection)
            await XCTAssertEqualAsync(try await names(connection), [])
            try await server.configure(["people": 4, "page_size": 2])
            await XCTAssertEqualAsync(try await names(connection).count, 4)
            await XCTAssertEqualAsync(
                try await calls(.getAuthorizedPeople), 4, "one at completion, one empty page, two pages")
        }
    }

    func testExpiredSessionWithFiftyConcurrentCallsCreatesOneSession() async throws {
        try await journey {
            let connection = connection()
            try await connect(connection)
            let sessionsBefore = try await calls(.createAuthenticatedSessionToken)
            try await server.expireSessions()
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
                try await calls(.createAuthenticatedSessionToken) - sessionsBefore, 1,
                "one new session for all fifty callers")
        }
    }

    func testRevokedAccessNeedsReauthorizationAtAppAuth() async throws {
        try await journey {
            let connection = connection()
            try await connect(connection)
            try await server.revoke()
            do {
                _ = try await names(connection)
                XCTFail("expected reauthorization")
            } catch HealthVaultConnectionError.reauthorizationRequired(let appAuth, let underlying) {
                XCTAssertEqual(underlying.code, .accessDenied)
                XCTAssertEqual(underlying.message, "Access is denied.")
                XCTAssertTrue(appAuth.absoluteString.contains("target=APPAUTH"), appAuth.absoluteString)
                await XCTAssertEqualAsync(appAuth, try await connection.appAuthorizationURL())
                // The user authorizes again; calls work with the same instance and credentials.
                let completion = try await XCTUnwrapAsync(try await server.visit(appAuth))
                try await connection.completeAuthorization(redirect: completion)
                await XCTAssertEqualAsync(try await names(connection).count, 3)
            }
        }
    }

    func testRejectThenRetryGetsAFreshToken() async throws {
        try await journey {
            try await server.configure(["shell_decision": "reject"])
            let connection = connection()
            let rejectedPage = try await connection.provision(masterAppID: Self.master)
            let rejection = try await XCTUnwrapAsync(try await server.visit(rejectedPage))
            await XCTAssertThrowsErrorAsync(try await connection.completeAuthorization(redirect: rejection)) {
                guard case .authorizationRejected? = $0 as? HealthVaultConnectionError else { return XCTFail("\($0)") }
            }
            await XCTAssertEqualAsync(
                try await connection.status(), .notProvisioned, "the page's single-use token is spent")

            try await server.configure(["shell_decision": "grant"])
            let retryPage = try await connection.provision(masterAppID: Self.master)
            XCTAssertNotEqual(retryPage, rejectedPage)
            let completion = try await XCTUnwrapAsync(try await server.visit(retryPage))
            try await connection.completeAuthorization(redirect: completion)
            guard case .connected = try await connection.status() else { return XCTFail("not connected") }
            await XCTAssertEqualAsync(try await calls(.newApplicationCreationInfo), 2)
        }
    }

    func testStateSurvivesRelaunchAndDisconnectErasesIt() async throws {
        try await journey {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hv-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = try FileCredentialStore(directory: directory)
            try await connect(connection(store: store))
            let relaunched = connection(store: store)
            guard case .connected = try await relaunched.status() else { return XCTFail("state was not persisted") }
            await XCTAssertEqualAsync(try await names(relaunched).count, 3)
            await XCTAssertEqualAsync(
                try await calls(.createAuthenticatedSessionToken), 1, "the stored session is reused")
            try await relaunched.disconnect()
            await XCTAssertEqualAsync(try await relaunched.status(), .notProvisioned)
            await XCTAssertNilAsync(try await store.read(relaunched.storeKey))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
        }
    }

    func testDeletedInstanceNeedsReprovisioning() async throws {
        try await journey {
            let connection = connection()
            try await connect(connection)
            try await server.deleteApplications()
            try await server.expireSessions()
            do {
                _ = try await names(connection)
                XCTFail("expected reprovisioning")
            } catch HealthVaultConnectionError.reprovisionRequired(let underlying) {
                XCTAssertEqual(underlying.code, .invalidApp)
            }
        }
    }

    func testClockSkewIsATypedError() async throws {
        try await journey {
            // Within the message time-to-live but outside the signing window: the CAST signature is refused.
            try await server.configure(["clock_offset_seconds": 1000])
            do {
                try await connect(connection())
                XCTFail("expected a signature error")
            } catch let error as HealthVaultError {
                XCTAssertEqual(error.code, .badSig)
                XCTAssertEqual(error.message, "the signing time is outside the allowed window")
            }
            // Beyond the time-to-live every request is refused as timed out, which the app should retry once the
            // device clock is right.
            try await server.configure(["clock_offset_seconds": 7200])
            do {
                _ = try await connection(store: InMemoryCredentialStore()).provision(masterAppID: Self.master)
                XCTFail("expected a time-to-live error")
            } catch let error as HealthVaultError {
                XCTAssertEqual(error.code, .requestTimedOut)
                XCTAssertEqual(error.recovery, .retryLater)
            }
            // A device clock that far ahead of the server is refused too.
            try await server.configure(["clock_offset_seconds": -7200])
            do {
                _ = try await connection(store: InMemoryCredentialStore()).provision(masterAppID: Self.master)
                XCTFail("expected a time-to-live error")
            } catch let error as HealthVaultError {
                XCTAssertEqual(error.code, .requestTimedOut)
                XCTAssertEqual(error.message, "the message time is in the future")
            }
        }
    }

    /// Every fault of the matrix on a signed call with a live session; see ``FaultMatrix``.
    func testFaultMatrix() async throws {
        try await journey {
            var current = connection()
            let success = FaultMatrix.Row(outcome: "success", attempts: 1, credentials: "unchanged", next: "success")
            func failure(_ outcome: String) -> FaultMatrix.Row {
                FaultMatrix.Row(outcome: outcome, attempts: 1, credentials: "unchanged", next: "success")
            }
            try await FaultMatrix.run(
                family: "HealthVault", endpoint: server.platformURL().deletingLastPathComponent(), server: server,
                expected: [
                    "latency beyond the timeout": failure("TransportError, kind .timedOut"),
                    "connection reset": failure("TransportError, kind .connectionLost"),
                    "HTTP 500": failure("UnexpectedResponseError 500"),
                    "HTTP 502": failure("UnexpectedResponseError 502"),
                    "HTTP 503 with Retry-After": failure("UnexpectedResponseError 503, response.retryAfter(now:) 30 s"),
                    "HTTP 429 with Retry-After": failure("UnexpectedResponseError 429, response.retryAfter(now:) 2 s"),
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
                    credentials: { try await self.store.read(current.storeKey) },
                    call: {
                        _ = try await current.withSession { client, session in
                            try await client.getAuthorizedPeople(session: session)
                        }
                    }
                )
            )
        }
    }

    /// The emulator checks the SDK's signatures itself: bytes changed after signing are refused with status 4.
    func testTamperedRequestsAreRefused() async throws {
        try await journey {
            let connection = connection()
            try await connect(connection)
            let edits = [
                ("<num-results>2</num-results>", "<num-results>3</num-results>"),
                ("<msg-ttl>1800</msg-ttl>", "<msg-ttl>1801</msg-ttl>"),
            ]
            for (original, tampered) in edits {
                let base = server.transport()
                let tampering = RecordingTransport { request in
                    var changed = request
                    changed.body = request.body.map {
                        Data(
                            String(decoding: $0, as: UTF8.self).replacingOccurrences(of: original, with: tampered).utf8)
                    }
                    return try await base.send(changed)
                }
                let client = HealthVaultAPIClient(
                    configuration: .init(
                        servers: .init(platform: server.platformURL()), transport: tampering,
                        urlPolicy: server.urlPolicy,
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
    }

    func testUnknownElementsAreIgnored() async throws {
        try await journey {
            let connection = connection()
            try await connect(connection)
            try await server.inject(.unknownMember, at: server.platformURL())
            await XCTAssertEqualAsync(try await names(connection).count, 3)
        }
    }
}
