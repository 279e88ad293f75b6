import Foundation
import HealthSignInCredentials
import HealthSignInOAuth
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A fleet of four backend processes (`HealthSignInFleetWorker`) shares one SMART confidential grant in PostgreSQL,
/// against the emulator, whose refresh tokens rotate (a spent one is refused). Through a refresh, a restart of the
/// database and an outage of it: one rotation, no token lost, and nobody signed out.
final class FleetTests: XCTestCase {
    private var emulator: URL!
    private var table: String!

    override func setUp() async throws {
        emulator = try XCTUnwrap(URL(string: try TestDatabase.variable("EMULATOR_URL")))
        table = TestDatabase.freshTable()
        try await control("reset")
    }

    /// 1,000 calls at once, 250 in each process, with an access token the server has expired: one refresh.
    func testFourProcessesMakeOneRefreshFor1000Calls() async throws {
        try await signIn()
        try await control("smart/expire-tokens")
        let reports = try runFleet(callsEach: 250)
        for report in reports {
            XCTAssertEqual(report.successes, 250, "\(report.failures.prefix(3))")
        }
        XCTAssertEqual(Set(reports.map(\.token)).count, 1, "every process ends with the same token")
        let stats = try await smartStats()
        XCTAssertEqual(stats.refreshes, 1, "one refresh for 1,000 calls in four processes")
        XCTAssertEqual(stats.refusedRefreshes, 0, "no refresh token was spent twice")
    }

    /// The database goes down while the refresh waits for the token server (2 s), and comes back only after the new
    /// tokens have arrived (3.5 s in): the refreshing process keeps trying its write until it lands; the others
    /// succeed or get a typed transient error. Nothing is rotated twice, and the tokens stored are the live ones: the
    /// next refresh, with the stored refresh token, is accepted.
    func testADatabaseRestartDuringTheRefreshLosesNoTokenAndRotatesOnce() async throws {
        try await signIn()
        try await control("smart/expire-tokens")
        try await control("faults", ["kind": "latency", "path": "/smart/auth/token", "seconds": 2, "count": 1])
        let start = Date().addingTimeInterval(3)
        let outage = Task.detached { () -> TimeInterval in
            try await Task.sleep(for: .milliseconds(Int(start.timeIntervalSinceNow * 1_000) + 1_000))
            try TestDatabase.control("stop")
            let stopped = -start.timeIntervalSinceNow
            try await Task.sleep(for: .milliseconds(Int(start.timeIntervalSinceNow * 1_000) + 3_500))
            try TestDatabase.control("start")
            return stopped
        }
        let reports: [WorkerReport]
        do {
            reports = try runFleet(callsEach: 50, start: start)
        } catch {
            _ = try? await outage.value
            throw error
        }
        let stopped = try await outage.value
        XCTAssertLessThan(stopped, 2, "the database was down before the token server answered")
        for failure in reports.flatMap(\.failures) {
            XCTAssertEqual(failure["recovery"], "retryLater", "a failure that is not transient: \(failure)")
        }
        XCTAssertGreaterThan(reports.map(\.successes).reduce(0, +), 0, "the refreshing process's calls succeed")
        let during = try await smartStats()
        XCTAssertEqual(during.refreshes, 1)
        XCTAssertEqual(during.refusedRefreshes, 0)

        // Afterwards every process uses the rotated grant, without refreshing again.
        let after = try runFleet(callsEach: 50)
        XCTAssertEqual(after.map(\.successes), [50, 50, 50, 50], "\(after.flatMap(\.failures).prefix(3))")
        XCTAssertEqual(Set(after.map(\.token)).count, 1)
        let kept = try await smartStats()
        XCTAssertEqual(kept.refreshes, 1, "the tokens the refresh brought were kept")
        // And the refresh token stored is the one the server holds live.
        try await control("smart/expire-tokens")
        let next = try runWorkers(1, ["--calls", "10", "--start", String(Date().timeIntervalSince1970)])
        XCTAssertEqual(next.first?.successes, 10, "\(next)")
        let stats = try await smartStats()
        XCTAssertEqual(stats.refreshes, 2)
        XCTAssertEqual(stats.refusedRefreshes, 0)
    }

    /// The database is down while the access token has expired: every call fails with the store's typed transient
    /// error and nothing is refreshed or erased; once it is back, one refresh and every call succeeds.
    func testAnUnreachableDatabaseIsATypedErrorAndSignsNobodyOut() async throws {
        try await signIn()
        try await control("smart/expire-tokens")
        try TestDatabase.control("stop")
        let down: [WorkerReport]
        do {
            down = try runFleet(callsEach: 25)
            try TestDatabase.control("start")
        } catch {
            try TestDatabase.control("start")
            throw error
        }
        for report in down {
            XCTAssertEqual(report.successes, 0)
            XCTAssertEqual(report.failures.count, 25)
            for failure in report.failures {
                XCTAssertEqual(failure["type"], "PostgresCredentialStoreError", "\(failure)")
                XCTAssertEqual(failure["recovery"], "retryLater", "\(failure)")
            }
            XCTAssertEqual(report.status, "unreadable", "the status is an error too, never signed out")
        }
        let whileDown = try await smartStats()
        XCTAssertEqual(whileDown.refreshes, 0)

        let up = try runFleet(callsEach: 25)
        XCTAssertEqual(up.map(\.successes), [25, 25, 25, 25], "\(up.flatMap(\.failures).prefix(3))")
        XCTAssertTrue(up.allSatisfy { $0.status.hasPrefix("authorized") }, "\(up.map(\.status))")
        let stats = try await smartStats()
        XCTAssertEqual(stats.refreshes, 1)
        XCTAssertEqual(stats.refusedRefreshes, 0)
    }

    /// A stopped database, then one that accepts connections and never answers for 10 s: four processes that hold a
    /// valid access token keep answering every call from memory, and nothing is asked of the token server. Afterwards
    /// the expired token is refreshed once for the fleet.
    func testCallsHoldingAValidTokenKeepSucceedingWhileTheDatabaseIsStoppedOrSilent() async throws {
        try await signIn()
        for (fault, undo) in [("stop", "start"), ("pause", "resume")] {
            let reports = try await runFleetThroughAnOutage(begin: { try TestDatabase.control(fault) }, end: undo)
            Self.note("database \(fault)", reports)
            XCTAssertEqual(
                reports.map(\.successes), [50, 50, 50, 50], "\(fault): \(reports.flatMap(\.failures).prefix(3))")
        }
        let untouched = try await smartStats()
        XCTAssertEqual(untouched.refreshes, 0, "nothing was refreshed")

        try await control("smart/expire-tokens")
        let after = try runFleet(callsEach: 50)
        XCTAssertEqual(after.map(\.successes), [50, 50, 50, 50], "\(after.flatMap(\.failures).prefix(3))")
        let stats = try await smartStats()
        XCTAssertEqual(stats.refreshes, 1, "one token request for the fleet after recovery")
        XCTAssertEqual(stats.refusedRefreshes, 0)
    }

    /// The server ends the access token while the database accepts connections and never answers for 10 s: every call
    /// of four processes needs a refresh. Each either succeeds once the database answers again or fails with a typed
    /// transient error, nothing is lost, nobody is signed out, and the fleet refreshes once.
    func testCallsNeedingARefreshWhileTheDatabaseIsSilentEndTypedAndTheFleetRefreshesOnce() async throws {
        try await signIn()
        let emulator: URL = self.emulator
        let reports = try await runFleetThroughAnOutage(
            begin: {
                try TestDatabase.control("pause")
                try await expireTokens(at: emulator)
            }, end: "resume")
        Self.note("database silent, token expired", reports)
        for failure in reports.flatMap(\.failures) {
            XCTAssertEqual(failure["recovery"], "retryLater", "a failure that is not transient: \(failure)")
        }
        XCTAssertLessThan(reports.map(\.slowest).max() ?? 0, 30, "every call ended within its deadlines")
        let stats = try await smartStats()
        XCTAssertEqual(stats.refreshes, 1, "one refresh for the fleet")
        XCTAssertEqual(stats.refusedRefreshes, 0, "no refresh token was spent twice")

        let after = try runFleet(callsEach: 50)
        XCTAssertEqual(after.map(\.successes), [50, 50, 50, 50], "\(after.flatMap(\.failures).prefix(3))")
        XCTAssertTrue(after.allSatisfy { $0.status.hasPrefix("authorized") }, "\(after.map(\.status))")
        let kept = try await smartStats()
        XCTAssertEqual(kept.refreshes, 1, "the refreshed tokens were kept")
    }

    /// A process holding the lease mid-refresh is killed with SIGKILL: the others, whose token the server has ended,
    /// wait for the lease to run out (6 s here), then one of them refreshes for all: every call succeeds, none waits
    /// much longer than the lease, and the grant is intact.
    func testAHolderKilledMidRefreshDelaysTheOthersByAtMostTheLease() async throws {
        try await signIn()
        let holder = try startWorker(["--hold-lock", "yes", "--lease", "6"])
        let line = holder.output.fileHandleForReading.availableLine()
        XCTAssertEqual(line, "holding")
        kill(holder.process.processIdentifier, SIGKILL)
        holder.process.waitUntilExit()
        let killed = Date()
        try await control("smart/expire-tokens")
        let reports = try runWorkers(
            3, ["--calls", "50", "--start", String(Date().timeIntervalSince1970), "--lease", "6"])
        Self.note("lease holder killed", reports)
        XCTAssertEqual(reports.map(\.successes), [50, 50, 50], "\(reports.flatMap(\.failures).prefix(3))")
        XCTAssertLessThan(reports.map(\.slowest).max() ?? 99, 6 + 4, "no call waited much longer than the lease")
        XCTAssertLessThan(Date().timeIntervalSince(killed), 30)
        let stats = try await smartStats()
        XCTAssertEqual(stats.refreshes, 1, "one refresh once the lease ran out")
        XCTAssertEqual(stats.refusedRefreshes, 0, "the grant is intact")
    }

    /// Prints what a run did, for the record: calls, successes, failures, the slowest call.
    private static func note(_ name: String, _ reports: [WorkerReport]) {
        let calls = reports.map { $0.successes + $0.failures.count }.reduce(0, +)
        let successes = reports.map(\.successes).reduce(0, +)
        let slowest = String(format: "%.2f", reports.map(\.slowest).max() ?? 0)
        print(
            "FleetTests: \(name): \(calls) calls, \(successes) succeeded, \(calls - successes) failed, slowest \(slowest) s"
        )
    }

    // MARK: - The fleet

    /// Signs the confidential client in through the emulator's authorization page, keeping the grant in the table.
    private func signIn() async throws {
        let report = try runWorkers(1, ["--sign-in", "yes"])
        XCTAssertTrue(report.first?.status.hasPrefix("authorized") == true, "\(report)")
    }

    struct WorkerReport {
        let successes: Int
        let failures: [[String: String]]
        let token: String
        let status: String
        let slowest: Double
    }

    /// Starts four worker processes together, at `start` (in 2 s by default), and returns their reports.
    private func runFleet(callsEach: Int, start: Date = Date().addingTimeInterval(2), warm: Bool = false) throws
        -> [WorkerReport]
    {
        try runWorkers(
            4,
            ["--calls", String(callsEach), "--start", String(start.timeIntervalSince1970)]
                + (warm ? ["--warm", "yes"] : []))
    }

    /// Runs four warm workers of 50 calls each, starting together in 6 s, through an outage that `begin` starts a
    /// second before they start and the database control command `end` ends 9 s after, whatever the fleet's outcome.
    private func runFleetThroughAnOutage(begin: @escaping @Sendable () async throws -> Void, end: String) async throws
        -> [WorkerReport]
    {
        let start = Date().addingTimeInterval(6)
        let outage = Task.detached {
            try await Task.sleep(for: .milliseconds(Int(start.timeIntervalSinceNow * 1_000) - 1_000))
            try await begin()
            try await Task.sleep(for: .milliseconds(Int(start.timeIntervalSinceNow * 1_000) + 9_000))
            try TestDatabase.control(end)
        }
        do {
            let reports = try runFleet(callsEach: 50, start: start, warm: true)
            try await outage.value
            return reports
        } catch {
            _ = try? await outage.value
            throw error
        }
    }

    /// Starts one worker process with `arguments`, its output piped.
    private func startWorker(_ arguments: [String]) throws -> (process: Process, output: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("HealthSignInFleetWorker")
        process.arguments = ["--emulator", emulator.absoluteString, "--table", table] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }

    /// Runs `count` worker processes with `arguments` and returns their reports.
    private func runWorkers(_ count: Int, _ arguments: [String]) throws -> [WorkerReport] {
        // The worker is built beside the test bundle.
        let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("HealthSignInFleetWorker")
        let processes = try (0..<count).map { _ -> (Process, Pipe, Pipe) in
            let process = Process()
            process.executableURL = worker
            process.arguments = ["--emulator", emulator.absoluteString, "--table", table] + arguments
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
                throw TestDatabase.Missing(variable: "a worker report (\(process.terminationStatus)): \(complaint)")
            }
            return WorkerReport(
                successes: report["successes"] as? Int ?? -1, failures: report["failures"] as? [[String: String]] ?? [],
                token: report["token"] as? String ?? "", status: report["status"] as? String ?? "",
                slowest: report["slowest"] as? Double ?? -1)
        }
    }

    // MARK: - The emulator

    private func control(_ path: String, _ body: [String: any Sendable] = [:]) async throws {
        var request = URLRequest(url: emulator.appendingPathComponent("_control/" + path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, path)
    }

    private func smartStats() async throws -> (refreshes: Int, refusedRefreshes: Int) {
        let (data, _) = try await URLSession.shared.data(from: emulator.appendingPathComponent("_control/smart/stats"))
        let stats = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let token = stats["token"] as? [String: Int]
        let refused = stats["token_refused"] as? [String: Int]
        return (token?["refresh_token"] ?? -1, refused?["refresh_token"] ?? 0)
    }
}

/// Has the emulator end every SMART access token it issued.
private func expireTokens(at emulator: URL) async throws {
    var request = URLRequest(url: emulator.appendingPathComponent("_control/smart/expire-tokens"))
    request.httpMethod = "POST"
    request.httpBody = Data("{}".utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    _ = try await URLSession.shared.data(for: request)
}

extension FileHandle {
    /// The first line written to this pipe, waiting for it; nil at its end.
    fileprivate func availableLine() -> String? {
        var bytes = Data()
        while true {
            let chunk = readData(ofLength: 1)
            if chunk.isEmpty { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if chunk == Data("\n".utf8) { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(chunk)
        }
    }
}
