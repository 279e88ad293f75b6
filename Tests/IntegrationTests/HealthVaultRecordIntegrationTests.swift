import Foundation
import HealthVault
import SDKRuntime
import TestSupport
import XCTest

/// Record calls, deauthorization and every Shell return against the emulator over 127.0.0.1, which checks message
/// times, header order, signatures, the offline person and the record's authorization, and keeps things per record.
final class HealthVaultRecordIntegrationTests: XCTestCase {
    private static let shared = Emulator.shared
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    private static let weightType = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!
    /// A thing's XML with what re-serializing would change: single quotes, a character reference, a namespace,
    /// attribute order and whitespace.
    private static let weightXML = """
        <weight xmlns:x='urn:example' x:note="a &#x41; b"  units='kg'>\n  <when><date><y>2017</y><m>8</m><d>10</d>\
        </date></when><value><kg>81.6</kg><display units="lb">180</display></value></weight><common><note>Tom &amp; \
        Jerry</note></common>
        """
    private var emulator: Emulator!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
    }

    private func connection(actionURL: URL? = nil) -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: emulator.url("/hv/1/platform/wildcat.ashx"),
                defaultShellURL: emulator.url("/hv/shell/1"),
                store: InMemoryCredentialStore(), actionURL: actionURL,
                client: .init(
                    urlPolicy: URLPolicy(allowsInsecureLoopback: true), envelope: .init(clientVersion: "HV-Swift/test"))
            ))
    }

    private func connected() async throws -> HealthVaultConnection {
        let connection = connection()
        let page = try await connection.provision(masterAppID: Self.master)
        try await connection.completeAuthorization(redirect: try await XCTUnwrapAsync(try await emulator.visit(page)))
        return connection
    }

    private func stats() async throws -> [String: Any] { try await emulator.read("healthvault/stats") }

    private func calls(_ method: String) async throws -> Int {
        (try await stats()["calls"] as? [String: Int])?[method] ?? 0
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
        let stats = try await stats()
        XCTAssertEqual(
            (stats["removed"] as? [[String]])?.map { $0[1] }.sorted(), records.map(\.id.wireText).sorted(),
            "the emulator removed every authorization")
        XCTAssertEqual((stats["authorizations"] as? [String: [String]])?.values.flatMap { $0 }, [])
    }

    func testAnExpiredSessionInAMultiRequestClosureReplaysOnlyTheFailedRequest() async throws {
        let connection = try await connected()
        let emulator = emulator!
        let things = try await connection.withRecord { calls in
            let keys = try await Self.put(calls)
            try await emulator.control("healthvault/expire-sessions")
            return try await Self.get(calls, keys)
        }
        XCTAssertEqual(things.count, 1)
        await XCTAssertEqualAsync(try await calls("PutThings"), 1, "the write that succeeded is not sent again")
        await XCTAssertEqualAsync(try await calls("GetThings"), 2, "the read met 65 and was sent again")
        await XCTAssertEqualAsync(try await calls("CreateAuthenticatedSessionToken"), 2)
        let stored = try await stats()["things"] as? [String: Int]
        XCTAssertEqual(stored?.values.reduce(0, +), 1, "one thing stored")
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
        try await emulator.control("healthvault", ["appauth_minimal_return": true])
        let page = try await connection.appAuthorizationURL()
        let completion = try await XCTUnwrapAsync(try await emulator.visit(page))
        XCTAssertFalse(completion.absoluteString.lowercased().contains("appid"), completion.absoluteString)
        let outcome = try await connection.completeAuthorization(redirect: completion)
        XCTAssertEqual(outcome.target, .appAuthSuccess)
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }

    func testAReturnToTheActionURLCompletes() async throws {
        let actionURL = URL(string: "myapp://healthvault/done")!
        try await emulator.control("healthvault", ["action_url": actionURL.absoluteString])
        let connection = connection(actionURL: actionURL)
        let page = try await connection.provision(masterAppID: Self.master)
        let completion = try await XCTUnwrapAsync(try await emulator.visit(page))
        XCTAssertEqual(completion.scheme, "myapp")
        guard case .completed = await connection.shellNavigation(to: completion) else {
            return XCTFail("not completed")
        }
        guard case .connected = try await connection.status() else { return XCTFail("not connected") }
    }
}
