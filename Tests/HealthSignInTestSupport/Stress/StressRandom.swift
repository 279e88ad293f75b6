import Foundation
import HealthSignInCore

/// A small, fast, seedable random number generator (SplitMix64), so that a failing run can be made again.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }
}

/// A ``SplitMix64`` that concurrent tasks can share, so a stress run is chosen by one number.
///
/// Concurrent operations draw from streams of their own (``split()``, made current with ``withStream(_:_:)``), so
/// that what one operation draws does not depend on how far the others have got.
public final class StressRandom: Sendable {
    private let generator: LockedValue<SplitMix64>

    /// The stream of the operation the current task runs, if any.
    @TaskLocal private static var operationStream: StressRandom?

    /// Starts the sequence at `seed`.
    public init(seed: UInt64) { generator = LockedValue(SplitMix64(seed: seed)) }

    /// A new stream, seeded from this one.
    public func split() -> StressRandom { StressRandom(seed: generator.withValue { $0.next() }) }

    /// The stream an operation running in the current task draws from: its own when it has one, else this one.
    public var current: StressRandom { Self.operationStream ?? self }

    /// Runs `body` with `stream` as the current task's stream (``current``), and the tasks it starts.
    public static func withStream<Result: Sendable>(
        _ stream: StressRandom, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await $operationStream.withValue(stream, operation: body)
    }

    /// A number in `range`.
    public func int(in range: ClosedRange<Int>) -> Int { generator.withValue { $0.next(in: range) } }

    /// True with probability `probability`.
    public func chance(_ probability: Double) -> Bool { generator.withValue { $0.chance(probability) } }

    /// One of `choices`, each as likely as its weight.
    public func pick<Choice>(_ choices: [(weight: Int, choice: Choice)]) -> Choice {
        var roll = int(in: 0...(choices.reduce(0) { $0 + $1.weight } - 1))
        for (weight, choice) in choices {
            if roll < weight { return choice }
            roll -= weight
        }
        return choices[choices.count - 1].choice
    }
}

/// How many sequences a stress run makes and from which seed: `LIFECYCLE_STRESS_SEQUENCES` from the environment
/// (`make stress` sets it) or the default, and ``ProofSeed/lifecycle``. Sequence `i` uses seed `seed + i`, so one
/// failing sequence replays alone with its own seed and a count of 1.
public struct StressSettings: Sendable {
    /// How many sequences.
    public let sequences: Int
    /// The first sequence's seed.
    public let seed: UInt64

    /// The count from the environment, else `defaultSequences`, and the lifecycle proofs' seed.
    public static func fromEnvironment(defaultSequences: Int) -> StressSettings {
        let environment = ProcessInfo.processInfo.environment
        let sequences = environment["LIFECYCLE_STRESS_SEQUENCES"].flatMap(Int.init) ?? defaultSequences
        return StressSettings(sequences: sequences, seed: ProofSeed.lifecycle.draw(environment: environment))
    }
}

/// Counts of what a stress run did, printed at its end.
public struct StressTally: Sendable {
    private var counts: [String: Int] = [:]

    /// An empty tally.
    public init() {}

    /// Adds `amount` to `name`.
    public mutating func add(_ name: String, _ amount: Int = 1) { counts[name, default: 0] += amount }

    /// The count for `name`.
    public subscript(name: String) -> Int { counts[name] ?? 0 }

    /// Adds another tally.
    public mutating func merge(_ other: StressTally) {
        for (name, count) in other.counts { counts[name, default: 0] += count }
    }

    /// `name count` pairs, sorted by name.
    public var description: String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
