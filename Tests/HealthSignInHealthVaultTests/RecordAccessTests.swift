import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// What a connection learns after authorization (the people and their records), the selected record, and record
/// calls: each carries the record and the person, and a request that meets an expired session is the only one sent
/// again.
final class RecordAccessTests: XCTestCase {
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    private let server = FakeHealthVaultServer()
    private let store = InMemoryCredentialStore()

    private func connection() -> HealthVaultConnection {
        let server = server
        return HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: FakeHealthVaultServer.platformURL, defaultShellURL: FakeHealthVaultServer.shellURL,
                store: store,
                client: .init(
                    transport: RecordingTransport { server.answer($0) }, envelope: .init(clientVersion: "test"))
            ))
    }

    private func connected() async throws -> HealthVaultConnection {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        try await connection.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
        return connection
    }

    func testAuthorizationLearnsThePeopleAndSelectsTheirRecord() async throws {
        let connection = try await connected()
        let record = HealthVaultRecordSummary(
            id: FakeHealthVaultServer.recordID, name: "Jane", personID: FakeHealthVaultServer.personID)
        await XCTAssertEqualAsync(
            try await connection.people(),
            [HealthVaultPerson(id: FakeHealthVaultServer.personID, name: "A", records: [record])])
        await XCTAssertEqualAsync(try await connection.selectedRecord(), record)
        XCTAssertEqual(server.count("GetAuthorizedPeople"), 1)
        // Another instance reads them from the store.
        await XCTAssertEqualAsync(try await self.connection().selectedRecord(), record)
        XCTAssertEqual(server.count("GetAuthorizedPeople"), 1, "stored, not fetched again")
        await XCTAssertThrowsErrorAsync(try await connection.selectRecord(UUID())) {
            guard case .unknownRecord? = $0 as? HealthVaultConnectionError else { return XCTFail("\($0)") }
        }
    }

    func testARecordCallCarriesTheRecordAndThePerson() async throws {
        let connection = try await connected()
        let groups = try await connection.withRecord { calls in
            try await calls.send { client, session, record in
                try await client.getThings3(.init(group: [.init(format: .init())]), recordID: record, session: session)
            }
        }
        XCTAssertEqual(
            groups.group.first?.name, "q", "the fake answers only a request naming the record and the person")
    }

    func testAnExpiredSessionSendsOnlyTheFailedRequestAgain() async throws {
        let connection = try await connected()
        let server = server
        try await connection.withRecord { calls in
            let query = GetThings3.Request(group: [.init(format: .init())])
            _ = try await calls.send { try await $0.getThings3(query, recordID: $2, session: $1) }
            server.expireSessions()
            _ = try await calls.send { try await $0.getThings3(query, recordID: $2, session: $1) }
        }
        XCTAssertEqual(server.count("GetThings"), 3, "the first request once, the second twice (65, then renewed)")
        XCTAssertEqual(server.count("CreateAuthenticatedSessionToken"), 2)
    }

    func testTheSessionRequestSaysWhetherTheAppIsMultiRecord() async throws {
        for isMultiRecordApp in [true, false] {
            let server = FakeHealthVaultServer()
            let transport = RecordingTransport { server.answer($0) }
            let connection = HealthVaultConnection(
                configuration: .init(
                    defaultPlatformURL: FakeHealthVaultServer.platformURL,
                    defaultShellURL: FakeHealthVaultServer.shellURL,
                    store: InMemoryCredentialStore(), isMultiRecordApp: isMultiRecordApp,
                    client: .init(transport: transport)
                ))
            _ = try await connection.provision(masterAppID: Self.master)
            try await connection.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
            let session = try XCTUnwrap(
                transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
                    .first { $0.contains("<method>CreateAuthenticatedSessionToken</method>") })
            let child = FakeHealthVaultServer.applicationID(1).uuidString.lowercased()
            let appID = isMultiRecordApp ? #"<app-id is-multi-record-app="true">"# : "<app-id>"
            XCTAssertTrue(session.contains("<info><auth-info>\(appID)\(child)</app-id>"), session)
        }
    }

    func testWithoutARecordRecordCallsSayWhy() async throws {
        let connection = connection()
        await XCTAssertThrowsErrorAsync(try await connection.withRecord { _ in () })
    }
}
