import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The opt-in retry policy: reads are sent again after HTTP 5xx or status 1, waiting as `Retry-After` says; writes
/// and session creation never are.
final class RetryTests: XCTestCase {
    private static let session = HealthVaultSessionCredential(
        token: "token", sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
        personID: UUID(uuidString: "cc5e5771-4da7-4961-a758-d7714223d9ab")!)
    private static let record = UUID(uuidString: "9c863988-e2aa-440e-8c11-7ba4750ba4c8")!
    private static let failed = HTTPResponseMessage(
        status: 200,
        body: Data("<response><status><code>1</code><error><message>busy</message></error></status></response>".utf8))
    private static let serverError = HTTPResponseMessage(
        status: 500, headers: ["Retry-After": "3"], body: Data("<html/>".utf8))
    private static let things = HTTPResponseMessage(
        status: 200,
        body: Data(
            ("<response><status><code>0</code></status><wc:info xmlns:wc=\"urn:com.microsoft.wc.methods.response.GetThings3\">"
                + "<group name=\"q\" /></wc:info></response>").utf8))

    private let waits = LockedValue<[TimeInterval]>([])

    private func client(_ responses: [HTTPResponseMessage], retry: RequestRetryPolicy? = nil) -> (
        HealthVaultAPIClient, RecordingTransport
    ) {
        let waits = waits
        let transport = RecordingTransport(responses: responses)
        let policy =
            retry ?? RequestRetryPolicy(maxRetries: 2, sleep: { seconds in waits.withValue { $0.append(seconds) } })
        return (HealthVaultAPIClient(configuration: .init(transport: transport, retry: policy)), transport)
    }

    private func getThings(_ client: HealthVaultAPIClient) async throws -> GetThings3.Response {
        try await client.getThings3(.init(group: [.init(name: "q")]), recordID: Self.record, session: Self.session)
    }

    func testAReadIsSentAgainAfterStatus1AndHTTP500() async throws {
        let (client, transport) = client([Self.failed, Self.serverError, Self.things])
        let response = try await getThings(client)
        XCTAssertEqual(response.group.first?.name, "q")
        XCTAssertEqual(transport.requests.count, 3)
        XCTAssertEqual(waits.current, [0.5, 3], "the policy's delay, then what Retry-After asked")
    }

    /// Middlewares see which try each request is, so a tracing span tells a retry from a new call.
    func testMiddlewaresSeeTheAttemptNumber() async throws {
        let attempts = LockedValue<[Int]>([])
        let waits = waits
        let transport = RecordingTransport(responses: [Self.failed, Self.serverError, Self.things])
        let client = HealthVaultAPIClient(
            configuration: .init(
                transport: transport,
                retry: RequestRetryPolicy(maxRetries: 2, sleep: { seconds in waits.withValue { $0.append(seconds) } }),
                middlewares: [AttemptRecorder(attempts: attempts)]))
        _ = try await getThings(client)
        XCTAssertEqual(attempts.current, [1, 2, 3])
        XCTAssertEqual(OperationAttempt.number, 1, "outside a call, the first")
    }

    func testAtMostTwoRetries() async throws {
        let (client, transport) = client([Self.failed, Self.failed, Self.failed, Self.things])
        await XCTAssertThrowsErrorAsync(try await getThings(client)) {
            XCTAssertEqual(($0 as? HealthVaultError)?.code, .failed)
        }
        XCTAssertEqual(transport.requests.count, 3)
        XCTAssertEqual(waits.current, [0.5, 1.0])
        XCTAssertEqual(RequestRetryPolicy(maxRetries: 9).maxRetries, 2)
    }

    func testALongRetryAfterIsNotWaitedFor() async throws {
        let later = HTTPResponseMessage(status: 503, headers: ["Retry-After": "120"], body: Data())
        let (client, transport) = client([later, Self.things])
        await XCTAssertThrowsErrorAsync(try await getThings(client)) {
            XCTAssertEqual(($0 as? UnexpectedResponseError)?.status, 503)
        }
        XCTAssertEqual(transport.requests.count, 1)
        XCTAssertEqual(waits.current, [])
    }

    func testWritesAndSessionCreationAreNeverRepeated() async throws {
        let (writer, written) = client([Self.serverError, Self.things])
        await XCTAssertThrowsErrorAsync(
            try await writer.putThings2(
                .init(thing: [.init(typeID: Self.record, dataXML: try XMLFragment(wellFormed: "<x/>"))]),
                recordID: Self.record, session: Self.session))
        XCTAssertEqual(written.requests.count, 1)

        let (creator, created) = client([Self.failed, Self.things])
        let application = HealthVaultApplicationCredential(
            applicationID: Self.record, sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        await XCTAssertThrowsErrorAsync(try await creator.createAuthenticatedSessionToken(application: application))
        XCTAssertEqual(created.requests.count, 1)
        XCTAssertEqual(waits.current, [])
    }

    func testOffByDefault() async throws {
        let (client, transport) = client([Self.failed, Self.things], retry: HealthVaultAPIClient.Configuration().retry)
        await XCTAssertThrowsErrorAsync(try await getThings(client))
        XCTAssertEqual(transport.requests.count, 1)
    }

    func testAPermanentRefusalIsNotRetried() async throws {
        let denied = HTTPResponseMessage(
            status: 200,
            body: Data("<response><status><code>11</code><error><message>no</message></error></status></response>".utf8)
        )
        let (client, transport) = client([denied, Self.things])
        await XCTAssertThrowsErrorAsync(try await getThings(client))
        XCTAssertEqual(transport.requests.count, 1)
    }
}

/// Records the attempt number of every request it passes on.
private struct AttemptRecorder: HTTPClientMiddleware {
    let attempts: LockedValue<[Int]>

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        attempts.withValue { $0.append(OperationAttempt.number) }
        return try await next(request)
    }
}
