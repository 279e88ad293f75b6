import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Requests the generated Vital client sends, byte for byte, and the responses and errors it reads.
final class WireTests: XCTestCase {
    static let userID = UUID(uuidString: "6e5a3a8b-2f3c-4c5e-9a51-1f0c2b7d9e10")!

    private func client(answering status: Int = 200, _ fixture: String) throws -> (VitalAPIClient, RecordingTransport) {
        let body = try Fixtures.data("Vital/" + fixture)
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: body)
        }
        let servers = VitalAPIClient.Servers(
            api: URL(string: "https://api.sandbox.us.junction.com"),
            auth: URL(string: "https://auth.sandbox.us.junction.com")
        )
        return (VitalAPIClient(configuration: .init(servers: servers, transport: transport)), transport)
    }

    private func sent(_ transport: RecordingTransport) throws -> String {
        HTTPText.render(try XCTUnwrap(transport.requests.last))
    }

    func testCreateUser() async throws {
        let (client, transport) = try client("CreateUser/response.json")
        let response = try await client.createUser(
            .init(
                clientUserID: "user-42", fallbackTimeZone: "Europe/Amsterdam",
                fallbackBirthDate: LocalDate(year: 1990, month: 5, day: 17)),
            apiKey: APIKey("sk_us_test")
        )
        XCTAssertEqual(try sent(transport), try Fixtures.text("Vital/CreateUser/request.http"))
        XCTAssertEqual(response.userID, Self.userID)
        XCTAssertEqual(response.clientUserID, "user-42")
    }

    func testCreateUserConflictCarriesTheExistingUser() async throws {
        let (client, _) = try client(answering: 400, "CreateUser/error.json")
        do {
            _ = try await client.createUser(.init(clientUserID: "user-42"), apiKey: APIKey("sk_us_test"))
            XCTFail("expected an error")
        } catch let error as VitalError {
            XCTAssertEqual(error.code, .invalidRequestUppercase)
            XCTAssertEqual(error.body.detail.userID, Self.userID)
            XCTAssertEqual(error.body.detail.createdOn, DateTimeText.parse("2025-09-29T10:11:12.345678+00:00"))
            XCTAssertEqual(error.message, "Client user id already exists.")
            XCTAssertEqual(error.httpStatus, 400)
        }
    }

    func testValidationErrorArrayIsUnexpectedResponse() async throws {
        let (client, _) = try client(answering: 422, "CreateUser/error-validation.json")
        do {
            _ = try await client.createUser(.init(clientUserID: ""), apiKey: APIKey("sk_us_test"))
            XCTFail("expected an error")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.status, 422)
            XCTAssertFalse(error.isTransient)
        }
    }

    func testAPathParameterCannotClimbOutOfItsPath() async throws {
        let (client, transport) = try client("CreateUser/response.json")
        for (clientUserID, path) in [
            ("..", "/v2/user/resolve/%2E%2E"), (".", "/v2/user/resolve/%2E"),
            ("../../x", "/v2/user/resolve/..%2F..%2Fx"),
        ] {
            _ = try? await client.resolveUser(.init(clientUserID: clientUserID), apiKey: APIKey("sk_us_test"))
            let url = try XCTUnwrap(transport.requests.last?.url)
            XCTAssertEqual(url.absoluteString, "https://api.sandbox.us.junction.com" + path)
            XCTAssertEqual(
                url.standardized.absoluteString, url.absoluteString, "\(clientUserID) must survive normalization")
        }
    }

    func testLogRecordsKeepThePathPrivate() async throws {
        let body = try Fixtures.data("Vital/CreateUser/response.json")
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: 200, headers: ["Content-Type": "application/json"], body: body)
        }
        let log = LogCapture()
        let client = VitalAPIClient(
            configuration: .init(
                servers: .init(api: URL(string: "https://api.sandbox.us.junction.com")), transport: transport,
                logger: log
            ))
        _ = try? await client.resolveUser(.init(clientUserID: "user-42"), apiKey: APIKey("sk_us_test"))
        let records = log.records.map { "\($0.isPublic ? "public" : "private"): \($0.message)" }
        XCTAssertEqual(
            records,
            [
                "private: ResolveUser → GET https://api.sandbox.us.junction.com/v2/user/resolve/user-42",
                "public: ResolveUser ← HTTP 200",
            ])
        // The server and the status are the SDK's to print; the path names the user.
        XCTAssertEqual(
            log.records.map(\.content.redactedText),
            ["ResolveUser → GET https://api.sandbox.us.junction.com<private>", "ResolveUser ← HTTP 200"])
    }

    func testCreateSignInToken() async throws {
        let (client, transport) = try client("CreateSignInToken/response.json")
        let response = try await client.createSignInToken(.init(userID: Self.userID), apiKey: APIKey("sk_us_test"))
        XCTAssertEqual(try sent(transport), try Fixtures.text("Vital/CreateSignInToken/request.http"))
        XCTAssertEqual(response.signInToken, "XYZ==")
        XCTAssertFalse(String(describing: response).contains("XYZ"))
    }

    func testExchangeSignInToken() async throws {
        let (client, transport) = try client("ExchangeSignInToken/response.json")
        let jwt = "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiI2ZTVhIn0.c2ln"
        let response = try await client.exchangeSignInToken(.init(subjectToken: jwt))
        XCTAssertEqual(try sent(transport), try Fixtures.text("Vital/ExchangeSignInToken/request.http"))
        XCTAssertEqual(
            response, TokenResponse(accessToken: "at-1", tokenType: "Bearer", expiresIn: 3600, refreshToken: "rt-1"))
    }

    func testRefreshTokenAcceptsExpiresInAsString() async throws {
        let (client, transport) = try client("RefreshToken/response.json")
        let response = try await client.refreshToken(.init(refreshToken: "rt-1+x/y="))
        XCTAssertEqual(try sent(transport), try Fixtures.text("Vital/RefreshToken/request.http"))
        XCTAssertEqual(response.expiresIn, 3600)
    }

    func testTokenEndpointErrorsAreTyped() async throws {
        let cases: [(String, Int, VitalErrorType, ErrorRecovery)] = [
            ("ExchangeSignInToken/error.json", 401, .invalidToken, .discardGrant),
            ("RefreshToken/error.json", 400, .reauthenticationRequired, .reauthorize),
        ]
        for (fixture, status, type, recovery) in cases {
            let (client, _) = try client(answering: status, fixture)
            do {
                _ = try await client.refreshToken(.init(refreshToken: "rt"))
                XCTFail("expected an error")
            } catch let error as VitalError {
                XCTAssertEqual(error.code, type, fixture)
                XCTAssertEqual(error.recovery, recovery, fixture)
            }
        }
    }

    func testUnknownErrorTypeStaysOpen() throws {
        let body = try JSONCoding.decode(
            VitalErrorBody.self, from: Data(#"{"detail":{"error_type":"rate_limited"}}"#.utf8))
        XCTAssertEqual(
            VitalError(body: body, httpStatus: 429, operation: "RefreshToken").code, .unknown("rate_limited"))
    }
}
