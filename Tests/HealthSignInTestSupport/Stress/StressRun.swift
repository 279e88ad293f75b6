import Foundation
import XCTest

/// Runs the sequences of a lifecycle stress test, each from its own seed, and stops at the first one that breaks an
/// invariant or does not finish, failing with its seed, its trace, what it broke and how to replay it alone (the
/// violations last, beside the replay line, so an output cut to its end still shows them).
///
/// - Parameters:
///   - name: the test's name, as `swift test --filter` takes it.
///   - defaultSequences: how many sequences when `LIFECYCLE_STRESS_SEQUENCES` is not set.
///   - sequence: runs one sequence from a seeded random source and returns the monitor that watched it.
/// - Returns: what all sequences did together.
@discardableResult
public func runLifecycleStress(
    _ name: String, defaultSequences: Int, file: StaticString = #filePath, line: UInt = #line,
    sequence: (StressRandom) async -> LifecycleMonitor
) async -> StressTally {
    let settings = StressSettings.fromEnvironment(defaultSequences: defaultSequences)
    print("\(name): \(settings.sequences) sequences from seed \(settings.seed)")
    let started = ContinuousClock.now
    var tally = StressTally()
    var completed = 0
    for index in 0..<settings.sequences {
        let seed = settings.seed &+ UInt64(index)
        let monitor = await sequence(StressRandom(seed: seed))
        tally.merge(monitor.tally)
        guard monitor.violations.isEmpty else {
            XCTFail(
                """
                \(name): sequence \(index) (seed \(seed)) broke the lifecycle.
                trace:
                \(monitor.trace.joined(separator: "\n"))
                violations:
                \(monitor.violations.joined(separator: "\n"))
                replay: LIFECYCLE_STRESS_SEED=\(seed) LIFECYCLE_STRESS_SEQUENCES=1 swift test --filter \(name)
                """,
                file: file, line: line
            )
            break
        }
        completed += 1
    }
    let elapsed = (ContinuousClock.now - started).components
    let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    print("\(name): \(completed) sequences from seed \(settings.seed) in \(String(format: "%.1f", seconds)) s")
    print("\(name): \(tally.description)")
    return tally
}
