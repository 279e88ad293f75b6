import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// Two OS processes share one file-store directory; each makes 50 concurrent calls at the same moment with an access
/// token the server has expired. The store's lock makes the refresh single-flight across both: the emulator sees
/// exactly one refresh and no refused refresh token, and both processes end with the same credential.
final class SharedStoreTests: XCTestCase {
    private static let shared = Emulator.shared
    private var emulator: Emulator!
    private var directory: URL!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
    }

    override func tearDown() {
        // Nil when setUp stopped before making it (no emulator).
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func testTwoProcessesRefreshAKoppeltaalGrantOnce() async throws {
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: emulator.url("/kt/FHIR/Koppeltaal"),
                    client: OAuthClientCredentials(
                        clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
                    redirectURI: "http://127.0.0.1/after-auth"),
                session: OAuthSessionSettings(
                    store: try FileCredentialStore(directory: directory),
                    options: ClientOptions(urlPolicy: URLPolicy(allowsInsecureLoopback: true)))))
        let backend = KoppeltaalBackend(
            configuration: .init(
                launchURL: emulator.url("/kt/OAuth2/Koppeltaal"),
                credentials: BasicCredentials(username: "portal", password: "portal-secret"),
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)
            ))
        _ = try await session.activate(
            code: try await backend.mobileLaunch(clientID: "KTSTESTGAME", patient: "p", user: "u").code)
        try await emulator.control("koppeltaal/expire-tokens")

        try await assertOneRefresh(family: "koppeltaal", stats: "koppeltaal/stats", refresh: "Token:refresh_token")
        // This process still holds the expired token in memory: the server refuses it, and the refresh finds the
        // rotated grant in the store instead of spending a refresh token.
        await XCTAssertEqualAsync(try await session.fhir(ResourcePath("MessageHeader", "_search")).status, 200)
        await XCTAssertEqualAsync(try await calls("koppeltaal/stats", "Token:refresh_token"), 1)
    }

    func testTwoProcessesRefreshAVitalSessionOnce() async throws {
        let hosts = VitalHostMap.all(VitalHosts(api: emulator.url("/vital/api"), auth: emulator.url("/vital/auth")))
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_emulator"), environment: .sandboxUS, hosts: hosts,
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)
            ))
        let core = VitalSession(
            configuration: .init(
                store: try FileCredentialStore(directory: directory), hosts: hosts,
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)
            ))
        try await core.signIn(token: try await backend.signInToken(forClientUserID: "alice").signInToken)
        try await emulator.control("vital/expire-tokens")

        try await assertOneRefresh(family: "vital", stats: "vital/stats", refresh: "token:refresh_token")
        await XCTAssertEqualAsync(try await core.connectedProviders().map(\.slug), ["oura"])
        await XCTAssertEqualAsync(try await calls("vital/stats", "token:refresh_token"), 1)
    }

    /// Runs the two processes and checks what they and the emulator report.
    private func assertOneRefresh(
        family: String, stats: String, refresh: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let start = Date().addingTimeInterval(2).timeIntervalSince1970
        let reports = try Self.runTogether(
            family: family, emulator: emulator.baseURL, store: directory, calls: 50, start: start)
        XCTAssertEqual(reports.count, 2, file: file, line: line)
        for report in reports {
            XCTAssertEqual(report["successes"] as? Int, 50, "\(report)", file: file, line: line)
            XCTAssertEqual((report["failures"] as? [String])?.first, nil, file: file, line: line)
        }
        XCTAssertEqual(
            reports.first?["token"] as? String, reports.last?["token"] as? String, "both end with the same credential",
            file: file, line: line)
        await XCTAssertEqualAsync(
            try await calls(stats, refresh), 1, "one refresh for 100 calls in two processes", file: file, line: line)
        await XCTAssertEqualAsync(
            try await calls(stats, refresh + ":refused"), 0, "no refresh token is spent twice", file: file, line: line)
    }

    private func calls(_ stats: String, _ name: String) async throws -> Int {
        ((try await emulator.read(stats))["calls"] as? [String: Int])?[name] ?? 0
    }

    /// Starts two `HealthSignInLifecycleWorker` processes at once and returns their JSON reports.
    static func runTogether(
        family: String, emulator: URL, store: URL, calls: Int, start: TimeInterval
    ) throws -> [[String: Any]] {
        let worker = Fixtures.repository.appendingPathComponent(".build/debug/HealthSignInLifecycleWorker")
        let arguments = [
            family, "--emulator", emulator.absoluteString, "--store", store.path, "--calls", String(calls), "--start",
            String(start),
        ]
        let processes = try (0..<2).map { _ -> (Process, Pipe, Pipe) in
            let process = Process()
            process.executableURL = worker
            process.arguments = arguments
            let (output, errors) = (Pipe(), Pipe())
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            return (process, output, errors)
        }
        return try processes.map { process, output, errors in
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0,
                let report = try? JSONSerialization.jsonObject(with: printed) as? [String: Any]
            else {
                throw WorkerFailure(
                    status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self) + complaint)
            }
            return report
        }
    }

    struct WorkerFailure: Error, CustomStringConvertible {
        let status: Int32
        let output: String
        var description: String { "HealthSignInLifecycleWorker exited with \(status): \(output)" }
    }
}
