import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInHealthVault

/// A connection run with canary secrets (application secret, creation token, session token and secret): none shows
/// in its state, status, errors or logs, and the file store keeps them only where they belong, readable by the owner.
final class SecretCanaryTests: XCTestCase {
    private static let applicationSecret = Data(SecretCanary.named("application").utf8).base64EncodedString()
    private static let sessionSecret = Data(SecretCanary.named("session").utf8).base64EncodedString()
    private static let secrets = [applicationSecret, sessionSecret]

    func testNoSecretShowsAnywhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCredentialStore(directory: directory)
        let fake = ConnectionTests.FakeHealthVault()
        fake.script(
            "NewApplicationCreationInfo",
            ConnectionTests.ok(
                "NewApplicationCreationInfo",
                """
                <app-id>\(ConnectionTests.child)</app-id><shared-secret>\(Self.applicationSecret)</shared-secret>\
                <app-token>\(SecretCanary.named("creation-token"))</app-token>
                """))
        fake.script(
            "CreateAuthenticatedSessionToken",
            ConnectionTests.ok(
                "CreateAuthenticatedSessionToken2",
                """
                <token>\(SecretCanary.named("session-token"))</token><shared-secret>\(Self.sessionSecret)</shared-secret>
                """))
        let log = LogCapture()
        let connection = HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: URL(string: "https://default.example/platform/wildcat.ashx")!,
                defaultShellURL: URL(string: "https://shell.default.example")!, store: store,
                client: .init(
                    transport: RecordingTransport { try fake.answer($0) }, envelope: .init(clientVersion: "test"),
                    logger: log)
            ))

        let shellPage = try await connection.provision(masterAppID: ConnectionTests.master)
        let awaiting = try await connection.status()
        let provisioned = try await XCTUnwrapAsync(
            try await store.recordedState(HealthVaultConnectionState.self, for: connection.storeKey))
        try SecretCanary.assertStoredOnlyUnder(
            ["applicationCreationToken", "sharedSecret"], in: store.fileURL(for: connection.storeKey),
            also: Self.secrets)
        try await connection.completeAuthorization(
            redirect: URL(
                string:
                    "https://shell.default.example/application/complete?appid=\(ConnectionTests.child)&target=AppAuthSuccess&instanceid=1"
            )!)
        _ = try await connection.withSession { client, session in try await client.getAuthorizedPeople(session: session)
        }
        fake.script("GetAuthorizedPeople", ConnectionTests.status(11))
        var thrown: (any Error)?
        do {
            _ = try await connection.withSession { client, session in
                try await client.getAuthorizedPeople(session: session)
            }
        } catch {
            thrown = error
        }

        let state = try await XCTUnwrapAsync(
            try await store.recordedState(HealthVaultConnectionState.self, for: connection.storeKey))
        XCTAssertTrue(
            shellPage.absoluteString.contains("canary-secret-creation-token"), "the Shell page must carry the token")
        SecretCanary.assertHidden(
            [
                awaiting, provisioned, try await connection.status(), state, state.application,
                try XCTUnwrap(state.session), try XCTUnwrap(thrown),
            ],
            also: Self.secrets
        )
        SecretCanary.assertHidden(in: log, also: Self.secrets)
        try SecretCanary.assertStoredOnlyUnder(
            ["token", "sharedSecret"], in: store.fileURL(for: connection.storeKey), also: Self.secrets)
    }
}
