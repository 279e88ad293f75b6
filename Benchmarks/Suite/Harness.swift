import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Repeated timing with warm-up on a monotonic clock, summarised as median, minimum and maximum.
enum Harness {
    /// A monotonic instant in seconds, for differences only. `DispatchTime` rather than `ContinuousClock` keeps the
    /// package's macOS minimum at what the SDK needs.
    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// Seconds `body` takes once.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }

    /// Seconds of processor time the calling thread spends in `body`: what single-threaded work costs, without the
    /// time it waits for a core that another process holds.
    static func threadSeconds(_ body: () throws -> Void) rethrows -> Double {
        let start = threadTime()
        try body()
        return threadTime() - start
    }

    private static func threadTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Seconds `body` takes once.
    static func asyncSeconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return now() - start
    }

    /// Seconds per call of `body`: after `warmup` runs, `runs` timed runs of `iterations` calls each. With
    /// `iterations` nil, enough calls for a run to last about 20 ms, so short operations rise above timer noise.
    static func measure(warmup: Int = 2, runs: Int = 11, iterations: Int? = nil, _ body: () throws -> Void) rethrows
        -> Summary
    {
        let count = try iterations ?? calibrate(body)
        for _ in 0..<warmup { for _ in 0..<count { try body() } }
        var samples: [Double] = []
        for _ in 0..<runs {
            samples.append(try seconds { for _ in 0..<count { try body() } } / Double(count))
        }
        return Summary(samples)
    }

    /// As ``measure(warmup:runs:iterations:_:)`` for asynchronous work.
    static func measure(warmup: Int = 2, runs: Int = 11, iterations: Int, _ body: () async throws -> Void)
        async rethrows -> Summary
    {
        for _ in 0..<warmup { for _ in 0..<iterations { try await body() } }
        var samples: [Double] = []
        for _ in 0..<runs {
            samples.append(try await asyncSeconds { for _ in 0..<iterations { try await body() } } / Double(iterations))
        }
        return Summary(samples)
    }

    /// Processor seconds per call of `subject` and of `reference` on this thread, sampled in pairs (the order swapping
    /// from pair to pair) so that both samples of a pair see the same moment of the machine; `ratio` holds each
    /// pair's subject time over its reference time, whose median is what a budget on a synchronous ratio holds.
    /// Thread time leaves out the waits for a core another process holds.
    static func paired(
        runs: Int = 11, iterations: Int? = nil, _ subject: () throws -> Void, against reference: () throws -> Void
    ) throws -> (subject: Summary, reference: Summary, ratio: Summary) {
        let count = try iterations ?? calibrate(subject)
        for _ in 0..<2 {
            for _ in 0..<count {
                try subject()
                try reference()
            }
        }
        var subjects: [Double] = []
        var references: [Double] = []
        for run in 0..<runs {
            let time = { (body: () throws -> Void) in
                try threadSeconds { for _ in 0..<count { try body() } } / Double(count)
            }
            if run % 2 == 0 {
                subjects.append(try time(subject))
                references.append(try time(reference))
            } else {
                references.append(try time(reference))
                subjects.append(try time(subject))
            }
        }
        return (Summary(subjects), Summary(references), Summary(zip(subjects, references).map { $0 / $1 }))
    }

    /// Seconds per call of `subject` and of `reference`, measured in turn for `rounds` rounds so that both see the
    /// same machine; each summary holds the median of every round. Their ratio is what a budget may hold.
    static func alternating(
        rounds: Int = 3, iterations: Int, _ subject: () async throws -> Void, against reference: () async throws -> Void
    ) async rethrows -> (subject: Summary, reference: Summary) {
        var subjects: [Double] = []
        var references: [Double] = []
        for _ in 0..<rounds {
            subjects.append(try await measure(iterations: iterations, subject).median)
            references.append(try await measure(iterations: iterations, reference).median)
        }
        return (Summary(subjects), Summary(references))
    }

    /// How many calls of `body` last about 20 ms.
    private static func calibrate(_ body: () throws -> Void) rethrows -> Int {
        var count = 1
        while true {
            let elapsed = try seconds { for _ in 0..<count { try body() } }
            if elapsed >= 0.02 || count >= 1 << 24 { return count }
            count *= elapsed < 0.002 ? 10 : 2
        }
    }
}

/// The median, minimum and maximum of a set of samples.
struct Summary: Sendable, Codable {
    let median: Double
    let min: Double
    let max: Double
    let runs: Int

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.isEmpty ? 0 : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? 0
        max = sorted.last ?? 0
        runs = sorted.count
    }

    /// The same summary in another unit, e.g. `scaled(by: 1e6)` for microseconds.
    func scaled(by factor: Double) -> Summary {
        Summary(median: median * factor, min: min * factor, max: max * factor, runs: runs)
    }

    init(median: Double, min: Double, max: Double, runs: Int) {
        self.median = median
        self.min = min
        self.max = max
        self.runs = runs
    }
}
