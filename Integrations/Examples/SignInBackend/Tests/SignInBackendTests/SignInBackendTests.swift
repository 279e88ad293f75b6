import Foundation
import HealthSignInConfiguration
import HealthSignInObservability
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInTesting
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import SignInBackend
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The example backend served on a port of its own and called over HTTP, as its app and its scheduler call it,
/// against the emulator (Junction and a SMART server) and PostgreSQL, which `make integrations` starts.
final class SignInBackendTests: XCTestCase {
    private var emulator: URL!

    override func setUp() async throws {
        emulator = try XCTUnwrap(URL(string: try variable("EMULATOR_URL")))
        try await control("reset")
    }

    func testTheAppsSignedInUserGetsASignInTokenAndOthersAreRefused() async throws {
        try await serve { client in
            try await client.execute(uri: "/sign-in-token", method: .post) { response in
                XCTAssertEqual(response.status, .unauthorized)
            }
            try await client.execute(
                uri: "/sign-in-token", method: .post, headers: [.authorization: "Bearer someone-else"]
            ) { response in
                XCTAssertEqual(response.status, .unauthorized)
            }
            let grant = try await client.execute(
                uri: "/sign-in-token", method: .post, headers: [.authorization: "Bearer alice-session"]
            ) { response -> [String: String] in
                XCTAssertEqual(response.status, .ok)
                return try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
            }
            XCTAssertEqual(grant["user_id"]?.count, 36)
            XCTAssertFalse(grant["sign_in_token"]?.isEmpty ?? true)
        }
        let stats = try await read("vital/stats")
        XCTAssertEqual((stats["calls"] as? [String: Int])?["CreateSignInToken"], 1, "\(stats)")
    }

    /// Two instances of the backend (two processes of a fleet, here two servers) run the job: one service token
    /// for both, kept in the shared store.
    func testTheSMARTJobRunsOnOneServiceTokenAcrossInstances() async throws {
        let table = "job_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        for _ in 0..<2 {
            try await serve(table: String(table)) { client in
                for _ in 0..<3 {
                    try await client.execute(uri: "/jobs/observation-sync", method: .post) { response in
                        XCTAssertEqual(response.status, .ok, String(buffer: response.body))
                        let result = try JSONDecoder().decode(
                            ObservationSyncJob.Result.self, from: Data(response.body.readableBytesView))
                        XCTAssertEqual(result.patient, "smart-patient-1")
                        XCTAssertEqual(result.observations, 3)
                    }
                }
            }
        }
        let stats = try await read("smart/stats")
        XCTAssertEqual((stats["token"] as? [String: Int])?["client_credentials"], 1, "\(stats)")
        XCTAssertEqual(stats["fhir"] as? Int, 12)
    }

    /// The database down: the job answers 503 with Retry-After, from the SDK's typed transient error; the body says
    /// what to do, and the error's description (which names the database) stays in the server's log.
    func testAnUnreachableDatabaseIsAServiceUnavailableAnswer() async throws {
        try await serve(databasePort: 9) { client in
            try await client.execute(uri: "/jobs/observation-sync", method: .post) { response in
                XCTAssertEqual(response.status, .serviceUnavailable, String(buffer: response.body))
                XCTAssertEqual(response.headers[.retryAfter], "5")
                let body = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
                XCTAssertEqual(body["recovery"], "retryLater")
                XCTAssertFalse(String(buffer: response.body).contains("PostgreSQL"))
            }
        }
    }

    /// An instance started with a key the authorization server does not know fails its readiness check with the
    /// server's reason; one with the registered key passes it, and neither keeps a token.
    func testAnInstanceWithTheWrongKeyFailsItsStart() async throws {
        try await withBackend(key: Self.unregisteredKey) { wrong in
            do {
                try await wrong.checkReadiness()
                XCTFail("an unregistered key passed the readiness check")
            } catch let error as OAuthError {
                XCTAssertEqual(error.code, .invalidClient, "\(error)")
            }
        }
        try await withBackend(key: SMARTTestServer.backendPrivateKeyJWK) { right in
            try await right.checkReadiness()
            let kept = try await right.smart.configuration.session.store.read(right.smart.storeKey)
            XCTAssertNil(kept, "the readiness check keeps no token")
        }
    }

    /// The README's smallest service: made from the environment, and a value the environment lacks is named.
    func testTheSmallestServiceIsMadeFromTheEnvironment() throws {
        XCTAssertThrowsError(try smallestService()) { error in
            XCTAssertEqual((error as? ConfigValueError)?.key, "smart.private.key", "\(error)")
        }
        let variables = [
            "SMART_CLIENT_ID": SMARTTestServer.backendClientID, "SMART_SCOPE": "system/Patient.rs",
            "SMART_FHIR_URL": "https://fhir.example/r4", "SMART_PRIVATE_KEY": SMARTTestServer.backendPrivateKeyJWK,
        ]
        for (name, value) in variables { setenv(name, value, 1) }
        defer { for name in variables.keys { unsetenv(name) } }
        let (_, smart) = try smallestService()
        XCTAssertEqual(smart.configuration.registration.client.clientID, SMARTTestServer.backendClientID)
        XCTAssertTrue(smart.configuration.session.store is PostgresCredentialStore)
        XCTAssertTrue(smart.configuration.session.options.middlewares.first is ObservabilityMiddleware)
    }

    // MARK: - Serving

    /// Serves the backend on a free port of 127.0.0.1 and runs `test` with a client of it.
    private func serve(
        table: String? = nil, databasePort: Int? = nil,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withBackend(table: table, databasePort: databasePort) { backend in
            let app = Application(
                router: backend.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                logger: Logger(label: "test"))
            try await app.test(.live, test)
        }
    }

    /// Runs `body` with the backend as the environment of one instance configures it, its PostgreSQL client running.
    private func withBackend(
        table: String? = nil, databasePort: Int? = nil, key: String = SMARTTestServer.backendPrivateKeyJWK,
        _ body: (Backend) async throws -> Void
    ) async throws {
        var environment = [
            "VITAL_API_KEY": "sk_us_emulator", "VITAL_ENVIRONMENT": "sandbox-us",
            "VITAL_API_URL": emulator.absoluteString + "/vital/api",
            "VITAL_AUTH_URL": emulator.absoluteString + "/vital/auth",
            "SMART_FHIR_URL": emulator.absoluteString + "/smart/fhir", "SMART_CLIENT_ID": "smart-backend",
            "SMART_SCOPE": "system/Patient.rs system/Observation.rs", "SMART_PRIVATE_KEY": key,
            "SMART_PATIENT_ID": "smart-patient-1",
            "DATABASE_HOST": try variable("HEALTHSIGNIN_POSTGRES_HOST"),
            "DATABASE_PORT": try databasePort.map(String.init) ?? variable("HEALTHSIGNIN_POSTGRES_PORT"),
            "DATABASE_USER": try variable("HEALTHSIGNIN_POSTGRES_USER"),
            "DATABASE_NAME": try variable("HEALTHSIGNIN_POSTGRES_DATABASE"),
            "ALLOW_LOOPBACK_HTTP": "1", "APP_SESSIONS": "alice-session=alice,bob-session=bob",
        ]
        if let table { environment["DATABASE_TABLE"] = table }
        // An unreachable server is waited for no longer than the timeout, twice: a connection, then a statement.
        if databasePort != nil { environment["DATABASE_TIMEOUT"] = "0.5" }
        let settings = try BackendSettings.fromEnvironment(environment)
        let postgres = PostgresClient(configuration: settings.database)
        let backend = try Backend(settings: settings, postgres: postgres, logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await postgres.run() }
            try await body(backend)
            group.cancelAll()
        }
    }

    /// Another P-384 key under the registered key's id: its signatures do not verify with the registered public key.
    private static let unregisteredKey = """
        {"kty": "EC", "crv": "P-384",
         "x": "hm2bR44xxzl5E-gM2YN7s8sfN1LjhkJY0J2tiZzddRd2Hdc1Id3rmIy4cxWv6NmS",
         "y": "FQ6ARwI6Y1ymgnHOmuBYXR2vM2FMeTpzGKHFMogy1O0vRPrN62Twi3nApTkukHYe",
         "d": "HEBZAxR5sIPiz352bDDiDTJE0hfUvjc3-Q6Uoj3rbltgLN22sUONje_5-w5GfIyO",
         "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384"}
        """

    private func variable(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw MissingVariable(name: name)
        }
        return value
    }

    private func control(_ path: String) async throws {
        var request = URLRequest(url: emulator.appendingPathComponent("_control/" + path))
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        _ = try await URLSession.shared.data(for: request)
    }

    private func read(_ path: String) async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: emulator.appendingPathComponent("_control/" + path))
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

/// A variable `make integrations` sets is missing: the tests need PostgreSQL and the emulator it starts.
struct MissingVariable: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) is not set: run these tests with make integrations" }
}
