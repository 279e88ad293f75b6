import Foundation
import HealthSignInCore
import HealthSignInVital

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the credential lifecycle costs: a call through `VitalSession`, on an in-memory store and on a file store,
/// against the same generated client call without it (all against a canned in-memory response), and two OS
/// processes sharing one file store, each making 50 concurrent calls on an expired token against the emulator (the
/// budget is one refresh between them).
struct LifecycleBenchmarks {
    /// The emulator's base URL, or nil to skip the two-process run.
    let emulator: URL?

    func run(into report: Report) async throws {
        try await overhead(into: report)
        if let emulator { try await twoProcesses(emulator, into: report) }
    }

    private func overhead(into report: Report) async throws {
        let tokens = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(Samples.vitalTokenResponse.utf8))
        let providers = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(#"{"providers": [{"name": "Oura", "slug": "oura", "status": "connected"}]}"#.utf8)
        )
        let transport = CannedTransport { $0.url.path.hasSuffix("/v1/token") ? tokens : providers }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let user = UUID()
        var sessions: [VitalSession] = []
        for store in [InMemoryCredentialStore(), try FileCredentialStore(directory: directory)] as [any CredentialStore]
        {
            let session = VitalSession(configuration: .init(store: store, transport: transport))
            try await session.signIn(token: Samples.vitalSignInToken(userID: user))
            sessions.append(session)
        }
        let bare = VitalAPIClient(
            configuration: .init(
                servers: .init(api: URL(string: "https://api.sandbox.us.junction.com")), transport: transport))
        let credential = AccessCredential.bearer(BearerToken("vat_0123456789abcdefghijklmnopqrstuv"))
        // Alternate the three so that all see the same machine load; the difference of the medians is the cost.
        var without: [Summary] = []
        var through: [[Summary]] = [[], []]
        for _ in 0..<3 {
            without.append(
                try await Harness.measure(iterations: 5_000) {
                    _ = try await bare.getConnectedProviders(.init(userID: user), credential: credential)
                })
            for (index, session) in sessions.enumerated() {
                through[index].append(
                    try await Harness.measure(iterations: 5_000) { _ = try await session.connectedProviders() })
            }
        }
        let client = Summary(without.map(\.median)).scaled(by: 1e6)
        let memory = Summary(through[0].map(\.median)).scaled(by: 1e6)
        let file = Summary(through[1].map(\.median)).scaled(by: 1e6)
        let added = memory.median - client.median
        report.add(
            Row(
                section: "Lifecycle",
                metric: "Vital GetConnectedProviders through VitalSession, over the bare client call",
                unit: "µs/call",
                summary: Summary(median: added, min: memory.min - client.max, max: memory.max - client.min, runs: 3),
                budget: "≤ \(Report.number(Budgets.lifecycleOverBareCall))× the bare call",
                withinBudget: memory.median <= Budgets.lifecycleOverBareCall * client.median,
                note: String(
                    format: "median %.2f µs with the lifecycle, %.2f µs without (ratio %.2f)", memory.median,
                    client.median, memory.median / client.median)
            ))
        // A store shared with other processes is asked at each call and before each request, so that an erase there
        // (a sign-out, a revocation) is seen at once.
        let shared = file.median - client.median
        report.add(
            Row(
                section: "Lifecycle",
                metric: "the same on a FileCredentialStore (asked at each call and each request), over the bare call",
                unit: "µs/call",
                summary: Summary(median: shared, min: file.min - client.max, max: file.max - client.min, runs: 3),
                budget: "≤ \(Report.number(Budgets.fileStoreOverBareCall))× the bare call",
                withinBudget: file.median <= Budgets.fileStoreOverBareCall * client.median,
                note: String(
                    format: "median %.2f µs on the file store, %.2f µs in memory, %.2f µs without (ratio %.2f)",
                    file.median, memory.median, client.median, file.median / client.median)
            ))
    }

    /// Two `HealthSignInLifecycleWorker` processes (built beside this one) on one file store, five times.
    private func twoProcesses(_ emulator: URL, into report: Report) async throws {
        let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "HealthSignInLifecycleWorker")
        guard FileManager.default.isExecutableFile(atPath: worker.path) else {
            FileHandle.standardError.write(Data("  Lifecycle: no \(worker.path); skipping the two-process run\n".utf8))
            return
        }
        let control = EmulatorControl(base: emulator)
        let hosts = VitalHostMap.all(VitalHosts(api: control.url("/vital/api"), auth: control.url("/vital/auth")))
        let policy = URLPolicy(allowsInsecureLoopback: true)
        var times: [Double] = []
        var refreshes: [Int] = []
        var refused: [Int] = []
        for _ in 0..<5 {
            try await control.post("reset")
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "bench-shared-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let backend = VitalBackend(
                configuration: .init(
                    apiKey: APIKey("sk_us_emulator"), environment: .sandboxUS, hosts: hosts, urlPolicy: policy))
            let core = VitalSession(
                configuration: .init(
                    store: try FileCredentialStore(directory: directory), hosts: hosts, urlPolicy: policy))
            try await core.signIn(token: try await backend.signInToken(forClientUserID: "bench").signInToken)
            try await control.post("vital/expire-tokens")
            let start = Date().addingTimeInterval(1.5).timeIntervalSince1970
            let arguments = [
                "vital", "--emulator", emulator.absoluteString, "--store", directory.path, "--calls", "50", "--start",
                String(start),
            ]
            let costs = try await withThrowingTaskGroup(of: ChildProcess.Cost.self) { group in
                for _ in 0..<2 { group.addTask { try ChildProcess.run([worker.path] + arguments) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Each process waits for the common start; what counts is how long after it the later one ended.
            times.append(costs.map(\.seconds).max() ?? 0)
            let calls = try await control.get("vital/stats")["calls"] as? [String: Int] ?? [:]
            refreshes.append(calls["token:refresh_token"] ?? 0)
            refused.append(calls["token:refresh_token:refused"] ?? 0)
        }
        report.add(
            Row(
                section: "Lifecycle",
                metric: "2 processes × 50 concurrent Vital calls on one file store, expired token",
                unit: "s (process, incl. 1.5 s start wait)", summary: Summary(times),
                budget: "exactly 1 refresh request",
                withinBudget: refreshes.allSatisfy { $0 == 1 } && refused.allSatisfy { $0 == 0 },
                note: "refresh requests per run: " + refreshes.map(String.init).joined(separator: ", ")
                    + "; refused: " + refused.map(String.init).joined(separator: ", ")
            ))
    }
}

/// The emulator's control endpoints.
private struct EmulatorControl {
    let base: URL

    func url(_ path: String) -> URL { URL(string: base.absoluteString + path) ?? base }

    @discardableResult
    func post(_ path: String) async throws -> [String: Any] {
        var request = URLRequest(url: url("/_control/" + path))
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return try await send(request)
    }

    func get(_ path: String) async throws -> [String: Any] { try await send(URLRequest(url: url("/_control/" + path))) }

    private func send(_ request: URLRequest) async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
