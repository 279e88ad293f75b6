import Foundation
import HealthSignInCore
import HealthSignInLogging
import HealthSignInTesting
import HealthSignInVital
import Logging
import XCTest

/// The SDK's entries reach swift-log with their level, family, operation and request id, and without secrets or,
/// unless asked for, values from outside the SDK's wording.
final class SwiftLogSinkTests: XCTestCase {
    private static let userID = "1b7d2f4c-6a3e-4d0f-9c55-2f0e8a1b3c4d"
    private static let signInToken = "sign-in-token-canary-7f3a"
    private static let apiKey = "sk_us_api-key-canary-91c2"

    /// Mints a sign-in token through the SDK, logging to a captured swift-log logger.
    private func mint(privateValues: SwiftLogSink.PrivateValues, level: Logger.Level = .trace) async throws
        -> [CapturedLine]
    {
        let transport = RecordingTransport { request in
            let body =
                request.url.path.hasSuffix("/sign_in_token")
                ? #"{"user_id": "\#(Self.userID)", "sign_in_token": "\#(Self.signInToken)"}"#
                : #"{"user_id": "\#(Self.userID)", "client_user_id": "alice"}"#
            return HTTPResponseMessage(
                status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        let capture = CapturingLogHandler.Store()
        var logger = Logger(label: "sign-in") { _ in CapturingLogHandler(store: capture) }
        logger.logLevel = level
        logger[metadataKey: "request-id"] = "app-request-1"
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey(Self.apiKey), environment: .sandboxUS, transport: transport,
                logger: SwiftLogSink(logger, privateValues: privateValues)))
        let grant = try await backend.signInToken(forClientUserID: "alice")
        XCTAssertEqual(grant.signInToken, Self.signInToken)
        return capture.lines
    }

    func testEachRequestsEntriesCarryItsFamilyOperationAndOneRequestID() async throws {
        let lines = try await mint(privateValues: .redacted)
        XCTAssertEqual(lines.count, 4, "\(lines)")
        XCTAssertEqual(Set(lines.map(\.level)), [.debug])
        XCTAssertEqual(Set(lines.map(\.source)), ["HealthSignIn"])
        XCTAssertEqual(Set(lines.compactMap { $0.metadata[SwiftLogSink.MetadataKey.family] }), ["Vital"])
        XCTAssertEqual(
            lines.compactMap { $0.metadata[SwiftLogSink.MetadataKey.operation] },
            ["CreateUser", "CreateUser", "CreateSignInToken", "CreateSignInToken"])
        let ids = lines.compactMap { $0.metadata[SwiftLogSink.MetadataKey.requestID] }
        XCTAssertEqual(ids.count, 4)
        XCTAssertEqual(ids[0], ids[1])
        XCTAssertEqual(ids[2], ids[3])
        XCTAssertNotEqual(ids[0], ids[2])
        XCTAssertEqual(Set(lines.compactMap { $0.metadata["request-id"] }), ["app-request-1"], "the app's key is kept")
    }

    func testValuesFromOutsideTheSDKAreRedactedUnlessIncludedAndSecretsNeverShow() async throws {
        let redacted = try await mint(privateValues: .redacted)
        XCTAssertEqual(redacted[0].message, "CreateUser → POST https://api.sandbox.us.junction.com<private>")
        XCTAssertEqual(redacted[1].message, "CreateUser ← HTTP 200", "the status is the SDK's to print")
        XCTAssertFalse(redacted.contains { $0.message.contains("/v2/user") }, "the path is not")
        let included = try await mint(privateValues: .included)
        XCTAssertEqual(included[0].message, "CreateUser → POST https://api.sandbox.us.junction.com/v2/user")
        for line in redacted + included {
            let everything = line.message + line.metadata.values.joined()
            XCTAssertFalse(everything.contains(Self.signInToken), line.message)
            XCTAssertFalse(everything.contains(Self.apiKey), line.message)
        }
    }

    /// The documentation's example: a backend logging to swift-log.
    func testTheDocumentedSinkIsTheBackendsLogger() throws {
        let apiKey = Self.apiKey
        // snippet doc-swift-log-sink
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey(apiKey), environment: .sandboxUS,
                logger: SwiftLogSink(Logger(label: "sign-in"))))
        // end snippet
        XCTAssertEqual((backend.configuration.options.logger as? SwiftLogSink)?.logger.label, "sign-in")
    }

    /// Within a request's handling, entries go to the request's logger, with its metadata (the framework's request
    /// id) and level; outside it, to the sink's own.
    func testEntriesGoToTheLoggerOfTheRequestInProgress() async throws {
        let requestLines = CapturingLogHandler.Store()
        var requestLogger = Logger(label: "request") { _ in CapturingLogHandler(store: requestLines) }
        requestLogger[metadataKey: "hb.request.id"] = "42"
        requestLogger.logLevel = .debug
        let own = try await SwiftLogSink.withRequestLogger(requestLogger) {
            try await mint(privateValues: .redacted)
        }
        XCTAssertEqual(own.count, 0, "nothing went to the sink's own logger")
        XCTAssertEqual(requestLines.lines.count, 4)
        XCTAssertEqual(Set(requestLines.lines.compactMap { $0.metadata["hb.request.id"] }), ["42"])
        XCTAssertEqual(Set(requestLines.lines.compactMap { $0.metadata[SwiftLogSink.MetadataKey.family] }), ["Vital"])
        requestLogger.logLevel = .info
        _ = try await SwiftLogSink.withRequestLogger(requestLogger) { try await mint(privateValues: .redacted) }
        XCTAssertEqual(requestLines.lines.count, 4, "the request logger's level filters")
        let after = try await mint(privateValues: .redacted)
        XCTAssertEqual(after.count, 4, "after the request, the sink's own logger again")
    }

    func testTheLoggersLevelFiltersEntries() async throws {
        let lines = try await mint(privateValues: .redacted, level: .info)
        XCTAssertEqual(lines.count, 0, "the request entries are debug entries")
    }
}

/// One line a ``CapturingLogHandler`` received.
struct CapturedLine: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
    let source: String
}

/// A swift-log handler that keeps what it receives.
struct CapturingLogHandler: LogHandler {
    final class Store: @unchecked Sendable {
        // @unchecked: `stored` is only read or written while `lock` is held.
        private let lock = NSLock()
        private var stored: [CapturedLine] = []

        func append(_ line: CapturedLine) { lock.withLock { stored.append(line) } }
        var lines: [CapturedLine] { lock.withLock { stored } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(
            CapturedLine(
                level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" },
                source: event.source))
    }
}
