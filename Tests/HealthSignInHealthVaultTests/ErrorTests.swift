import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Status codes become typed errors with their numbers, names, messages and recovery.
final class ErrorTests: XCTestCase {
    private func client(status: Int = 200, body: Data) -> HealthVaultAPIClient {
        let transport = RecordingTransport { _ in HTTPResponseMessage(status: status, body: body) }
        return HealthVaultAPIClient(
            configuration: .init(
                transport: transport, clock: ManualClock(Date(timeIntervalSince1970: 0)),
                envelope: .init(clientVersion: "test")))
    }

    private let session = HealthVaultSessionCredential(
        token: "t", sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")

    func testSessionExpiredIs65WithRefreshRecovery() async throws {
        let client = client(body: try Fixtures.data("HealthVault/GetAuthorizedPeople/error.xml"))
        do {
            _ = try await client.getAuthorizedPeople(session: session)
            XCTFail("expected an error")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .authenticatedSessionTokenExpired)
            XCTAssertEqual(error.code.rawValue, 65)
            XCTAssertEqual(error.code.name, "AUTHENTICATED_SESSION_TOKEN_EXPIRED")
            XCTAssertEqual(error.recovery, .refreshCredential)
            XCTAssertEqual(error.message, "The authenticated session token has expired.")
            XCTAssertEqual(error.operation, "GetAuthorizedPeople")
            XCTAssertEqual(
                String(describing: error),
                "GetAuthorizedPeople failed: HealthVaultError 65 (AUTHENTICATED_SESSION_TOKEN_EXPIRED): The authenticated session token has expired. (HTTP 200)"
            )
        }
    }

    func testErrorContextIsDecoded() async throws {
        let client = client(body: try Fixtures.data("HealthVault/NewApplicationCreationInfo/error.xml"))
        do {
            _ = try await client.newApplicationCreationInfo(applicationID: UUID())
            XCTFail("expected an error")
        } catch let error as HealthVaultError {
            XCTAssertEqual(error.code, .badMethod)
            XCTAssertEqual(error.recovery, .fixRequest)
            XCTAssertEqual(error.body.error?.context?.serverIP, ["10.0.0.1", "10.0.0.2"])
            XCTAssertEqual(error.body.error?.errorInfo, "method-version")
        }
    }

    func testKnownCodesAndRecoveries() {
        XCTAssertEqual(HealthVaultStatusCode(rawValue: 11), .accessDenied)
        XCTAssertEqual(HealthVaultStatusCode.accessDenied.recovery, .reauthorize)
        XCTAssertEqual(HealthVaultStatusCode(rawValue: 6), .invalidApp)
        XCTAssertEqual(HealthVaultStatusCode.invalidApp.recovery, .reprovision)
        XCTAssertEqual(HealthVaultStatusCode(rawValue: 56).name, "DUPLICATE_APPLICATION_FOUND")
        XCTAssertEqual(HealthVaultStatusCode(rawValue: 136), .duplicateApplicationID)
        XCTAssertEqual(HealthVaultStatusCode(rawValue: 4242), .unknown(4242))
        XCTAssertEqual(HealthVaultStatusCode(rawValue: 4242).description, "4242 (unknown)")
        XCTAssertEqual(HealthVaultStatusCode.unknown(4242).recovery, .none)
    }

    func testARequestBreakingItsSchemaIsRefusedBeforeAnythingIsSent() async throws {
        let transport = RecordingTransport(responses: [])
        let client = HealthVaultAPIClient(
            configuration: .init(transport: transport, envelope: .init(clientVersion: "test")))
        let request = GetAuthorizedPeople.Request(parameters: .init(numResults: 0))
        await XCTAssertThrowsErrorAsync(try await client.getAuthorizedPeople(request, session: session)) { error in
            XCTAssertEqual(
                error as? SchemaValidationError,
                SchemaValidationError(path: "/parameters/num-results", requirement: "at least 1"))
            XCTAssertEqual(String(describing: error), "The value at /parameters/num-results must be at least 1")
        }
        XCTAssertEqual(transport.requests.count, 0)
        XCTAssertNoThrow(try GetAuthorizedPeople.Request(parameters: .init(numResults: 1)).validate())
        XCTAssertNoThrow(try GetAuthorizedPeople.Request().validate(), "an absent field passes")
    }

    func testHTTPFailureWithoutEnvelopeIsUnexpectedResponse() async {
        let client = client(status: 502, body: Data("<html><body>Bad gateway</body></html>".utf8))
        do {
            _ = try await client.getAuthorizedPeople(session: session)
            XCTFail("expected an error")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.status, 502)
            XCTAssertTrue(error.isTransient)
        } catch {
            XCTFail("unexpected \(error)")
        }
    }
}
