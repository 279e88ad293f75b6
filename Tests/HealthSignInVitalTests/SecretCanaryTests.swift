import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInVital

/// Vital sign-in run with canary secrets (team key, sign-in token, access and refresh tokens, the API key of API-key
/// mode): none shows in the SDK's state, results, errors, events or logs, and the file store keeps them only where
/// they belong, readable by the owner.
final class SecretCanaryTests: XCTestCase {
    private static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    /// The Vital API and auth hosts in one: the third token redemption says the user is gone, so that the
    /// automatic sign-out is checked too.
    private static func server(signInToken: String) -> RecordingTransport {
        let userID = SignInTokenTests.userID.uuidString.lowercased()
        let generation = LockedValue(0)
        return RecordingTransport { request in
            let path = request.url.path
            if path.hasSuffix("/sign_in_token") {
                return Self.json(200, #"{"user_id": "\#(userID)", "sign_in_token": "\#(signInToken)"}"#)
            }
            if path.hasSuffix("/v2/user") {
                return Self.json(200, #"{"user_id": "\#(userID)", "client_user_id": "alice"}"#)
            }
            guard path.hasSuffix("/v1/token") else { return Self.json(200, #"{"providers": []}"#) }
            let next: Int = generation.withValue { count -> Int in
                count += 1
                return count
            }
            guard next < 3 else {
                return Self.json(401, #"{"error": "invalid_grant", "detail": {"error_type": "invalid_token"}}"#)
            }
            let access: String = SecretCanary.named("access-\(next)")
            let refresh: String = SecretCanary.named("refresh-\(next)")
            return Self.json(
                200, #"{"access_token": "\#(access)", "refresh_token": "\#(refresh)", "expires_in": 3600}"#)
        }
    }

    func testNoSecretShowsAnywhere() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("canary-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileCredentialStore(directory: directory)
        let log = LogCapture()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let signInToken = try VitalSessionTests.forgedToken(uid: SignInTokenTests.userID.uuidString.lowercased())
        let jwt = try VitalSignInToken(signInToken).userToken
        let secrets = [signInToken, jwt]
        let transport = Self.server(signInToken: signInToken)
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey(SecretCanary.named("team-key")), environment: .sandboxUS, transport: transport,
                logger: log))
        let core = VitalSession(configuration: .init(store: store, transport: transport, clock: clock, logger: log))
        let events = core.events()

        let grant = try await backend.signInToken(forClientUserID: "alice")
        let parsed = try VitalSignInToken(grant.signInToken)
        try await core.signIn(token: grant.signInToken)
        try SecretCanary.assertStoredOnlyUnder(
            ["accessToken", "refreshToken"], in: store.fileURL(for: core.storeKey), also: secrets)
        clock.advance(by: 3_600)
        _ = try await core.connectedProviders()
        let state = try await XCTUnwrapAsync(try await store.recordedState(VitalStoredState.self, for: core.storeKey))
        clock.advance(by: 3_600)
        var thrown: [any Error] = []
        do { _ = try await core.connectedProviders() } catch { thrown.append(error) }
        do { try await core.signIn(token: "not a token " + SecretCanary.value) } catch { thrown.append(error) }

        try await core.configure(apiKey: SecretCanary.named("api-key"), environment: .sandbox, region: .us)
        try await core.setUserID(SignInTokenTests.userID)
        _ = try await core.connectedProviders()
        try SecretCanary.assertStoredOnlyUnder(["apiKey"], in: store.fileURL(for: core.storeKey), also: secrets)
        let apiKeyState = try await XCTUnwrapAsync(
            try await store.recordedState(VitalStoredState.self, for: core.storeKey))

        var received: [VitalEvent] = []
        for await event in events {
            received.append(event)
            if received.count == 4 { break }
        }
        XCTAssertEqual(thrown.count, 2)
        await SecretCanary.assertHidden(
            [grant, parsed, state, apiKeyState, try core.status, received] + thrown + transport.requests,
            also: secrets
        )
        SecretCanary.assertHidden(in: log, also: secrets)
    }
}
