import AsyncHTTPClient
import Foundation
import HealthSignInOAuth
import HealthSignInTesting
import Logging
import Vapor
import VaporBackend
import XCTest

/// The example backend served on a port of its own and called over HTTP, as its app and its scheduler call it,
/// against the emulator (Junction and a SMART server), which `make integrations` starts.
final class VaporBackendTests: XCTestCase {
    override func setUp() async throws {
        try await control("reset")
    }

    func testTheAppsSignedInUserGetsASignInTokenAndOthersAreRefused() async throws {
        try await serve { server in
            let anonymous = try await server.post("/sign-in-token")
            XCTAssertEqual(anonymous.status, .unauthorized)
            XCTAssertEqual(anonymous.headers.first(name: "WWW-Authenticate"), "Bearer")
            let stranger = try await server.post("/sign-in-token", headers: ["Authorization": "Bearer someone-else"])
            XCTAssertEqual(stranger.status, .unauthorized)
            let signedIn = try await server.post(
                "/sign-in-token", headers: ["Authorization": "Bearer alice-session", "X-Request-Id": "app-request-1"])
            XCTAssertEqual(signedIn.status, .ok, signedIn.body)
            let grant = try JSONDecoder().decode(SignInTokenResponse.self, from: Data(signedIn.body.utf8))
            XCTAssertEqual(grant.userID.count, 36)
            XCTAssertEqual(grant.userID, grant.userID.lowercased())
            XCTAssertFalse(grant.signInToken.isEmpty)

            let sdkLines = server.log.lines.filter { $0.metadata["healthsignin.family"] == "Vital" }
            XCTAssertEqual(sdkLines.count, 4, "CreateUser and CreateSignInToken, sent and answered: \(sdkLines)")
            XCTAssertEqual(Set(sdkLines.compactMap { $0.metadata["request-id"] }), ["app-request-1"])
        }
        let stats = try await read("vital/stats")
        XCTAssertEqual((stats["calls"] as? [String: Int])?["CreateSignInToken"], 1, "\(stats)")
    }

    func testTheJobSyncsObservationsOnOneServiceToken() async throws {
        try await serve { server in
            for _ in 0..<3 {
                let answer = try await server.post("/jobs/observation-sync")
                XCTAssertEqual(answer.status, .ok, answer.body)
                let summary = try JSONDecoder().decode(ObservationSyncJob.Summary.self, from: Data(answer.body.utf8))
                XCTAssertEqual(summary, ObservationSyncJob.Summary(patient: "smart-patient-1", observations: 3))
            }
        }
        let stats = try await read("smart/stats")
        XCTAssertEqual((stats["token"] as? [String: Int])?["client_credentials"], 1, "\(stats)")
        XCTAssertEqual(stats["fhir"] as? Int, 6, "\(stats)")
    }

    /// The FHIR server answering 503: the job answers 503 with `Retry-After` and the SDK's sentence, and the error
    /// itself is a warning in the log of the request.
    func testAnUpstreamThatIsDownIsAServiceUnavailableAnswer() async throws {
        try await control("faults", ["path": "/smart/fhir/Patient", "kind": "status", "status": 503, "count": 3])
        try await serve { server in
            let answer = try await server.post("/jobs/observation-sync", headers: ["X-Request-Id": "job-1"])
            XCTAssertEqual(answer.status, .serviceUnavailable, answer.body)
            XCTAssertEqual(answer.headers.first(name: "Retry-After"), "5")
            XCTAssertEqual(try Self.reason(answer), "The upstream service is unavailable; try again later.")
            let logged = server.log.lines.filter { $0.metadata["healthsignin.status"] == "503" }
            XCTAssertEqual(logged.count, 1, "\(logged)")
            XCTAssertEqual(logged.first?.level, .warning)
            XCTAssertEqual(logged.first?.metadata["request-id"], "job-1")
            XCTAssertTrue(logged.first?.message.contains("HTTP 503") ?? false, "\(logged)")
        }
    }

    /// The FHIR server answering what is not a Patient: the job answers 502, the upstream's failure, not 400.
    func testAnUpstreamAnswerThatIsNotAPatientIsABadGatewayAnswer() async throws {
        try await control("faults", ["path": "/smart/fhir/Patient", "kind": "malformed"])
        try await serve { server in
            let answer = try await server.post("/jobs/observation-sync")
            XCTAssertEqual(answer.status, .badGateway, answer.body)
            XCTAssertNil(answer.headers.first(name: "Retry-After"))
            XCTAssertEqual(try Self.reason(answer), "The upstream service refused the server's request.")
            XCTAssertFalse(answer.body.contains("FHIR resource"), answer.body)
            let logged = server.log.lines.filter { $0.metadata["healthsignin.status"] == "502" }
            XCTAssertEqual(logged.map(\.level), [.error])
            XCTAssertTrue(logged.first?.message.contains("the body is not the FHIR resource") ?? false, "\(logged)")
        }
    }

    /// Junction refusing the team's key: a 502, whose reason says nothing of Junction.
    func testJunctionRefusingTheKeyIsABadGatewayAnswer() async throws {
        try await serve(["VITAL_API_KEY": "sk_us_revoked"]) { server in
            let answer = try await server.post("/sign-in-token", headers: ["Authorization": "Bearer bob-session"])
            XCTAssertEqual(answer.status, .badGateway, answer.body)
            XCTAssertEqual(try Self.reason(answer), "The upstream service refused the server's request.")
            XCTAssertFalse(answer.body.contains("Invalid API key"), answer.body)
            let logged = server.log.lines.filter { $0.metadata["healthsignin.status"] == "502" }
            XCTAssertEqual(logged.count, 1, "\(logged)")
        }
    }

    /// An instance started with a key the authorization server does not know fails its readiness check with the
    /// server's reason; one with the registered key passes it.
    func testAnInstanceWithTheWrongKeyFailsItsReadinessCheck() async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let logger = Logger(label: "test")
            let wrong = try Backend(
                settings: try settings(["SMART_PRIVATE_KEY": Self.unregisteredKey]), httpClient: client, logger: logger)
            do {
                try await wrong.checkReadiness()
                XCTFail("an unregistered key passed the readiness check")
            } catch let error as OAuthError {
                XCTAssertEqual(error.code, .invalidClient, "\(error)")
            }
            let right = try Backend(settings: try settings(), httpClient: client, logger: logger)
            try await right.checkReadiness()
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    // MARK: - Serving

    /// The backend as one instance runs it, served by Vapor on a port of 127.0.0.1, with its log kept.
    private struct Served: Sendable {
        let base: String
        let log: CapturingLogHandler.Store

        /// What the backend answered.
        struct Answer {
            let status: HTTPResponseStatus
            let headers: HTTPHeaders
            let body: String
        }

        func post(_ path: String, headers: HTTPHeaders = [:]) async throws -> Answer {
            var request = HTTPClientRequest(url: base + path)
            request.method = .POST
            request.headers = headers
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            return Answer(status: response.status, headers: response.headers, body: String(buffer: body))
        }
    }

    /// Serves the backend configured by the emulator's settings and `overrides`, and runs `test` against it.
    private func serve(_ overrides: [String: String] = [:], _ test: (Served) async throws -> Void) async throws {
        let lines = CapturingLogHandler.Store()
        var logger = Logger(label: "vapor-backend") { _ in CapturingLogHandler(store: lines) }
        logger.logLevel = .debug
        let app = try await Application.make(.testing, .singleton, logger: logger)
        do {
            try Backend.configure(app, settings: try settings(overrides))
            try await app.asyncBoot()
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try XCTUnwrap(app.http.server.shared.localAddress?.port)
            try await test(Served(base: "http://127.0.0.1:\(port)", log: lines))
        } catch {
            await app.server.shutdown()
            try await app.asyncShutdown()
            throw error
        }
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    /// The settings the environment of one instance gives, pointed at the emulator.
    private func settings(_ overrides: [String: String] = [:]) throws -> BackendSettings {
        let emulator = try Self.emulator().absoluteString
        let environment = [
            "VITAL_API_KEY": "sk_us_emulator", "VITAL_ENVIRONMENT": "sandbox-us",
            "VITAL_API_URL": emulator + "/vital/api", "VITAL_AUTH_URL": emulator + "/vital/auth",
            "SMART_FHIR_URL": emulator + "/smart/fhir", "SMART_CLIENT_ID": SMARTTestServer.backendClientID,
            "SMART_SCOPE": "system/Patient.rs system/Observation.rs",
            "SMART_PRIVATE_KEY": SMARTTestServer.backendPrivateKeyJWK, "SMART_PATIENT_ID": "smart-patient-1",
            "ALLOW_LOOPBACK_HTTP": "1", "APP_SESSIONS": "alice-session=alice,bob-session=bob",
        ]
        return try BackendSettings.fromEnvironment(environment.merging(overrides) { $1 })
    }

    /// The reason of a body Vapor's `ErrorMiddleware` wrote.
    private static func reason(_ answer: Served.Answer) throws -> String {
        struct ErrorBody: Decodable { let reason: String }
        return try JSONDecoder().decode(ErrorBody.self, from: Data(answer.body.utf8)).reason
    }

    /// Another P-384 key under the registered key's id: its signatures do not verify with the registered public key.
    private static let unregisteredKey = """
        {"kty": "EC", "crv": "P-384",
         "x": "hm2bR44xxzl5E-gM2YN7s8sfN1LjhkJY0J2tiZzddRd2Hdc1Id3rmIy4cxWv6NmS",
         "y": "FQ6ARwI6Y1ymgnHOmuBYXR2vM2FMeTpzGKHFMogy1O0vRPrN62Twi3nApTkukHYe",
         "d": "HEBZAxR5sIPiz352bDDiDTJE0hfUvjc3-Q6Uoj3rbltgLN22sUONje_5-w5GfIyO",
         "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384"}
        """

    // MARK: - The emulator

    private static func emulator() throws -> URL {
        guard let text = ProcessInfo.processInfo.environment["EMULATOR_URL"], let url = URL(string: text) else {
            throw MissingEmulator()
        }
        return url
    }

    private func control(_ path: String, _ body: [String: any Sendable] = [:]) async throws {
        var request = HTTPClientRequest(url: try Self.emulator().absoluteString + "/_control/" + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        XCTAssertEqual(response.status, .ok, "_control/\(path)")
        _ = try await response.body.collect(upTo: 1 << 20)
    }

    private func read(_ path: String) async throws -> [String: Any] {
        let request = HTTPClientRequest(url: try Self.emulator().absoluteString + "/_control/" + path)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let body = try await response.body.collect(upTo: 1 << 20)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
    }
}

/// `EMULATOR_URL` is not set: these tests run under the emulator, as `make integrations` runs them.
struct MissingEmulator: Error, CustomStringConvertible {
    var description: String { "EMULATOR_URL is not set: run these tests under Tests/Emulator/with-emulator" }
}
