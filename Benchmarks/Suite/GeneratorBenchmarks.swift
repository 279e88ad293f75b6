import Foundation
import HealthSignInSyntheticSchemas

/// Whole-process runs of the release `sdkgen`: on the shipped schemas, and on synthetic families of 10, 100 and
/// 1,000 methods generated from scratch.
struct GeneratorBenchmarks {
    let sdkgen: String
    let repository: URL
    /// Where generated files go (ideally memory-backed, so that the disk's speed is not measured).
    let workspace: URL
    /// A directory on the repository's disk, for one run that includes the disk.
    let disk: URL

    /// The synthetic family sizes.
    static let sizes = [10, 100, 1000]

    /// Where the generated Swift of the synthetic family with `size` methods lands.
    func sources(size: Int) -> URL { workspace.appendingPathComponent("generator-\(size)/Sources") }

    func run(into report: Report) throws {
        try shipped(into: report)
        var instructionsPerMethod: [Int: Double] = [:]
        for size in Self.sizes {
            instructionsPerMethod[size] = try synthetic(size: size, into: report)
        }
        if disk.path != workspace.path { try toDisk(into: report) }
        if let small = instructionsPerMethod[100], let large = instructionsPerMethod[1000] {
            report.add(
                Row(
                    section: "Generator", metric: "instructions per method, 1,000 vs 100 methods", unit: "ratio",
                    summary: Summary([large / small]), budget: "≤ \(Budgets.instructionGrowth) (linear)",
                    withinBudget: large / small <= Budgets.instructionGrowth))
        }
    }

    /// `sdkgen --check` on the shipped schemas, and on the protocol families alone (a copy of the schemas without
    /// `FHIR`): time, peak memory and instructions. The FHIR family is most of the first; the second keeps a change
    /// to the protocol families' cost in sight.
    private func shipped(into report: Report) throws {
        let schemas = repository.appendingPathComponent("Schemas")
        let names = try FileManager.default.contentsOfDirectory(atPath: schemas.path).filter {
            FileManager.default.fileExists(atPath: schemas.appendingPathComponent("\($0)/protocol.json").path)
        }
        // Named Schemas, as generated files name the folder their schemas came from.
        let protocolsOnly = workspace.appendingPathComponent("protocol-families/Schemas")
        try? FileManager.default.removeItem(at: protocolsOnly)
        try FileManager.default.createDirectory(at: protocolsOnly, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: schemas.path) where name != "FHIR" {
            try FileManager.default.copyItem(
                at: schemas.appendingPathComponent(name), to: protocolsOnly.appendingPathComponent(name))
        }
        try check(
            schemas, label: "shipped schemas, \(names.count) families", budget: Budgets.shippedCheckInstructions,
            into: report)
        try check(
            protocolsOnly, label: "protocol families, \(names.count - 1) (shipped without FHIR)",
            budget: Budgets.protocolFamiliesCheckInstructions, into: report)
    }

    /// `sdkgen --check` on `schemas` against the repository's sources: 11 timed runs and one counted.
    private func check(_ schemas: URL, label: String, budget: Int, into report: Report) throws {
        let check = [
            sdkgen, "--schemas", schemas.path, "--output", repository.appendingPathComponent("Sources").path, "--check",
        ]
        let runs = try (0..<11).map { _ in try ChildProcess.run(check) }
        report.add(
            Row(
                section: "Generator", metric: "\(label) (--check)", unit: "ms",
                summary: Summary(runs.map(\.seconds)).scaled(by: 1000), note: "peak \(Self.mebibytes(runs))"))
        let instructions = try InstructionCount.of(check)
        report.add(
            Row(
                section: "Generator", metric: "\(label) (--check), instructions", unit: "M instr",
                summary: Summary([Double(instructions) / 1e6]), budget: "≤ \(budget / 1_000_000) M",
                withinBudget: instructions <= budget))
    }

    /// `sdkgen` on a synthetic family of `size` methods, from scratch; returns the instructions per method.
    private func synthetic(size: Int, into report: Report) throws -> Double {
        let root = workspace.appendingPathComponent("generator-\(size)")
        try SyntheticSchemas(methods: size).write(to: root.appendingPathComponent("Schemas"))
        let command = [
            sdkgen, "--schemas", root.appendingPathComponent("Schemas").path, "--output", sources(size: size).path,
        ]
        var costs: [ChildProcess.Cost] = []
        for run in 0..<(size >= 1000 ? 6 : 11) {
            try? FileManager.default.removeItem(at: sources(size: size))
            let cost = try ChildProcess.run(command)
            if run > 0 { costs.append(cost) }  // the first run warms the file system cache
        }
        try? FileManager.default.removeItem(at: sources(size: size))
        let instructions = Double(try InstructionCount.of(command)) / Double(size)
        let (lines, bytes) = try Self.count(sources(size: size))
        report.add(
            Row(
                section: "Generator", metric: "synthetic family, \(size) methods (from scratch)", unit: "ms",
                summary: Summary(costs.map(\.seconds)).scaled(by: 1000),
                note: "\(lines / size) lines, \(bytes / size) bytes per method; peak \(Self.mebibytes(costs))"))
        report.add(
            Row(
                section: "Generator", metric: "synthetic family, \(size) methods, instructions per method",
                unit: "M instr", summary: Summary([instructions / 1e6]),
                budget: size == 1000
                    ? "≤ \(Report.number(Double(Budgets.instructionsPerSyntheticMethod) / 1e6)) M" : nil,
                withinBudget: size == 1000 ? instructions <= Double(Budgets.instructionsPerSyntheticMethod) : nil))
        if size == GeneratedCodeBudget.methods {
            let perMethod = Double(lines) / Double(size)
            let bytesPerMethod = Double(bytes) / Double(size)
            report.add(
                Row(
                    section: "Generator",
                    metric: "generated lines per synthetic method (\(size) methods, client included)",
                    unit: "lines", summary: Summary([perMethod]), budget: "≤ \(GeneratedCodeBudget.linesPerMethod)",
                    withinBudget: perMethod <= Double(GeneratedCodeBudget.linesPerMethod)
                        && bytesPerMethod <= Double(GeneratedCodeBudget.bytesPerMethod),
                    note: String(
                        format: "%.0f bytes per method (≤ %d); both also checked by make test", bytesPerMethod,
                        GeneratedCodeBudget.bytesPerMethod)
                ))
        }
        return instructions
    }

    /// The 1,000-method family written to the disk rather than to memory.
    private func toDisk(into report: Report) throws {
        let target = disk.appendingPathComponent("generator-disk")
        let command = [
            sdkgen, "--schemas", workspace.appendingPathComponent("generator-1000/Schemas").path, "--output",
            target.path,
        ]
        var costs: [ChildProcess.Cost] = []
        for _ in 0..<3 {
            try? FileManager.default.removeItem(at: target)
            costs.append(try ChildProcess.run(command))
        }
        report.add(
            Row(
                section: "Generator", metric: "synthetic family, 1000 methods, written to disk", unit: "ms",
                summary: Summary(costs.map(\.seconds)).scaled(by: 1000),
                note: "the shared disk's speed varies widely"
            ))
    }

    /// Lines and bytes of the Swift files under `directory`.
    static func count(_ directory: URL) throws -> (lines: Int, bytes: Int) {
        var texts: [String] = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            texts.append(String(decoding: try Data(contentsOf: file), as: UTF8.self))
        }
        return GeneratedCodeBudget.size(of: texts)
    }

    private static func mebibytes(_ costs: [ChildProcess.Cost]) -> String {
        String(format: "%.1f MiB", Double(costs.map(\.peakBytes).max() ?? 0) / 1_048_576)
    }
}
