import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Disconnecting releases every authorized record (RemoveApplicationRecordAuthorization) before the local state is
/// erased, reports what it could not release, and erases in every case.
final class DisconnectTests: XCTestCase {
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    private static let record = HealthVaultRecordSummary(
        id: FakeHealthVaultServer.recordID, name: "Jane", personID: FakeHealthVaultServer.personID)

    /// How the network behaves for the next requests.
    private enum Network { case up, down, recordAlreadyReleased }

    private let server = FakeHealthVaultServer()
    private let store = InMemoryCredentialStore()
    private let network = LockedValue(Network.up)
    /// Whether the store still held the connection when each RemoveApplicationRecordAuthorization was sent.
    private let storedAtRelease = LockedValue<[Bool]>([])

    private func connected() async throws -> HealthVaultConnection {
        let (server, network, store, storedAtRelease) = (server, network, store, storedAtRelease)
        let transport = RecordingTransport { request in
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            let releasing = body.contains("<method>RemoveApplicationRecordAuthorization</method>")
            if releasing { storedAtRelease.withValue { $0.append(!store.keys.isEmpty) } }
            switch network.current {
            case .down: throw TransportError(.cannotConnect, url: request.url, detail: "offline")
            case .recordAlreadyReleased where releasing:
                let refusal =
                    "<response><status><code>58</code><error><message>gone</message></error></status></response>"
                return HTTPResponseMessage(status: 200, body: Data(refusal.utf8))
            case .up, .recordAlreadyReleased: return server.answer(request)
            }
        }
        let connection = HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: FakeHealthVaultServer.platformURL, defaultShellURL: FakeHealthVaultServer.shellURL,
                store: store, client: .init(transport: transport, envelope: .init(clientVersion: "test"))
            ))
        _ = try await connection.provision(masterAppID: Self.master)
        try await connection.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
        return connection
    }

    func testEveryRecordIsReleasedBeforeTheStateIsErased() async throws {
        let connection = try await connected()
        let outcome = try await connection.disconnect()
        XCTAssertEqual(outcome.releasedRecords, [Self.record])
        XCTAssertTrue(outcome.releasedEveryRecord)
        XCTAssertEqual(server.count("RemoveApplicationRecordAuthorization"), 1)
        XCTAssertEqual(storedAtRelease.current, [true], "released while the secrets were still stored")
        XCTAssertEqual(store.keys, [])
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned)
    }

    func testAnExpiredSessionIsRenewedToReleaseTheRecords() async throws {
        let connection = try await connected()
        server.expireSessions()
        let outcome = try await connection.disconnect()
        XCTAssertEqual(outcome.releasedRecords, [Self.record])
        XCTAssertEqual(server.count("CreateAuthenticatedSessionToken"), 2)
        XCTAssertEqual(store.keys, [])
    }

    func testOfflineTheStoredRecordsAreReportedAndTheStateIsErasedAnyway() async throws {
        let connection = try await connected()
        network.withValue { $0 = .down }
        let outcome = try await connection.disconnect()
        XCTAssertEqual(outcome.releasedRecords, [])
        XCTAssertEqual(outcome.unreleasedRecords.map(\.record), [Self.record], "the stored list names them")
        XCTAssertEqual((outcome.unreleasedRecords.first?.error as? TransportError)?.kind, .cannotConnect)
        XCTAssertNil(outcome.recordListingError)
        XCTAssertFalse(outcome.releasedEveryRecord)
        XCTAssertEqual(store.keys, [])
    }

    func testARecordNoLongerAuthorizedCountsAsReleased() async throws {
        let connection = try await connected()
        network.withValue { $0 = .recordAlreadyReleased }
        let outcome = try await connection.disconnect()
        XCTAssertEqual(outcome.releasedRecords, [Self.record], "status 58: nothing left to remove")
        XCTAssertTrue(outcome.releasedEveryRecord)
    }

    func testForgettingLocallySendsNothing() async throws {
        let connection = try await connected()
        let sent = server.calls.count
        let outcome = try await connection.disconnect(releasingRecords: false)
        XCTAssertEqual(server.calls.count, sent)
        XCTAssertTrue(outcome.releasedRecords.isEmpty && outcome.releasedEveryRecord)
        XCTAssertEqual(store.keys, [])
    }

    func testAnInstanceNeverAuthorizedHasNothingToRelease() async throws {
        let connection = HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: FakeHealthVaultServer.platformURL, defaultShellURL: FakeHealthVaultServer.shellURL,
                store: store, client: .init(transport: RecordingTransport { [server] in server.answer($0) })
            ))
        _ = try await connection.provision(masterAppID: Self.master)
        let outcome = try await connection.disconnect()
        XCTAssertEqual(server.calls, ["NewApplicationCreationInfo"])
        XCTAssertTrue(outcome.releasedEveryRecord)
        XCTAssertEqual(store.keys, [])
    }
}
