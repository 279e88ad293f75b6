import AsyncHTTPClient
import Foundation
import HealthSignInAsyncHTTPClient
import HealthSignInHTTP
import NIOSSL

/// The SDK's default transport (libcurl on Linux) against the AsyncHTTPClient transport, in one run, on the same
/// HTTPS server on 127.0.0.1: sequential calls and 64 concurrent callers, each call's latency (p50, p99) and the calls
/// per second, each the median of five rounds. The transports take turns (sequential calls in blocks of 100, rounds
/// of concurrent calls), so both see the same load. Budget: the default transport
/// is not slower than AsyncHTTPClient by more than 1.5× on any row. Exits 1 when a row misses it, 2 when a
/// measurement cannot be made.
@main
struct TransportBench {
    static let budget = 1.5
    static let rounds = 5
    static let sequentialCalls = 1_000
    static let callers = 64
    static let callsPerCaller = 25

    static func main() async {
        do {
            let withinBudget = try await run()
            exit(withinBudget ? 0 : 1)
        } catch {
            print("transport bench: \(error)")
            exit(2)
        }
    }

    private static func run() async throws -> Bool {
        let certificates = try Certificates()
        defer { certificates.remove() }
        let server = try TLSServer(certificate: certificates.certificate, key: certificates.key)
        defer { server.stop() }
        guard let url = URL(string: "https://127.0.0.1:\(server.port)/token") else { throw BenchError("no URL") }

        let curl = DefaultHTTPTransport(timeout: 30, additionalCertificateAuthorities: certificates.authority)
        var base = HTTPClient.Configuration()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(certificates.authority.path)
        base.tlsConfiguration = tls
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration(base))
        do {
            let within = try await compare(curl, with: client, url: url)
            try await client.shutdown()
            return within
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    private static func compare(_ curl: any HTTPTransport, with client: HTTPClient, url: URL) async throws -> Bool {
        let asyncHTTPClient = AsyncHTTPClientTransport(client: client, configuration: .init(timeout: 30))
        let transports: [(name: String, transport: any HTTPTransport)] = [
            ("default (libcurl)", curl), ("AsyncHTTPClient", asyncHTTPClient),
        ]

        let request = HTTPRequestMessage(method: .get, url: url)
        // Warm-up: connections, TLS sessions, both pools filled for the concurrent rounds.
        for (_, transport) in transports {
            _ = try await measure(transport, request, callers: callers, callsPerCaller: 4)
        }
        var results: [String: [Mode: [Round]]] = [:]
        for round in 0..<rounds {
            let order = round.isMultiple(of: 2) ? transports : transports.reversed()
            // Sequential calls in blocks of 100, the transports taking turns, so that both meet the same moments
            // of another process's load: a tail percentile is made of such moments.
            var blocks: [String: [Round]] = [:]
            for _ in 0..<(sequentialCalls / 100) {
                for (name, transport) in order {
                    blocks[name, default: []].append(
                        try await measure(transport, request, callers: 1, callsPerCaller: 100))
                }
            }
            for (name, transport) in order {
                let parts = blocks[name] ?? []
                results[name, default: [:]][.sequential, default: []].append(
                    Round(latencies: parts.flatMap(\.latencies), seconds: parts.reduce(0) { $0 + $1.seconds }))
                results[name, default: [:]][.concurrent, default: []].append(
                    try await measure(transport, request, callers: callers, callsPerCaller: callsPerCaller))
            }
        }
        return report(results, subject: transports[0].name, reference: transports[1].name)
    }

    enum Mode: CaseIterable {
        case sequential, concurrent

        var title: String {
            switch self {
            case .sequential: "sequential"
            case .concurrent: "\(TransportBench.callers) concurrent callers"
            }
        }
    }

    /// One round: every call's latency in seconds, and the round's wall time.
    struct Round {
        let latencies: [Double]
        let seconds: Double
    }

    private static func measure(
        _ transport: any HTTPTransport, _ request: HTTPRequestMessage, callers: Int, callsPerCaller: Int
    ) async throws -> Round {
        let clock = ContinuousClock()
        let started = clock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<callers {
                group.addTask {
                    var latencies: [Double] = []
                    latencies.reserveCapacity(callsPerCaller)
                    for _ in 0..<callsPerCaller {
                        let start = clock.now
                        let response = try await transport.send(request)
                        guard response.status == 200, response.body == Data("ok".utf8) else {
                            throw BenchError("a call answered \(response.status)")
                        }
                        latencies.append(seconds(start.duration(to: clock.now)))
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return Round(latencies: latencies, seconds: seconds(started.duration(to: clock.now)))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    private static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    /// Prints the table and returns whether every row is within the budget.
    private static func report(_ results: [String: [Mode: [Round]]], subject: String, reference: String) -> Bool {
        print("Each figure is the median of \(rounds) rounds (a percentile is taken within each round).")
        print("| Calls | Measure | \(subject) | \(reference) | \(subject) slower by | Budget |")
        print("|---|---|---|---|---|---|")
        var within = true
        for mode in Mode.allCases {
            guard let mine = results[subject]?[mode], let theirs = results[reference]?[mode] else { continue }
            let callsPerRound = Double(mine[0].latencies.count)
            // Each round's percentile, then the median of the rounds: one round disturbed by another process on the
            // machine moves neither side's figure.
            func perRound(_ rounds: [Round], _ fraction: Double) -> Double {
                median(rounds.map { percentile($0.latencies, fraction) }) * 1000
            }
            let rows: [(String, Double, Double, Bool)] = [
                ("p50 latency (ms)", perRound(mine, 0.5), perRound(theirs, 0.5), true),
                ("p99 latency (ms)", perRound(mine, 0.99), perRound(theirs, 0.99), true),
                (
                    "calls per second", median(mine.map { callsPerRound / $0.seconds }),
                    median(theirs.map { callsPerRound / $0.seconds }), false
                ),
            ]
            for (measure, own, other, lowerIsBetter) in rows {
                let slower = lowerIsBetter ? own / other : other / own
                let ok = slower <= budget
                within = within && ok
                print(
                    "| \(mode.title) | \(measure) | \(format(own)) | \(format(other)) | \(format(slower))× | "
                        + "≤ \(format(budget))× \(ok ? "ok" : "MISSED") |")
            }
        }
        return within
    }

    private static func format(_ value: Double) -> String { String(format: value >= 100 ? "%.0f" : "%.2f", value) }
}
