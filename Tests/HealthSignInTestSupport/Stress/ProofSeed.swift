import Foundation

/// Where a randomized proof takes its seed from, so that `make test` gives the same verdict on every run of a commit
/// while `make stress` explores.
///
/// In order: the proof's own environment variable, which replays a run (`SDK_DIFF_SEED=2036547648`); a fresh seed
/// when `SDK_FRESH_SEEDS` is set, as `make stress` does; else ``fixed``, the seed written here. Every proof prints
/// the seed it drew, where it came from and the command that replays it.
///
/// A failure that a fresh seed finds is fixed, and the seed (or the case it drew) joins the proof's regressions, so
/// `make test` keeps checking it.
public struct ProofSeed: Sendable {
    /// The proof's name, as its output starts.
    public let proof: String
    /// The environment variable that replays a seed.
    public let variable: String
    /// The seed `make test` draws from.
    public let fixed: UInt64

    /// The variable `make stress` sets so that every proof draws a fresh seed.
    public static let freshSeedsVariable = "SDK_FRESH_SEEDS"

    /// The seed of this run, printed with where it came from and how to replay it.
    public func draw(environment: [String: String] = ProcessInfo.processInfo.environment) -> UInt64 {
        let (seed, origin) = choose(environment)
        print("\(proof): seed \(seed) (\(origin)); replay with \(variable)=\(seed)")
        return seed
    }

    /// The seed and where it came from, without printing.
    func choose(_ environment: [String: String]) -> (UInt64, String) {
        if let text = environment[variable], let seed = UInt64(text) { return (seed, "from \(variable)") }
        if let fresh = environment[Self.freshSeedsVariable], !fresh.isEmpty, fresh != "0" {
            // Fresh seeds stay below 2^32: the schema drawing script and the lifecycle stress take them as they are.
            return (UInt64.random(in: 1...UInt64(UInt32.max)), "fresh")
        }
        return (fixed, "the repository's; \(Self.freshSeedsVariable)=1 draws a fresh one")
    }
}

extension ProofSeed {
    /// `sdkgen diff`'s verdicts against the compiler and the runtime (`DiffProofTests`).
    public static let diffProof = ProofSeed(proof: "DiffProofTests", variable: "SDK_DIFF_SEED", fixed: 4_217_309)
    /// The generated validation against Python `jsonschema` on random schemas (`SchemaVerdictTests`).
    public static let schemaVerdicts = ProofSeed(
        proof: "SchemaVerdictTests", variable: "SDK_SCHEMA_VERDICT_SEED", fixed: 2_718_281)
    /// A payload of Swift code in a sample of the shipped schemas' text fields (`HostileSchemaTests`).
    public static let hostileSchemas = ProofSeed(
        proof: "HostileSchemaTests", variable: "SDK_HOSTILE_SEED", fixed: 1_414_213)
    /// A random family of each binding compiled and round-tripped (`RandomSchemaTests`).
    public static let randomSchemas = ProofSeed(
        proof: "RandomSchemaTests", variable: "SDK_RANDOM_SCHEMA_SEED", fixed: 1_732_050)
    /// Random sequences of each family's credential lifecycle (`LifecycleStressTests`); sequence `i` uses seed `+ i`.
    public static let lifecycle = ProofSeed(
        proof: "LifecycleStressTests", variable: "LIFECYCLE_STRESS_SEED", fixed: 3_141_592)
    /// Random digit strings read as wire scalars (`WireScalarBytesTests`).
    public static let wireScalars = ProofSeed(
        proof: "WireScalarBytesTests", variable: "SDK_WIRE_SCALAR_SEED", fixed: 2_236_067)
    /// Random dates formatted and read back (`DateTimeTextTests`).
    public static let dateTimeText = ProofSeed(
        proof: "DateTimeTextTests", variable: "SDK_DATE_TIME_SEED", fixed: 1_618_033)
    /// Random values written by the runtime's JSON writer and by Foundation's `JSONEncoder` (`JSONValueEncoderTests`).
    public static let jsonWriting = ProofSeed(
        proof: "JSONValueEncoderTests", variable: "SDK_JSON_WRITING_SEED", fixed: 1_324_717)
}
