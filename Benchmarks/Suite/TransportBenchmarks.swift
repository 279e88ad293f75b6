import Foundation
import HealthSignInCore

/// The Linux transport's connection pool: sequential calls over TLS to a server on 127.0.0.1, with connections kept
/// alive, against the same calls with a new connection (TCP and TLS handshakes) for each.
struct TransportBenchmarks {
    let repository: URL

    func run(into report: Report) async throws {
        #if canImport(HealthSignInLibcurl)
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("HealthSignInBench-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try startProbe(arguments: ["--tls", directory.path])
            defer { server.process.terminate() }
            guard let url = URL(string: "https://127.0.0.1:\(server.port)/echo") else {
                throw BenchmarkError.wrongResult("no URL for the port \(server.port)")
            }
            func transport(pool: Int) -> CurlHTTPTransport {
                CurlHTTPTransport(
                    configuration: .init(
                        timeout: 30, additionalCertificateAuthorities: directory.appendingPathComponent("ca.pem"),
                        maximumIdleConnections: pool, proxy: .none))
            }
            let kept = transport(pool: 16)
            let fresh = transport(pool: 0)
            let request = HTTPRequestMessage(method: .get, url: url)
            // Five rounds of 1,000 calls each way, in turn, after one call each to set up.
            func calls(_ transport: CurlHTTPTransport) async throws -> Double {
                try await Harness.asyncSeconds {
                    for _ in 0..<1_000 where try await transport.send(request).status != 200 {
                        throw BenchmarkError.wrongResult("a call did not answer 200")
                    }
                } / 1_000
            }
            _ = try await (kept.send(request), fresh.send(request))
            var keptSamples: [Double] = []
            var freshSamples: [Double] = []
            for _ in 0..<5 {
                keptSamples.append(try await calls(kept))
                freshSamples.append(try await calls(fresh))
            }
            let measured = (subject: Summary(keptSamples), reference: Summary(freshSamples))
            let speedup = measured.reference.median / measured.subject.median
            report.add(
                Row(
                    section: "Transport",
                    metric: "1,000 sequential HTTPS calls on 127.0.0.1, connections kept alive, per call",
                    unit: "ms", summary: measured.subject.scaled(by: 1000),
                    budget: "≥ \(Report.number(Budgets.connectionReuseSpeedup))× the calls per second of a new "
                        + "connection per call",
                    withinBudget: speedup >= Budgets.connectionReuseSpeedup,
                    note: String(
                        format: "%.2f× (a new connection per call: %.3f ms)", speedup,
                        measured.reference.median * 1000)))
        #endif
    }

    /// Starts the test suite's HTTP probe and waits for the port it prints (`READY <port>`).
    private func startProbe(arguments: [String]) throws -> (process: Process, port: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", repository.appendingPathComponent("Tests/Tools/http_probe.py").path, "--exit-with-parent"]
            + arguments
        let output = Pipe()
        process.standardOutput = output
        // The probe ends when this pipe closes, that is, with this process, however it ends.
        process.standardInput = Pipe()
        try process.run()
        var printed = ""
        while process.isRunning, !printed.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = printed.split(separator: "\n").first, line.hasPrefix("READY "),
            let port = Int(line.dropFirst("READY ".count))
        else {
            process.terminate()
            throw BenchmarkError.wrongResult("the HTTP probe did not start: \(printed)")
        }
        return (process, port)
    }
}
