import Foundation
import HealthSignInCore
import HealthSignInFHIR
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Koppeltaal 2.0 backend services and FHIR REST against the emulator's independent auth service and FHIR server over
/// 127.0.0.1: the auth service fetches the module's JWKS from where it is hosted and refuses a replayed `jti`; the
/// FHIR server versions every resource and sets `resource-origin`.
final class Koppeltaal2IntegrationTests: XCTestCase {
    private var emulator: Emulator!

    override func setUp() async throws {
        emulator = try Emulator.shared.get()
        try await emulator.control("reset")
    }

    private var fhirBase: URL { emulator.url("/koppeltaal2/fhir") }
    private var tokenEndpoint: URL { emulator.url("/koppeltaal2/auth/oauth2/token") }

    /// The RSA key of the JOSE fixtures, the module's signing key.
    private func moduleKey() throws -> JSONWebKey {
        let keys = try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json"))
        return try XCTUnwrap(keys.keys.first { $0.keyID == "test-rsa" })
    }

    /// Registers the module with its JWKS hosted by the emulator, and returns its backend client.
    private func module(
        clientID: String = "module-1", algorithm: JWSAlgorithm = .rs512, clock: any TimeSource = SystemClock(),
        redirectURIs: [String] = [], middlewares: [any HTTPClientMiddleware] = []
    ) async throws -> Koppeltaal2BackendClient {
        let key = try moduleKey()
        let jwks = try JSONDecoder().decode(
            [String: [[String: String]]].self, from: try Koppeltaal2KeySet(keys: [key]).document())
        let hosted = try await emulator.control("koppeltaal2/jwks", ["name": clientID, "jwks": jwks])
        try await emulator.control(
            "koppeltaal2/apps",
            [
                "client_id": clientID, "jwks_url": try XCTUnwrap(hosted["jwks_url"] as? String), "role": "module",
                "redirect_uris": redirectURIs,
            ])
        return Koppeltaal2BackendClient(
            configuration: .init(
                clientID: clientID,
                signer: try Koppeltaal2BackendClient.signer(key: key, algorithm: algorithm, clock: clock),
                fhirBaseURL: fhirBase,
                options: ClientOptions(
                    transport: DefaultHTTPTransport(timeout: 5), urlPolicy: URLPolicy(allowsInsecureLoopback: true),
                    middlewares: middlewares)))
    }

    private func task(_ value: String, status: KT2Task.Status = .ready) -> KT2Task {
        KT2Task(
            meta: KT2Meta(profile: ["http://koppeltaal.nl/fhir/StructureDefinition/KT2Task"]),
            extension: [
                KT2Extension(
                    url: KT2Extensions.instantiates,
                    valueReference: KT2Reference(reference: "ActivityDefinition/ad-1", type: "ActivityDefinition"))
            ],
            identifier: [KT2Identifier(system: "http://module.example/task", value: value)], status: status,
            intent: "order", for: KT2Reference(reference: "Patient/p1", type: "Patient"),
            owner: KT2Reference(reference: "Patient/p1", type: "Patient"))
    }

    func testTheBackendTokenIsDiscoveredSignedAndOneRequestServesEveryCaller() async throws {
        let backend = try await module()
        let endpoints = try await backend.endpoints()
        XCTAssertEqual(endpoints.token, tokenEndpoint)
        let tokens = try await withThrowingTaskGroup(of: Koppeltaal2BackendClient.Token.self) { group in
            for _ in 0..<20 { group.addTask { try await backend.token() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(Set(tokens).count, 1, "every caller got the one token")
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["token"] as? [String: Int])?["client_credentials"], 1)
        XCTAssertEqual((stats["assertions_refused"] as? [Any])?.count, 0)
    }

    func testDiscoveryFallsBackToTheCapabilityStatement() async throws {
        try await emulator.control("koppeltaal2", ["smart_configuration": false])
        let backend = try await module()
        let endpoints = try await backend.endpoints()
        XCTAssertEqual(endpoints.token, tokenEndpoint)
        _ = try await backend.token()
    }

    func testTheTaskFlowCreatesSearchesUpdatesWithIfMatchAndReportsAConflict() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        for number in 1...5 { _ = try await fhir.create(task("t\(number)")) }

        var found: [KT2Versioned<KT2Task>] = []
        var pages = 0
        for try await page in fhir.search(KT2Task.self, ["status": "ready", "_count": "2"]) {
            pages += 1
            found += page.resources
        }
        XCTAssertEqual(pages, 3, "five tasks, two per page")
        XCTAssertEqual(Set(found.compactMap { $0.resource.identifier.first?.value }), ["t1", "t2", "t3", "t4", "t5"])
        let first = try XCTUnwrap(found.first)
        XCTAssertEqual(first.resource.resourceOrigin, "Device/module-1")
        XCTAssertEqual(first.resource.activityDefinition, "ActivityDefinition/ad-1")

        let started = try await fhir.update(first.resource.with(status: .inProgress), replacing: first)
        XCTAssertEqual(started.versionID, "2")
        XCTAssertEqual(started.resource.status, .inProgress)
        XCTAssertEqual(started.resource.resourceOrigin, "Device/module-1", "kept through the update")

        do {
            _ = try await fhir.update(first.resource.with(status: .completed), replacing: first)
            XCTFail("a stale If-Match must be refused")
        } catch let conflict as KT2UpdateConflict {
            XCTAssertEqual(conflict.httpStatus, 409)
            XCTAssertEqual(conflict.sentETag, #"W/"1""#)
            let current = try XCTUnwrap(conflict.current(as: KT2Task.self))
            XCTAssertEqual(current.versionID, "2")
            XCTAssertEqual(current.resource.status, .inProgress)
            let completed = try await fhir.update(current.resource.with(status: .completed), replacing: current)
            XCTAssertEqual(completed.versionID, "3")
        }
    }

    func testAPageKeepsTheTasksItReadsAndNamesTheOneItCannot() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        for number in 1...3 { _ = try await fhir.create(task("t\(number)")) }
        // Another vendor's application wrote a Task without the profile's required owner.
        try await emulator.control(
            "koppeltaal2/resources",
            [
                "resource": [
                    "resourceType": "Task", "id": "foreign-1", "status": "ready", "intent": "order",
                    "identifier": [["system": "http://other.example", "value": "x"]] as [[String: any Sendable]],
                    "for": ["reference": "Patient/p1"] as [String: any Sendable],
                ] as [String: any Sendable]
            ])
        var found: [KT2Versioned<KT2Task>] = []
        var failures: [KT2EntryFailure] = []
        for try await page in fhir.search(KT2Task.self, ["status": "ready", "_count": "3"]) {
            found += page.resources
            failures += page.failures
        }
        XCTAssertEqual(Set(found.compactMap { $0.resource.identifier.first?.value }), ["t1", "t2", "t3"])
        let failure = try XCTUnwrap(failures.first)
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failure.reference, "Task/foreign-1")
        XCTAssertEqual(failure.member, "owner")
        XCTAssertEqual(failure.json["identifier"]?[0]?["value"], "x", "the module may read it otherwise")
        XCTAssertTrue("\(failure)".hasPrefix("Task/foreign-1: owner: "), "\(failure)")
        var dumped = ""
        dump(failure, to: &dumped)
        XCTAssertFalse(dumped.contains("other.example"), "printing shows no member values")
    }

    func testAnIfMatchThatDidNotArriveAsSentIsAPreconditionErrorNotAConflict() async throws {
        let created = try await Koppeltaal2FHIRClient(backend: try await module()).create(task("t1"))
        // A proxy on the way removes the header (the server answers 412), or garbles it (the server answers 409).
        for (rewrite, status) in [(nil, 412), ("garbage", 409)] as [(String?, Int)] {
            let fhir = Koppeltaal2FHIRClient(
                backend: try await module(middlewares: [IfMatchRewriter(replacement: rewrite)]))
            do {
                _ = try await fhir.update(created.resource.with(status: .inProgress), replacing: created)
                XCTFail("the update must be refused")
            } catch let error as KT2PreconditionError {
                XCTAssertEqual(error.httpStatus, status)
                XCTAssertEqual(error.sentETag, created.eTag)
                XCTAssertEqual(error.recovery, .reconfigure)
            }
        }
    }

    func testAChangeIsReappliedToTheVersionAnotherApplicationWrote() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        let created = try await fhir.create(task("t1"))
        let other = try await fhir.update(created.resource.with(status: .received), replacing: created)
        let applied = LockedValue<[KT2Task.Status]>([])
        let updated = try await fhir.update(created) { task in
            applied.withValue { $0.append(task.status) }
            return task.with(status: .inProgress)
        }
        XCTAssertEqual(applied.current, [.ready, .received], "applied to the stale version, then to the current")
        XCTAssertEqual(updated.versionID, "3")
        XCTAssertEqual(updated.resource.status, .inProgress)
        XCTAssertNotEqual(other.versionID, updated.versionID)
        let byID = try await fhir.update(KT2Task.self, id: try XCTUnwrap(created.resource.id)) {
            $0.with(status: .completed)
        }
        XCTAssertEqual(byID.versionID, "4")
    }

    func testTheRetriesAreBoundedWhenEveryAttemptMeetsANewerVersion() async throws {
        let bystander = Koppeltaal2FHIRClient(backend: try await module(clientID: "module-2"))
        let racing = RacingWriter(bystander: bystander)
        let fhir = Koppeltaal2FHIRClient(backend: try await module(middlewares: [racing]))
        let created = try await fhir.create(task("t1"))
        do {
            _ = try await fhir.update(created, maximumAttempts: 3) { $0.with(status: .inProgress) }
            XCTFail("every attempt met a newer version")
        } catch let conflict as KT2UpdateConflict {
            XCTAssertNotEqual(conflict.current.eTag, conflict.sentETag)
            XCTAssertEqual(conflict.current(as: KT2Task.self)?.versionID, "4")
        }
        XCTAssertEqual(racing.updates.current, 3, "three updates sent, each beaten by another writer")
        await XCTAssertThrowsErrorAsync(try await fhir.update(created, maximumAttempts: 0) { $0 }) {
            guard case .invalidSetting(let name, _, _)? = $0 as? ConfigurationError else { return XCTFail("\($0)") }
            XCTAssertEqual(name, "maximumAttempts")
        }
    }

    func testARefusedAssertionIsAnOAuthErrorWithTheServersWords() async throws {
        // A client the domain does not know.
        let impostor = Koppeltaal2BackendClient(
            configuration: .init(
                clientID: "module-9", signer: try Koppeltaal2BackendClient.signer(key: try moduleKey()),
                fhirBaseURL: fhirBase,
                options: ClientOptions(
                    transport: DefaultHTTPTransport(timeout: 5), urlPolicy: URLPolicy(allowsInsecureLoopback: true))))
        do {
            _ = try await impostor.token()
            XCTFail("an assertion of an unknown client must be refused")
        } catch let error as OAuthError {
            XCTAssertEqual(error.code, .invalidClient)
            XCTAssertEqual(error.message, "Access Denied", "the auth service's plain-text words")
            XCTAssertEqual(error.httpStatus, 401)
        }
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["assertions_refused"] as? [Any])?.count, 1)
    }

    func testACreateNeverCarriesResourceOrigin() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        let created = try await fhir.create(task("origin"))
        do {
            _ = try await fhir.create(created.resource)
            XCTFail("a resource with resource-origin must not be created")
        } catch let error as KT2RequestError {
            XCTAssertEqual(error.code, .resourceOriginOnCreate)
        }
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["fhir"] as? [String: Int])?["POST"], 1, "the refused create was never sent")
    }

    func testEveryRequestCarriesTraceHeadersAndPagesCorrelateToTheFirst() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        for number in 1...3 { _ = try await fhir.create(task("trace\(number)")) }
        var pages = 0
        for try await _ in fhir.search(KT2Task.self, ["_count": "1"], trace: KT2Trace(traceID: "trace-1")) {
            pages += 1
        }
        XCTAssertEqual(pages, 3)
        let stats = try await emulator.read("koppeltaal2/stats")
        let all = try XCTUnwrap(stats["trace"] as? [[String: Any]])
        XCTAssertTrue(all.allSatisfy { $0["x_request_id"] is String }, "discovery too: \(all)")
        let seen = all.filter { entry in
            let path = entry["path"] as? String ?? ""
            return !path.contains("/.well-known/") && !path.hasSuffix("/metadata")
        }
        XCTAssertEqual(seen.count, 6, "three creates and three pages")
        let requestIDs = seen.compactMap { $0["x_request_id"] as? String }
        XCTAssertEqual(Set(requestIDs).count, 6, "a new X-Request-Id on every request")
        XCTAssertTrue(requestIDs.allSatisfy { UUID(uuidString: $0) != nil })
        for create in seen.prefix(3) {
            XCTAssertEqual(create["x_correlation_id"] as? String, create["x_request_id"] as? String)
        }
        let search = Array(seen.suffix(3))
        XCTAssertEqual(search.map { $0["x_trace_id"] as? String }, ["trace-1", "trace-1", "trace-1"])
        let firstPage = try XCTUnwrap(search[0]["x_request_id"] as? String)
        XCTAssertEqual(search.map { $0["x_correlation_id"] as? String }, [firstPage, firstPage, firstPage])
    }

    func testAnExpiredTokenIsRenewedOnceAndTheCallReplayed() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        let created = try await fhir.create(task("renew"))
        try await emulator.control("koppeltaal2/expire-tokens")
        let read = try await fhir.read(KT2Task.self, id: try XCTUnwrap(created.resource.id))
        XCTAssertEqual(read, created)
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["token"] as? [String: Int])?["client_credentials"], 2)
    }

    func testTheR4FHIRClientOfTheBackendReadsWithItsTokenTraceHeadersAndRenewal() async throws {
        let backend = try await module()
        let created = try await Koppeltaal2FHIRClient(backend: backend).create(task("r4"))
        let id = try XCTUnwrap(created.resource.id)
        try await emulator.control("koppeltaal2/expire-tokens")
        let read = try await FHIRClient(backend).read("Task", id: id)
        let task = try XCTUnwrap(read.model(as: FHIRTask.self), "\(read)")
        XCTAssertEqual(task.status, .ready)
        XCTAssertEqual(task.identifier.first?.value, "r4")
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["token"] as? [String: Int])?["client_credentials"], 2, "renewed once after the 401")
        let reads = try XCTUnwrap(stats["trace"] as? [[String: Any]]).filter {
            ($0["path"] as? String)?.hasSuffix("/Task/\(id)") == true
        }
        XCTAssertEqual(reads.count, 2, "the refused read and its replay")
        XCTAssertTrue(reads.allSatisfy { $0["x_request_id"] is String }, "\(reads)")
    }

    func testAReplayedAssertionIsRefusedSoEachTokenRequestSignsAFreshOne() async throws {
        let backend = try await module()
        let first = try await backend.token()
        try await backend.tokens.invalidate(first)
        let second = try await backend.token()
        XCTAssertNotEqual(first, second)
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["assertions_refused"] as? [Any])?.count, 0, "no jti was sent twice")
        XCTAssertEqual((stats["jwks_fetches"] as? [String: Int])?["module-1"], 1, "the JWKS is cached")
    }

    func testASubscriptionsNotificationCarriesItsHeaderAndCorrelatesToTheUpdateThatTriggeredIt() async throws {
        let fhir = Koppeltaal2FHIRClient(backend: try await module())
        let receiver = KT2NotificationReceiver(header: "X-KTSubscription", value: "s3cret-UpdateTask")
        let subscription = KT2Subscription(
            meta: KT2Meta(profile: ["http://koppeltaal.nl/fhir/StructureDefinition/KT2Subscription"]),
            status: .requested,
            reason: "completed tasks", criteria: "Task?status=completed",
            channel: .init(
                endpoint: emulator.url("/_echo/notification").absoluteString, header: [receiver.channelHeader]))
        let created = try await fhir.create(subscription)
        XCTAssertFalse(String(describing: created).contains("s3cret"), "channel headers are redacted")

        let task = try await fhir.create(task("notify"))
        _ = try await fhir.update(
            task.resource.with(status: .completed), replacing: task, trace: KT2Trace(traceID: "trace-n"))
        var notifications: [[String: Any]] = []
        for _ in 0..<50 where notifications.isEmpty {
            try await Task.sleep(nanoseconds: 100_000_000)
            notifications = try await emulator.read("koppeltaal2/stats")["notifications"] as? [[String: Any]] ?? []
        }
        let notification = try XCTUnwrap(notifications.first)
        XCTAssertEqual(notifications.count, 1, "only the update to completed matches")
        XCTAssertEqual(notification["x_trace_id"] as? String, "trace-n")
        let stats = try await emulator.read("koppeltaal2/stats")
        let put = try XCTUnwrap(
            (stats["trace"] as? [[String: Any]])?.last { ($0["method"] as? String) == "PUT" })
        XCTAssertEqual(notification["x_correlation_id"] as? String, put["x_request_id"] as? String)
    }

    /// Registers portal-1 with the P-256 fixture key hosted by the emulator, and returns that key.
    private func portal() async throws -> JSONWebKey {
        let portalKey = try XCTUnwrap(
            try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == "test-p256" })
        let jwks = try JSONDecoder().decode(
            [String: [[String: String]]].self, from: try Koppeltaal2KeySet(keys: [portalKey]).document())
        let hosted = try await emulator.control("koppeltaal2/jwks", ["name": "portal-1", "jwks": jwks])
        try await emulator.control(
            "koppeltaal2/apps",
            ["client_id": "portal-1", "jwks_url": try XCTUnwrap(hosted["jwks_url"] as? String), "role": "portal"])
        return portalKey
    }

    /// Follows the browser from `url` until it is sent to the module's redirect URI.
    private func browse(_ url: URL) async throws -> URL {
        var next = url
        for _ in 0..<5 {
            let visited = try await emulator.visit(next)
            let location = try XCTUnwrap(visited, "no redirect from \(next)")
            if location.absoluteString.hasPrefix(Self.redirectURI) { return location }
            next = location
        }
        XCTFail("the browser never came back to the module")
        return next
    }

    private static let redirectURI = "https://module.example/shof/callback"

    func testASecondSignInWithTheSameLaunchIsRefusedByTheAuthService() async throws {
        let backend = try await module(redirectURIs: [Self.redirectURI])
        let portalKey = try await portal()
        try await Koppeltaal2ServerUnderTest(.emulator, reset: false).putPatient("p1", identifier: "p1@example.org")
        let form = try HTILaunchComposer(clientID: "portal-1", key: portalKey, algorithm: .es256).launch(
            HTILaunchContext(
                issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1", resource: "Task/t1"),
            to: try XCTUnwrap(URL(string: "https://module.example/launch")), fhirBaseURL: fhirBase)
        let launch = try await HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase, verification: .signIn)
        ).receive(form.fields)
        let signIn = SHOFSignIn(backend: backend, redirectURI: Self.redirectURI, requestSealing: try .testSealing())
        let first = try await signIn.start(launch)
        _ = try await signIn.finish(try await browse(first.url), pending: first.pending)
        let second = try await signIn.start(launch)
        let refused = try await emulator.visit(second.url)
        XCTAssertNil(refused, "the auth service answers the browser itself: the launch token is spent")
    }

    func testAModuleValidatesAPortalsLaunchByIntrospectionOnce() async throws {
        let backend = try await module()
        let portalKey = try XCTUnwrap(
            try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == "test-p256" })
        let jwks = try JSONDecoder().decode(
            [String: [[String: String]]].self, from: try Koppeltaal2KeySet(keys: [portalKey]).document())
        let hosted = try await emulator.control("koppeltaal2/jwks", ["name": "portal-1", "jwks": jwks])
        try await emulator.control(
            "koppeltaal2/apps",
            ["client_id": "portal-1", "jwks_url": try XCTUnwrap(hosted["jwks_url"] as? String), "role": "portal"])
        let composer = try HTILaunchComposer(clientID: "portal-1", key: portalKey, algorithm: .es256)
        let context = HTILaunchContext(
            issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1", resource: "Task/t1")
        let form = try composer.launch(
            context, to: try XCTUnwrap(URL(string: "https://module.example/launch")), fhirBaseURL: fhirBase)
        let receiver = HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase,
                verification: .introspection(backend)))
        let launch = try await receiver.receive(form.fields)
        XCTAssertEqual(launch.context, context)

        // Another instance with a store of its own: the auth service itself refuses the second use.
        let other = HTILaunchReceiver(configuration: receiver.configuration.replacingReplayStore())
        do {
            _ = try await other.receive(form.fields)
            XCTFail("an introspected launch token is spent")
        } catch let error as HTILaunchError {
            XCTAssertEqual(error.code, .inactive)
        }
        let stats = try await emulator.read("koppeltaal2/stats")
        XCTAssertEqual((stats["introspections"] as? [Any])?.count, 2)
        XCTAssertEqual((stats["assertions_refused"] as? [Any])?.count, 0, "the assertion's aud is the token endpoint")
    }
}

extension HTILaunchReceiver.Configuration {
    fileprivate func replacingReplayStore() -> Self {
        var copy = self
        copy.replayStore = InMemoryHTIReplayStore()
        return copy
    }
}

/// Removes an update's `If-Match` (nil) or replaces it, as a proxy on the way might.
private struct IfMatchRewriter: HTTPClientMiddleware {
    let replacement: String?

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        var request = request
        if request.headers["If-Match"] != nil { request.headers["If-Match"] = replacement }
        return try await next(request)
    }
}

/// Before each update of a Task, another application updates it first, so the update meets a newer version.
private final class RacingWriter: HTTPClientMiddleware {
    let bystander: Koppeltaal2FHIRClient
    let updates = LockedValue(0)

    init(bystander: Koppeltaal2FHIRClient) { self.bystander = bystander }

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        if request.method == .put, let id = request.url.pathComponents.last {
            updates.withValue { $0 += 1 }
            let current = try await bystander.read(KT2Task.self, id: id)
            _ = try await bystander.update(current.resource, replacing: current)
        }
        return try await next(request)
    }
}
