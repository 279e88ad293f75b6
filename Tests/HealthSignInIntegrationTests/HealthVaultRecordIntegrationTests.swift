import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Record calls, deauthorization and every Shell return against the in-process HealthVault server, which checks
/// message times, header order, signatures, the offline person and the record's authorization, and keeps things per
/// record, as the emulator does.
final class HealthVaultRecordIntegrationTests: XCTestCase {
    private static let master = HealthVaultTestServer.masterApplicationID
    private static let weightType = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!
    /// A thing's XML with what re-serializing would change: single quotes, a character reference, a namespace,
    /// attribute order and whitespace.
    private static let weightXML = """
        <weight xmlns:x='urn:example' x:note="a &#x41; b"  units='kg'>\n  <when><date><y>2017</y><m>8</m><d>10</d>\
        </date></when><value><kg>81.6</kg><display units="lb">180</display></value></weight><common><note>Tom &amp; \
        Jerry</note></common>
        """
    private var server: HealthVaultTestServer!

    override func setUp() async throws {
        server = HealthVaultTestServer()
    }

    private func connection(actionURL: URL? = nil, logger: (any LogSink)? = nil) -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: server.platformURL(), defaultShellURL: server.shellURL(),
                store: InMemoryCredentialStore(), actionURL: actionURL,
                client: .init(
                    transport: server.transport, envelope: .init(clientVersion: "HV-Swift/test"), logger: logger)
            ))
    }

    private func connected(logger: (any LogSink)? = nil) async throws -> HealthVaultConnection {
        let connection = connection(logger: logger)
        let page = try await connection.provision(masterAppID: Self.master)
        try await connection.authorize(page, with: server.browser(.approve))
        return connection
    }

    /// Opens a Shell page as the user would, consenting, and returns where it ends.
    private func visit(_ page: URL) async throws -> URL? {
        try await TestUserBrowser.visit(page, through: server.transport)
    }

    private func calls(_ method: HealthVaultTestServer.Operation) async throws -> Int {
        server.ledger.count(method)
    }

    private static func put(_ calls: HealthVaultRecordCalls) async throws -> PutThings2.Response {
        try await calls.send { client, session, record in
            let thing = PendingThing(typeID: Self.weightType, dataXML: try XMLFragment(wellFormed: Self.weightXML))
            return try await client.putThings2(.init(thing: [thing]), recordID: record, session: session)
        }
    }

    private static func get(_ calls: HealthVaultRecordCalls, _ keys: PutThings2.Response) async throws -> [Thing] {
        try await calls.send { client, session, record in
            let query = GetThings3.QueryGroup(id: keys.thingID.map(\.id), format: .init(section: [.core], xml: [""]))
            return try await client.getThings3(.init(group: [query]), recordID: record, session: session)
        }.group.flatMap(\.thing)
    }

    func testProvisionShellPeopleWriteReadAndDeauthorize() async throws {
        let connection = try await connected()
        let people = try await connection.people()
        XCTAssertEqual(people.count, 3)
        let records = people.flatMap(\.records)
        await XCTAssertEqualAsync(try await connection.selectedRecord(), records.first)

        let things = try await connection.withRecord { calls in try await Self.get(calls, try await Self.put(calls)) }
        XCTAssertEqual(things.count, 1)
        XCTAssertEqual(things.first?.dataXML?.text, Self.weightXML, "the thing's XML comes back byte for byte")

        let disconnection = try await connection.disconnect()
        XCTAssertEqual(Set(disconnection.releasedRecords), Set(records))
        XCTAssertTrue(disconnection.releasedEveryRecord)
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned)
        XCTAssertEqual(
            server.releasedAuthorizations.map(\.recordID).sorted(), records.map(\.id.wireText).sorted(),
            "the server removed every authorization")
        XCTAssertEqual(server.authorizedRecords.values.flatMap { $0 }, [])
    }

    func testAnExpiredSessionInAMultiRequestClosureReplaysOnlyTheFailedRequest() async throws {
        let connection = try await connected()
        let server = server!
        let things = try await connection.withRecord { calls in
            let keys = try await Self.put(calls)
            server.expireSessions()
            return try await Self.get(calls, keys)
        }
        XCTAssertEqual(things.count, 1)
        await XCTAssertEqualAsync(try await calls(.putThings), 1, "the write that succeeded is not sent again")
        await XCTAssertEqualAsync(try await calls(.getThings), 2, "the read met 65 and was sent again")
        await XCTAssertEqualAsync(try await calls(.createAuthenticatedSessionToken), 2)
        XCTAssertEqual(server.storedThings, 1, "one thing stored")
    }

    // MARK: - Every thing of a query, and writes with version stamps

    private static let weights = GetThings3.QueryGroup(
        filter: [.init(typeID: [weightType])], format: .init(section: [.core], xml: [""]))

    /// Creates 503 weights, as in .NET's paging test data (240 full things and 263 keys), the i-th weighing i kg.
    private static func create503(_ connection: HealthVaultConnection) async throws -> [ThingKey] {
        let things = try (0..<503).map { index in
            PendingThing(
                typeID: weightType,
                dataXML: try XMLFragment(wellFormed: "<weight><value><kg>\(index)</kg></value></weight>"))
        }
        return try await connection.withRecord { try await $0.create(things) }
    }

    /// The kilograms each thing of `batches` weighs, by thing id.
    private static func kilograms(_ batches: [HealthVaultThingBatch]) -> [UUID: String] {
        Dictionary(
            batches.flatMap(\.things).map { thing in
                let text = thing.dataXML?.text ?? ""
                let kg = text.components(separatedBy: "<kg>").last?.components(separatedBy: "</kg>").first ?? ""
                return (thing.thingID.id, kg)
            }, uniquingKeysWith: { first, _ in first })
    }

    func testEveryThingOfAQueryIsReadInThreeCallsAndCreatedKeysFollowTheThingsSent() async throws {
        let connection = try await connected()
        let keys = try await Self.create503(connection)
        XCTAssertEqual(keys.count, 503)
        let before = try await calls(.getThings)
        var batches: [HealthVaultThingBatch] = []
        for try await batch in connection.things(Self.weights) { batches.append(batch) }

        XCTAssertEqual(batches.map(\.things.count), [240, 240, 23])
        XCTAssertEqual(batches.flatMap(\.unresolved), [])
        await XCTAssertEqualAsync(try await calls(.getThings) - before, 3)
        let kilograms = Self.kilograms(batches)
        XCTAssertEqual(kilograms.count, 503, "every thing once")
        XCTAssertEqual(keys.map { kilograms[$0.id] }, (0..<503).map { String($0) }, "the i-th key is the i-th thing")
        XCTAssertEqual(batches.first?.things.first.map { kilograms[$0.thingID.id] }, "502", "newest first")
    }

    func testAnExpiredSessionInTheSecondBatchSendsOnlyThatBatchAgain() async throws {
        let connection = try await connected()
        _ = try await Self.create503(connection)
        let before = try await calls(.getThings)
        var batches: [HealthVaultThingBatch] = []
        for try await batch in connection.things(Self.weights) {
            batches.append(batch)
            if batches.count == 1 { server.expireSessions() }
        }
        XCTAssertEqual(batches.map(\.things.count), [240, 240, 23])
        XCTAssertEqual(Self.kilograms(batches).count, 503)
        await XCTAssertEqualAsync(
            try await calls(.getThings) - before, 4, "the second batch met 65 and was sent again")
        await XCTAssertEqualAsync(try await calls(.createAuthenticatedSessionToken), 2)
    }

    func testAKeyWhoseThingChangedAfterTheFirstPageIsReported() async throws {
        let connection = try await connected()
        let keys = try await Self.create503(connection)
        var batches: [HealthVaultThingBatch] = []
        var changed: ThingKey?
        for try await batch in connection.things(Self.weights) {
            batches.append(batch)
            guard changed == nil else { continue }
            // The oldest thing is listed by key in the first page; it changes before its batch is fetched.
            let update = PendingThing(
                typeID: Self.weightType,
                dataXML: try XMLFragment(wellFormed: "<weight><value><kg>1000</kg></value></weight>"))
            changed = try await connection.withRecord { try await $0.update(keys[0], to: update) }
        }
        XCTAssertEqual(batches.flatMap(\.unresolved), [keys[0]], "its old version is reported, not dropped")
        XCTAssertEqual(batches.flatMap(\.things).count, 502)
    }

    /// A follow-up asks for things by key; a thing in its answer that it did not ask for (one not in the record at
    /// all, here) is not a result. It is dropped, and a warning that names no thing says how many were.
    func testAThingAFollowUpDidNotAskForIsDropped() async throws {
        let warnings = LockedValue<[LogEntry]>([])
        let connection = try await connected(
            logger: ClosureLogSink { entry in
                if entry.level == .warning { warnings.withValue { $0.append(entry) } }
            })
        let keys = try await connection.withRecord { calls in try await calls.create((0..<5).map(Self.weight)) }
        server.settings.maximumFullThings = 2
        server.settings.addsUnrequestedThing = true

        var batches: [HealthVaultThingBatch] = []
        for try await batch in connection.things(Self.weights) { batches.append(batch) }
        XCTAssertEqual(batches.map(\.things.count), [2, 2, 1])
        XCTAssertEqual(batches.flatMap(\.unresolved), [])
        XCTAssertEqual(
            Set(batches.flatMap(\.things).map(\.thingID.id)), Set(keys.map(\.id)), "only the record's things")

        let viaCalls = try await connection.withRecord { calls in
            var things: [Thing] = []
            for try await batch in calls.things(Self.weights) { things += batch.things }
            return things
        }
        XCTAssertEqual(Set(viaCalls.map(\.thingID.id)), Set(keys.map(\.id)))
        XCTAssertEqual(
            warnings.current.map(\.message),
            Array(
                repeating: "a GetThings follow-up answer held 1 thing(s) it did not ask for; they are dropped",
                count: 4))
        XCTAssertTrue(warnings.current.allSatisfy(\.isPublic))
    }

    /// The SDK asks for one group at a time, so an answer with more cannot say which group is the answer: it is
    /// refused rather than guessed at.
    func testAnAnswerWithMoreGroupsThanWereAskedForIsRefused() async throws {
        let connection = try await connected()
        _ = try await connection.withRecord { calls in try await calls.create([try Self.weight(70)]) }
        server.settings.addsExtraGroup = true
        await XCTAssertThrowsErrorAsync(
            try await {
                for try await _ in connection.things(Self.weights) {}
            }()
        ) { error in
            XCTAssertEqual(
                error as? ResponseDecodingError,
                ResponseDecodingError(path: "/info/group", reason: "the response has 2 result groups, 1 was asked for"))
        }
    }

    private static func weight(_ kg: Int) throws -> PendingThing {
        PendingThing(
            typeID: weightType, dataXML: try XMLFragment(wellFormed: "<weight><value><kg>\(kg)</kg></value></weight>"))
    }

    func testAStaleVersionStampIsATypedErrorAndModifyAppliesTheChangeToTheCurrentVersion() async throws {
        let connection = try await connected()
        let first = try await connection.withRecord { try await $0.create([try Self.weight(80)]) }[0]
        let second = try await connection.withRecord { try await $0.update(first, to: try Self.weight(81)) }
        XCTAssertEqual(second.id, first.id)
        XCTAssertNotEqual(second.versionStamp, first.versionStamp)

        await XCTAssertThrowsErrorAsync(
            try await connection.withRecord { try await $0.update(first, to: try Self.weight(82)) }
        ) { error in
            guard let changed = error as? HealthVaultThingChangedError else { return XCTFail("\(error)") }
            XCTAssertEqual(changed.thingID, first.id)
            XCTAssertEqual(changed.underlying.code, .versionStampMismatch)
        }
        let third = try await connection.withRecord { calls in
            try await calls.modify(first.id) { current in
                XCTAssertEqual(current.thingID, second, "the change is applied to the current version")
                return try Self.weight(83)
            }
        }
        let current = try await connection.withRecord { try await $0.currentVersion(of: first.id) }
        XCTAssertEqual(current?.thingID, third)
        XCTAssertEqual(current?.dataXML?.text, "<weight><value><kg>83</kg></value></weight>")
    }

    func testARemovedAuthorizationIsGoneFromThePeopleAndRefusesRecordCalls() async throws {
        let connection = try await connected()
        let record = try await XCTUnwrapAsync(try await connection.selectedRecord())
        try await connection.withRecord { calls in
            try await calls.send { try await $0.removeApplicationRecordAuthorization(recordID: $2, session: $1) }
        }
        await XCTAssertThrowsErrorAsync(
            try await connection.withRecord(record.id) { calls in
                try await calls.send { client, session, record in
                    try await client.getThings3(.init(group: [.init()]), recordID: record, session: session)
                }
            }
        ) {
            guard case .reauthorizationRequired? = $0 as? HealthVaultConnectionError else { return XCTFail("\($0)") }
        }
        let people = try await connection.refreshPeople()
        XCTAssertFalse(people.flatMap(\.records).contains(record))
        await XCTAssertEqualAsync(try await connection.selectedRecord()?.id == record.id, false, "another is selected")
    }

    func testAnAppAuthReturnWithOnlyTheTargetCompletes() async throws {
        let connection = try await connected()
        server.settings.appAuthReturnsOnlyTheTarget = true
        let page = try await connection.appAuthorizationURL()
        let completion = try await XCTUnwrapAsync(try await visit(page))
        XCTAssertFalse(completion.absoluteString.lowercased().contains("appid"), completion.absoluteString)
        let outcome = try await connection.completeAuthorization(redirect: completion)
        XCTAssertEqual(outcome.target, .appAuthSuccess)
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }

    func testAReturnToTheActionURLCompletes() async throws {
        let actionURL = URL(string: "myapp://healthvault/done")!
        server.settings.actionURL = actionURL.absoluteString
        let connection = connection(actionURL: actionURL)
        let page = try await connection.provision(masterAppID: Self.master)
        let completion = try await XCTUnwrapAsync(try await visit(page))
        XCTAssertEqual(completion.scheme, "myapp")
        guard case .completed = await connection.shellNavigation(to: completion) else {
            return XCTFail("not completed")
        }
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }
}
