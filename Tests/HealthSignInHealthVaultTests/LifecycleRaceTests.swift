import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Interleavings of the connection lifecycle, each forced with a gated transport: provisioning twice at once,
/// disconnecting during authorization, a corrupt store, and two connections sharing one store.
final class LifecycleRaceTests: XCTestCase {
    private static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    private var server: FakeHealthVaultServer!
    private var transport: GatedTransport!
    private let store = InMemoryCredentialStore()

    override func setUp() {
        let server = FakeHealthVaultServer()
        self.server = server
        transport = GatedTransport { server.answer($0) }
    }

    private func connection() -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: FakeHealthVaultServer.platformURL, defaultShellURL: FakeHealthVaultServer.shellURL,
                store: store,
                client: .init(transport: transport, envelope: .init(clientVersion: "test"))
            ))
    }

    private static func calls(_ method: String) -> @Sendable (HTTPRequestMessage) -> Bool {
        { String(decoding: $0.body ?? Data(), as: UTF8.self).contains("<method>\(method)</method>") }
    }

    func testOverlappingProvisioningCreatesOneApplication() async throws {
        let connection = connection()
        let creation = transport.hold(Self.calls("NewApplicationCreationInfo"))
        let first = Task { [master = Self.master] in try await connection.provision(masterAppID: master) }
        _ = await creation.arrival()
        let second = Task { [master = Self.master] in try await connection.provision(masterAppID: master) }
        _ = await outcome(of: second, within: 0.5)
        creation.release()
        let page = try await first.value
        await XCTAssertEqualAsync(try await second.value, page)
        XCTAssertEqual(server.count("NewApplicationCreationInfo"), 1)
    }

    func testDisconnectDuringAuthorizationLeavesNothingStored() async throws {
        let connection = connection()
        _ = try await connection.provision(masterAppID: Self.master)
        let definition = transport.hold(Self.calls("GetServiceDefinition"))
        let completion = Task {
            try await connection.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
        }
        _ = await definition.arrival()
        let disconnection = Task { try await connection.disconnect() }
        _ = await outcome(of: disconnection, within: 0.5)
        definition.release()
        _ = await completion.result
        _ = try await disconnection.value
        XCTAssertEqual(store.keys, [], "the old secrets are not written back")
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned)
    }

    func testAnUndecodableStoredConnectionIsNotProvisionedAndNeverLocks() async throws {
        let connection = connection()
        try await store.write(Data(#"{"application": "#.utf8), for: connection.storeKey)
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned)
        try await connection.disconnect()
        XCTAssertEqual(store.keys, [])
        try await store.write(Data("not json".utf8), for: connection.storeKey)
        _ = try await connection.provision(masterAppID: Self.master)
        guard case .awaitingAuthorization = try await connection.status() else {
            return XCTFail("provisioning did not replace it")
        }
    }

    func testTwoConnectionsOnOneStoreShareARenewedSession() async throws {
        let first = connection()
        let second = connection()
        _ = try await first.provision(masterAppID: Self.master)
        try await first.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
        _ = try await second.withSession { client, session in try await client.getAuthorizedPeople(session: session) }
        server.expireSessions()
        _ = try await first.withSession { client, session in try await client.getAuthorizedPeople(session: session) }
        _ = try await second.withSession { client, session in try await client.getAuthorizedPeople(session: session) }
        XCTAssertEqual(
            server.count("CreateAuthenticatedSessionToken"), 2, "the second connection takes the stored session")
    }

    func testStatusesFollowProvisioningAuthorizationAndDisconnection() async throws {
        let connection = connection()
        var statuses = connection.statuses().makeAsyncIterator()
        await XCTAssertEqualAsync(await statuses.next(), .notProvisioned)
        let page = try await connection.provision(masterAppID: Self.master)
        await XCTAssertEqualAsync(await statuses.next(), .awaitingAuthorization(createApplicationURL: page))
        try await connection.completeAuthorization(redirect: FakeHealthVaultServer.completion(1))
        guard case .connected? = await statuses.next() else { return XCTFail("not connected") }
        try await connection.disconnect()
        await XCTAssertEqualAsync(await statuses.next(), .notProvisioned)
    }

    func testAnUnreadableStoredConnectionIsReported() async throws {
        let connection = connection()
        try await store.write(Data("{".utf8), for: connection.storeKey)
        var events = connection.events().makeAsyncIterator()
        await XCTAssertEqualAsync(try await connection.status(), .notProvisioned)
        await XCTAssertEqualAsync(await events.next(), .unreadableStoredValue)
    }
}
