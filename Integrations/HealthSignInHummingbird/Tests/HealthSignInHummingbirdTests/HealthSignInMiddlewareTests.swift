import Foundation
import HealthSignInHTTP
import HealthSignInHummingbird
import HealthSignInLogging
import HealthSignInTesting
import HealthSignInVital
import Hummingbird
import HummingbirdTesting
import Logging
import XCTest

/// A Hummingbird app whose routes call the SDK: SDK errors become responses chosen by their recovery, other errors
/// are the framework's, and the SDK's log lines carry the request's id.
final class HealthSignInMiddlewareTests: XCTestCase {
    private struct Failure: SDKError {
        let recovery: ErrorRecovery
        var description: String { "fhir.internal refused the grant" }
    }

    private let lines = CapturedLines()

    private func application(backend: VitalBackend? = nil) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: HealthSignInMiddleware())
        router.get("fail/:recovery") { _, context -> String in
            guard let recovery = ErrorRecovery(rawValue: try context.parameters.require("recovery")) else {
                throw HTTPError(.badRequest)
            }
            throw Failure(recovery: recovery)
        }
        router.get("timeout") { _, _ -> String in
            throw TransportError(.timedOut, url: URL(string: "https://fhir.internal/Patient/1"), detail: "30 s")
        }
        router.get("missing") { _, _ -> String in throw HTTPError(.notFound) }
        router.post("mint/:user") { _, context -> String in
            guard let backend else { throw HTTPError(.internalServerError) }
            let user = try context.parameters.require("user")
            return try await backend.signInToken(forClientUserID: user).signInToken
        }
        var logger = Logger(label: "server") { [lines] _ in CapturingHandler(lines: lines) }
        logger.logLevel = .debug
        return Application(router: router, logger: logger)
    }

    func testEachRecoveryIsItsStatusAndTheBodyKeepsTheDescriptionToTheLog() async throws {
        try await application().test(.router) { client in
            for recovery in ErrorRecovery.allCases {
                let expected = try XCTUnwrap(SDKErrorResponse(Failure(recovery: recovery)))
                try await client.execute(uri: "/fail/\(recovery.rawValue)", method: .get) { response in
                    XCTAssertEqual(Int(response.status.code), expected.status, "\(recovery)")
                    XCTAssertEqual(response.headers[.retryAfter], expected.retryAfter.map(String.init), "\(recovery)")
                    let body = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
                    XCTAssertEqual(body, ["error": expected.message, "recovery": recovery.rawValue])
                }
            }
            try await client.execute(uri: "/timeout", method: .get) { XCTAssertEqual($0.status, .gatewayTimeout) }
            try await client.execute(uri: "/missing", method: .get) { XCTAssertEqual($0.status, .notFound) }
        }
        let logged = lines.all.filter { $0.message.contains("fhir.internal") }
        XCTAssertEqual(logged.count, ErrorRecovery.allCases.count + 1, "each description once, in the server's log")
        XCTAssertTrue(logged.allSatisfy { $0.metadata["hb.request.id"] != nil })
    }

    func testTheSDKsLinesCarryTheRequestsID() async throws {
        let transport = RecordingTransport { request in
            let body =
                request.url.path.hasSuffix("/sign_in_token")
                ? #"{"user_id": "1b7d2f4c-6a3e-4d0f-9c55-2f0e8a1b3c4d", "sign_in_token": "token"}"#
                : #"{"user_id": "1b7d2f4c-6a3e-4d0f-9c55-2f0e8a1b3c4d", "client_user_id": "alice"}"#
            return HTTPResponseMessage(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let own = CapturedLines()
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_test"), environment: .sandboxUS, transport: transport,
                logger: SwiftLogSink(Logger(label: "sdk") { _ in CapturingHandler(lines: own) })))
        try await application(backend: backend).test(.router) { client in
            for _ in 0..<2 {
                try await client.execute(uri: "/mint/alice", method: .post) { XCTAssertEqual($0.status, .ok) }
            }
        }
        XCTAssertTrue(own.all.isEmpty, "nothing went to the sink's own logger")
        let sdk = lines.all.filter { $0.metadata[SwiftLogSink.MetadataKey.family] == "Vital" }
        XCTAssertEqual(sdk.count, 6, "→ and ← of CreateUser and CreateSignInToken, then of CreateSignInToken alone")
        let ids = Set(sdk.compactMap { $0.metadata["hb.request.id"] })
        XCTAssertEqual(ids.count, 2, "each request's lines carry its id: \(ids)")
    }

    /// The documentation's example.
    func testTheDocumentedRouter() {
        // snippet doc-hummingbird-middleware
        let router = Router()
        router.add(middleware: HealthSignInMiddleware())
        // end snippet
        _ = router
    }
}

/// The lines a ``CapturingHandler`` received.
final class CapturedLines: @unchecked Sendable {
    // @unchecked: `stored` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var stored: [(message: String, metadata: [String: String])] = []

    func append(_ message: String, _ metadata: [String: String]) {
        lock.withLock { stored.append((message, metadata)) }
    }
    var all: [(message: String, metadata: [String: String])] { lock.withLock { stored } }
}

/// A swift-log handler that keeps what it receives.
struct CapturingHandler: LogHandler {
    let lines: CapturedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.append("\(event.message)", merged.mapValues { "\($0)" })
    }
}
