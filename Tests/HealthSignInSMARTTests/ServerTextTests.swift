import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import XCTest

/// What a server chose is never logged public, and members of a token response the SDK does not name show only by
/// name wherever the session's values are printed.
final class ServerTextTests: XCTestCase {
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    private func session(_ transport: any HTTPTransport, log: LogCapture, scope: String = "launch/patient openid")
        -> SMARTSession
    {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: FakeSMARTServer.fhirBaseURL, client: OAuthClientCredentials(clientID: "app"),
                    redirectURI: "app://cb"), scope: scope,
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport, logger: log),
                    clock: clock)))
    }

    func testUnknownTokenResponseMembersShowOnlyByName() async throws {
        let transport = RecordingTransport { request in
            switch request.url.path {
            case "/fhir/.well-known/smart-configuration":
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(
                        #"{"authorization_endpoint": "https://ehr.example/auth/authorize", "token_endpoint": "https://ehr.example/auth/token"}"#
                            .utf8))
            default:
                return HTTPResponseMessage(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Data(
                        #"{"access_token": "at", "token_type": "Bearer", "expires_in": 900, "patient": "p1", "x_vendor_note": "vendor-canary-7", "x_nested": {"mrn": "mrn-canary-8"}}"#
                            .utf8))
            }
        }
        let session = session(transport, log: LogCapture(), scope: "launch/patient")
        let url = try await session.standaloneAuthorizationURL()
        let context = try await session.completeAuthorization(
            redirectURL: try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "c")))
        XCTAssertEqual(context.extensions["x_vendor_note"]?.stringValue, "vendor-canary-7", "kept for the app")
        let status = try await session.status()
        let stored = try await session.oauth.credentials.current()
        let grant = try XCTUnwrap(stored?.grant)
        for value in [context, status, grant] as [Any] {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [String(describing: value), String(reflecting: value), dumped] {
                XCTAssertFalse(text.contains("canary"), text)
                XCTAssertTrue(text.contains("x_vendor_note"), text)
            }
        }
    }

    func testARefusedIDTokenIsLoggedOnlyPrivately() async throws {
        let provider = FakeOpenIDProvider(issuer: FakeSMARTServer.issuer, clientID: "app", clock: clock)
        provider.settings.withValue { $0.signInClaims["iss"] = "https://ehr.example/fhir/issuer-canary" }
        let server = FakeSMARTServer(openID: provider)
        let log = LogCapture()
        let session = session(RecordingTransport { server.answer($0) }, log: log)
        let url = try await session.standaloneAuthorizationURL()
        provider.authorize(url, code: "ac-alice")
        await XCTAssertThrowsErrorAsync(
            try await session.completeAuthorization(
                redirectURL: try XCTUnwrap(FakeSMARTServer.redirect(for: url, code: "ac-alice")))
        ) { error in
            guard case .issuerMismatch = (error as? SignInError)?.idTokenError else { return XCTFail("\(error)") }
        }
        XCTAssertTrue(log.records.contains { $0.message.contains("issuer-canary") }, "the refusal is logged")
        for record in log.records where record.isPublic {
            XCTAssertFalse(record.message.contains("canary"), record.message)
        }
        // The status is the SDK's to print; what the server wrote is not.
        XCTAssertTrue(log.records.contains { $0.isPublic && $0.message == "RequestToken ← HTTP 200" })
    }
}
