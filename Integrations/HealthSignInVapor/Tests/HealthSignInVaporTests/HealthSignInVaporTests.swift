import Foundation
import HealthSignInHTTP
import HealthSignInLogging
import HealthSignInTesting
import HealthSignInVapor
import HealthSignInVital
import Logging
import XCTVapor
import XCTest

/// A Vapor app with the middleware answers the SDK's errors by their recovery, with the SDK's sentence as the body and
/// the error's description in its log only, leaves every other error to Vapor, and sends the SDK's log lines to the
/// logger of the request in progress.
final class HealthSignInVaporTests: XCTestCase {
    /// An SDK error whose description names what only the server's log may show.
    private struct UpstreamFailure: SDKError {
        let recovery: ErrorRecovery
        var description: String { "fhir.upstream.internal refused the service's key" }
    }

    private struct NotTheSDKs: Error {}

    /// What Vapor's `ErrorMiddleware` answers.
    private struct ErrorBody: Decodable {
        let error: Bool
        let reason: String
    }

    private struct AppUser: Authenticatable {
        let id: String
    }

    /// Signs every request in as `alice`: the app's own sign-in, in the tests.
    private struct SignedInAsAlice: AsyncMiddleware {
        func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
            request.auth.login(AppUser(id: "alice"))
            return try await next.respond(to: request)
        }
    }

    private static let userID = "5d1f3a2b-7c4e-4f6a-8b9d-0e1f2a3b4c5d"
    private static let signInToken = "sign-in-token-canary-42"

    // MARK: - Errors

    func testEachRecoveryIsAnsweredWithItsStatusAndTheDescriptionStaysInTheLog() async throws {
        let expected: [ErrorRecovery: UInt] = [
            .none: 502, .retryLater: 503, .refreshCredential: 502, .reauthorize: 502, .reprovision: 502,
            .discardGrant: 502, .reconfigure: 500, .fixRequest: 500,
        ]
        XCTAssertEqual(Set(expected.keys), Set(ErrorRecovery.allCases))
        try await withApp { app, log in
            app.middleware.use(HealthSignInMiddleware())
            app.post("fail", ":recovery") { request async throws -> String in
                guard let recovery = ErrorRecovery(rawValue: try request.parameters.require("recovery")) else {
                    throw Abort(.badRequest)
                }
                throw UpstreamFailure(recovery: recovery)
            }
            for (recovery, status) in expected {
                let requestID = "recovery-\(recovery.rawValue)"
                try await app.test(.POST, "fail/\(recovery.rawValue)", headers: ["X-Request-Id": requestID]) {
                    response async throws in
                    XCTAssertEqual(response.status.code, status, "\(recovery)")
                    XCTAssertEqual(
                        response.headers.first(name: "Retry-After"), status == 503 ? "5" : nil, "\(recovery)")
                    XCTAssertFalse(response.body.string.contains("upstream.internal"), response.body.string)
                    let body = try response.content.decode(ErrorBody.self)
                    XCTAssertEqual(body.reason, SDKErrorResponse(UpstreamFailure(recovery: recovery))?.message)
                }
                let logged = log.lines.filter { $0.message.contains("fhir.upstream.internal") }
                    .filter { $0.metadata["request-id"] == requestID }
                XCTAssertEqual(logged.count, 1, "the description is logged once: \(logged)")
                XCTAssertEqual(logged.first?.level, status == 503 ? .warning : .error, "\(recovery)")
                XCTAssertEqual(logged.first?.metadata["healthsignin.status"], String(status))
                XCTAssertEqual(logged.first?.metadata["healthsignin.recovery"], recovery.rawValue)
            }
        }
    }

    func testATimeoutIsAGatewayTimeoutWithoutRetryAfterAndTheWaitIsTheMiddlewares() async throws {
        try await withApp { app, log in
            app.middleware.use(HealthSignInMiddleware(retryAfter: 30))
            app.post("slow") { request async throws -> String in
                throw TransportError(
                    .timedOut, url: URL(string: "https://fhir.upstream.internal/Patient"), detail: "30 s")
            }
            app.post("down") { request async throws -> String in
                throw TransportError(.cannotConnect, url: nil, detail: "fhir.upstream.internal refused the connection")
            }
            try await app.test(.POST, "slow") { response async in
                XCTAssertEqual(response.status, .gatewayTimeout)
                XCTAssertNil(response.headers.first(name: "Retry-After"))
                XCTAssertFalse(response.body.string.contains("upstream.internal"), response.body.string)
            }
            try await app.test(.POST, "down") { response async in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertEqual(response.headers.first(name: "Retry-After"), "30")
                XCTAssertFalse(response.body.string.contains("upstream.internal"), response.body.string)
            }
            let logged = log.lines.filter { $0.message.contains("upstream.internal") }
            XCTAssertEqual(logged.map(\.level), [.warning, .warning], "\(logged)")
        }
    }

    func testAnErrorThatIsNotTheSDKsPassesUnchanged() async throws {
        try await withApp { app, log in
            app.middleware.use(HealthSignInMiddleware())
            app.get("patients", ":id") { request async throws -> String in
                throw Abort(.notFound, reason: "no such patient")
            }
            app.get("broken") { request async throws -> String in
                throw NotTheSDKs()
            }
            app.get("answered") { request async throws -> String in
                // A handler that answers the SDK's error itself, with a wait of its own.
                guard let abort = SDKAbortError(UpstreamFailure(recovery: .retryLater), retryAfter: 60) else {
                    throw Abort(.internalServerError)
                }
                throw abort
            }
            try await app.test(.GET, "patients/7") { response async throws in
                XCTAssertEqual(response.status, .notFound)
                XCTAssertEqual(try response.content.decode(ErrorBody.self).reason, "no such patient")
                XCTAssertNil(response.headers.first(name: "Retry-After"))
            }
            try await app.test(.GET, "broken") { response async in
                XCTAssertEqual(response.status, .internalServerError)
            }
            try await app.test(.GET, "answered") { response async throws in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertEqual(response.headers.first(name: "Retry-After"), "60")
                XCTAssertEqual(
                    try response.content.decode(ErrorBody.self).reason,
                    SDKErrorResponse(UpstreamFailure(recovery: .retryLater))?.message)
            }
            XCTAssertEqual(
                log.lines.filter { $0.metadata["healthsignin.status"] != nil }.count, 0,
                "the middleware logs only the SDK errors it answers")
        }
    }

    func testTheAbortErrorIsMadeOnlyForTheSDKsErrors() throws {
        XCTAssertNil(SDKAbortError(CancellationError()))
        XCTAssertNil(SDKAbortError(Abort(.notFound)))
        let abort = try XCTUnwrap(SDKAbortError(UpstreamFailure(recovery: .retryLater), retryAfter: 12))
        XCTAssertEqual(abort.status, .serviceUnavailable)
        XCTAssertEqual(abort.headers.first(name: "Retry-After"), "12")
        XCTAssertEqual(abort.reason, abort.response.message)
        XCTAssertFalse(abort.reason.contains("upstream.internal"))
        XCTAssertEqual(abort.description, "HTTP 503 for fhir.upstream.internal refused the service's key")
        XCTAssertEqual(abort.error.recovery, .retryLater)
        let refused = try XCTUnwrap(SDKAbortError(UpstreamFailure(recovery: .reauthorize)))
        XCTAssertEqual(refused.status, .badGateway)
        XCTAssertEqual(refused.headers, [:])
    }

    // MARK: - Log lines

    func testTheSDKsLinesDuringARequestCarryVaporsRequestID() async throws {
        try await withApp { app, log in
            let own = CapturingLogHandler.Store()
            let sinkLogger = Logger(label: "sink") { _ in CapturingLogHandler(store: own) }
            let vital = Self.vital(transport: Self.junction(), logger: sinkLogger)
            app.middleware.use(HealthSignInMiddleware())
            app.post("mint") { request async throws -> HTTPStatus in
                _ = try await vital.signInToken(forClientUserID: "alice")
                return .noContent
            }
            try await app.test(.POST, "mint", headers: ["X-Request-Id": "vapor-request-7"]) { response async in
                XCTAssertEqual(response.status, .noContent)
            }
            let first = log.lines.filter { $0.metadata[SwiftLogSink.MetadataKey.family] == "Vital" }
            XCTAssertEqual(first.count, 4, "CreateUser and CreateSignInToken, each sent and answered: \(first)")
            XCTAssertEqual(Set(first.map(\.level)), [.debug])
            XCTAssertEqual(Set(first.compactMap { $0.metadata["request-id"] }), ["vapor-request-7"])

            // Vapor's own id, when the caller sends none: the one of the route's own line.
            try await app.test(.POST, "mint") { response async in
                XCTAssertEqual(response.status, .noContent)
            }
            let second = log.lines.filter { $0.metadata[SwiftLogSink.MetadataKey.family] == "Vital" }.dropFirst(4)
            let route = try XCTUnwrap(log.lines.last { $0.message == "POST /mint" })
            let id = try XCTUnwrap(route.metadata["request-id"])
            XCTAssertNotEqual(id, "vapor-request-7")
            XCTAssertEqual(second.count, 2, "the user is known: CreateSignInToken alone: \(second)")
            XCTAssertEqual(Set(second.compactMap { $0.metadata["request-id"] }), [id])
            XCTAssertEqual(own.lines.count, 0, "nothing went to the sink's own logger during the requests")

            _ = try await vital.signInToken(forClientUserID: "alice")
            XCTAssertEqual(own.lines.count, 2, "outside a request, the sink's own logger")
        }
    }

    // MARK: - The documentation's example

    func testTheDocumentedSetUpAnswersAnUpstreamFailureAndThenMints() async throws {
        try await withApp { app, log in
            let transport = RecordingTransport(responses: [
                HTTPResponseMessage(status: 503, headers: ["Content-Type": "text/plain"], body: Data("busy".utf8)),
                Self.userResponse, Self.tokenResponse,
            ])
            let vital = Self.vital(transport: transport, logger: app.logger)
            app.middleware.use(SignedInAsAlice())
            // snippet vapor-health-sign-in-middleware
            app.middleware.use(HealthSignInMiddleware())
            app.post("sign-in-token") { request async throws -> [String: String] in
                let user = try request.auth.require(AppUser.self)
                let grant = try await vital.signInToken(forClientUserID: user.id)
                return ["sign_in_token": grant.signInToken]
            }
            // end snippet
            try await app.test(.POST, "sign-in-token") { response async in
                XCTAssertEqual(response.status, .serviceUnavailable)
                XCTAssertEqual(response.headers.first(name: "Retry-After"), "5")
                XCTAssertFalse(response.body.string.contains("CreateUser"), response.body.string)
            }
            XCTAssertEqual(log.lines.filter { $0.message.contains("CreateUser: unexpected HTTP 503") }.count, 1)
            try await app.test(.POST, "sign-in-token") { response async throws in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(try response.content.decode([String: String].self), ["sign_in_token": Self.signInToken])
            }
        }
    }

    // MARK: - Helpers

    /// Runs `body` with a testing app whose logger, at debug level, keeps its lines.
    private func withApp(_ body: (Application, CapturingLogHandler.Store) async throws -> Void) async throws {
        let lines = CapturingLogHandler.Store()
        var logger = Logger(label: "app") { _ in CapturingLogHandler(store: lines) }
        logger.logLevel = .debug
        let app = try await Application.make(.testing, .singleton, logger: logger)
        do {
            try await body(app, lines)
        } catch {
            try await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }

    private static func vital(transport: any HTTPTransport, logger: Logger) -> VitalBackend {
        VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_test-key"), environment: .sandboxUS, transport: transport,
                logger: SwiftLogSink(logger)))
    }

    /// Junction, answering every request.
    private static func junction() -> RecordingTransport {
        RecordingTransport { request in
            request.url.path.hasSuffix("/sign_in_token") ? tokenResponse : userResponse
        }
    }

    private static let userResponse = HTTPResponseMessage(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"user_id": "\#(userID)", "client_user_id": "alice"}"#.utf8))

    private static let tokenResponse = HTTPResponseMessage(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"user_id": "\#(userID)", "sign_in_token": "\#(signInToken)"}"#.utf8))
}
