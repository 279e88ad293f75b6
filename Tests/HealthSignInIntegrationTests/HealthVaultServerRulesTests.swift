import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The in-process HealthVault server enforces the platform's rules that the SDK's requests must meet, as the emulator
/// does, so a request that broke one would be caught: each test bends one rule on the way out and checks the status
/// that comes back.
final class HealthVaultServerRulesTests: XCTestCase {
    private static let master = HealthVaultTestServer.masterApplicationID
    private var server: HealthVaultTestServer!

    override func setUp() async throws {
        server = HealthVaultTestServer()
    }

    /// A connection whose request bodies pass through `rewrite` (applied to the body text).
    private func connection(_ rewrite: @escaping @Sendable (String) -> String = { $0 }) -> HealthVaultConnection {
        let transport = RewritingTransport(through: server.transport) { request in
            var request = request
            request.body = request.body.map { Data(rewrite(String(decoding: $0, as: UTF8.self)).utf8) }
            return request
        }
        return connection(transport: transport)
    }

    private func connection(transport: any HTTPTransport) -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: server.platformURL(), defaultShellURL: server.shellURL(),
                store: InMemoryCredentialStore(), client: .init(transport: transport)
            ))
    }

    private func connect(_ connection: HealthVaultConnection) async throws {
        let page = try await connection.provision(masterAppID: Self.master)
        try await connection.authorize(page, with: server.browser(.approve))
    }

    private func assertStatus(
        _ code: HealthVaultStatusCode, _ message: String, line: UInt = #line, _ call: () async throws -> Void
    ) async {
        do {
            try await call()
            XCTFail("expected status \(code)", line: line)
        } catch {
            var status = error as? HealthVaultError
            switch error as? HealthVaultConnectionError {
            case .reauthorizationRequired(_, let underlying)?, .reprovisionRequired(let underlying)?:
                status = underlying
            default: break
            }
            XCTAssertEqual(status?.code, code, "\(error)", line: line)
            XCTAssertEqual(status?.message, message, line: line)
        }
    }

    private static func replacing(_ pattern: String, with replacement: String) -> @Sendable (String) -> String {
        { $0.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression) }
    }

    func testHeaderElementsOutOfSchemaOrderAreInvalidXML() async throws {
        let swapped = Self.replacing("(<msg-time>[^<]*</msg-time>)(<msg-ttl>[^<]*</msg-ttl>)", with: "$2$1")
        await assertStatus(.invalidXML, "header element msg-time is out of schema order") {
            _ = try await self.connection(swapped).provision(masterAppID: Self.master)
        }
    }

    func testAHeaderWithoutVersionIsInvalidXML() async throws {
        await assertStatus(.invalidXML, "the header needs version") {
            _ = try await self.connection(Self.replacing("<version>[^<]*</version>", with: "")).provision(
                masterAppID: Self.master)
        }
    }

    func testAnUnboundedTimeToLiveIsInvalidXML() async throws {
        await assertStatus(.invalidXML, "msg-ttl must be between 0 and 3600 seconds") {
            _ = try await self.connection(Self.replacing("<msg-ttl>1800</msg-ttl>", with: "<msg-ttl>86400</msg-ttl>"))
                .provision(masterAppID: Self.master)
        }
    }

    func testAnotherAlgorithmIsABadSignature() async throws {
        let sha1 = Self.replacing(#"<hmac-data algName="HMACSHA256">"#, with: #"<hmac-data algName="HMACSHA1">"#)
        let connection = connection(sha1)
        try await connect(connection)
        await assertStatus(.badSig, "hmac-data must be HMACSHA256 and hash-data SHA256") {
            _ = try await connection.refreshPeople()
        }
        let castSHA1 = Self.replacing(#"<hmacSig algName="HMACSHA256">"#, with: #"<hmacSig algName="HMACSHA1">"#)
        await assertStatus(.badSig, "hmacSig must be HMACSHA256") { try await self.connect(self.connection(castSHA1)) }
    }

    func testASessionWorksOnlyOnTheInstanceThatCreatedIt() async throws {
        let otherInstance = RewritingTransport(through: server.transport) { [server] request in
            var request = request
            if String(decoding: request.body ?? Data(), as: UTF8.self).contains("<method>GetAuthorizedPeople</method>")
            {
                request.url = server?.platformURL(instance: "2") ?? request.url
            }
            return request
        }
        let connection = connection(transport: otherInstance)
        try await connect(connection)
        await assertStatus(.invalidToken, "unknown session token") { _ = try await connection.refreshPeople() }
    }

    func testASessionExpiresWithTimeAndIsRenewed() async throws {
        let connection = connection()
        try await connect(connection)
        server.settings.sessionLifetime = 600
        server.settings.skew = 1000
        server.settings.clockOffset = 700
        _ = try await connection.refreshPeople()
        XCTAssertEqual(
            server.ledger.count(.createAuthenticatedSessionToken), 2, "the session expired by time and was renewed")
        XCTAssertEqual(
            server.ledger.count(.getAuthorizedPeople), 5,
            "two pages at completion, a first page that met 65, two pages")
    }

    func testAnOfflinePersonMustBeAuthorized() async throws {
        let connection = connection()
        try await connect(connection)
        await assertStatus(.invalidPerson, "the offline person is not authorized for this application") {
            _ = try await connection.withRecord { calls in
                try await calls.send { client, session, record in
                    try await client.getThings3(
                        .init(group: [.init()]), recordID: record, session: session.acting(for: UUID()))
                }
            }
        }
    }

    // MARK: - GetThings paging and version stamps

    private static let weightType = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!

    /// Creates `count` weights in the selected record and returns their keys, oldest first.
    private func createWeights(_ count: Int, on connection: HealthVaultConnection) async throws -> [ThingKey] {
        let things = try (0..<count).map { _ in
            PendingThing(typeID: Self.weightType, dataXML: try XMLFragment(wellFormed: "<weight/>"))
        }
        return try await connection.withRecord { try await $0.create(things) }
    }

    private func query(_ group: GetThings3.QueryGroup, on connection: HealthVaultConnection) async throws
        -> GetThings3.ResultGroup
    {
        try await connection.withRecord { calls in
            try await calls.send { client, session, record in
                try await client.getThings3(.init(group: [group]), recordID: record, session: session)
            }.group[0]
        }
    }

    func testPastMaxFullAndTheServersOwnCapThingsComeBackAsKeys() async throws {
        let connection = connection()
        try await connect(connection)
        server.settings.maximumFullThings = 3
        let keys = try await createWeights(5, on: connection)
        let capped = try await query(.init(format: .init(section: [.core])), on: connection)
        XCTAssertEqual(capped.thing.count, 3, "the server's cap, whatever max-full asks")
        XCTAssertEqual(capped.unprocessedThingKeyInfo.map(\.thingID), Array(keys[0..<2].reversed()), "newest first")
        let asked = try await query(.init(max: 4, maxFull: 1, format: .init(section: [.core])), on: connection)
        XCTAssertEqual(asked.thing.count, 1)
        XCTAssertEqual(asked.unprocessedThingKeyInfo.count, 3, "max bounds full and partial things together")
    }

    func testAKeySelectsItsThingOnlyAtItsVersionStampAndIsORedWithTheFilters() async throws {
        let connection = connection()
        try await connect(connection)
        let keys = try await createWeights(2, on: connection)
        let update = PendingThing(typeID: Self.weightType, dataXML: try XMLFragment(wellFormed: "<weight/>"))
        let newer = try await connection.withRecord { try await $0.update(keys[0], to: update) }
        let format = GetThings3.Format(section: [.core])
        let stale = try await query(.init(key: [keys[0], keys[1]], format: format), on: connection)
        XCTAssertEqual(stale.thing.map(\.thingID), [keys[1]], "the old version of the first thing is not current")
        let current = try await query(.init(key: [newer], format: format), on: connection)
        XCTAssertEqual(current.thing.map(\.thingID), [newer])
        // A key with another type's filter: the key still selects its thing.
        let ored = try await query(
            .init(key: [newer], filter: [.init(typeID: [UUID()])], format: format), on: connection)
        XCTAssertEqual(ored.thing.map(\.thingID), [newer])
        await assertStatus(.invalidXML, "a key needs its version-stamp") {
            _ = try await self.query(.init(key: [ThingKey(id: keys[1].id)], format: format), on: connection)
        }
        await assertStatus(.versionStampMismatch, "the version-stamp is not the latest") {
            _ = try await connection.withRecord { calls in
                try await calls.send { client, session, record in
                    try await client.putThings2(
                        .init(thing: [.init(thingID: keys[0], typeID: Self.weightType)]), recordID: record,
                        session: session)
                }
            }
        }
    }
}
