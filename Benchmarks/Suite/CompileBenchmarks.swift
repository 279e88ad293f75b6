import Foundation

/// How long the generated code takes to compile: each synthetic family's generated module built as a debug
/// module against the already built runtime, with the options `swift build` gives a debug build (`-Onone -g`, batch
/// mode, two jobs); and how much release object code it becomes.
struct CompileBenchmarks {
    let swiftc: String
    /// The debug build's module directory, holding `HealthSignInCore.swiftmodule`.
    let modules: URL
    let repository: URL
    let workspace: URL
    let generator: GeneratorBenchmarks

    func run(into report: Report) throws {
        let reference = workspace.appendingPathComponent("compile-reference-sources")
        try? FileManager.default.removeItem(at: reference)
        try FileManager.default.createDirectory(at: reference, withIntermediateDirectories: true)
        for file in CompileReference.files() {
            try file.contents.write(to: reference.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        }
        // Each run compiles the reference and both sizes one after the other, so that all three see the same load;
        // the first run loads the runtime module into the file system cache and is not counted.
        var times: [String: [Double]] = [:]
        var ratios: [Double] = []
        for run in 0..<4 {
            let referenceTime = try compile(family: "Reference", from: reference)
            var sized: [Int: Double] = [:]
            for size in [10, 100] {
                var total = 0.0
                for family in ["SynthXML", "SynthJSON"] {
                    total += try compile(
                        family: family, from: generator.sources(size: size).appendingPathComponent(family))
                }
                sized[size] = total
            }
            guard run > 0, let small = sized[10], let large = sized[100] else { continue }
            times["reference", default: []].append(referenceTime)
            times["10", default: []].append(small)
            times["100", default: []].append(large)
            ratios.append((large - small) / 90 * 100 / referenceTime)
        }
        for size in [10, 100] {
            report.add(
                Row(
                    section: "Compile", metric: "generated module, \(size) methods (debug)", unit: "s",
                    summary: Summary(times["\(size)"] ?? [])))
        }
        let referenceTimes = Summary(times["reference"] ?? [])
        report.add(
            Row(
                section: "Compile", metric: "reference module, \(CompileReference.types) types (debug)", unit: "s",
                summary: referenceTimes))
        let slope = Summary(zip(times["100"] ?? [], times["10"] ?? []).map { ($0 - $1) / 90 * 100 })
        let ratio = Summary(ratios)
        report.add(
            Row(
                section: "Compile", metric: "cost per 100 methods (slope 10 → 100) over the reference module",
                unit: "ratio", summary: ratio, budget: "≤ \(Budgets.compileSlopeOverReference)",
                withinBudget: ratio.median <= Budgets.compileSlopeOverReference,
                note: String(
                    format: "%.2f s per 100 methods, %.2f s the reference", slope.median, referenceTimes.median)
            ))
        try objectSizes(into: report)
    }

    /// The release (`-O`, whole module) object code of the synthetic families per method, and of each shipped
    /// family module as `swift build -c release` left it, with the part compiled from its generated files.
    private func objectSizes(into report: Report) throws {
        var perMethod: [Double] = []
        for size in [10, 100] {
            var bytes = 0
            for family in ["SynthXML", "SynthJSON"] {
                bytes += try releaseObjectBytes(
                    family: family, from: generator.sources(size: size).appendingPathComponent(family))
            }
            perMethod.append(Double(bytes))
        }
        report.add(
            Row(
                section: "Compile", metric: "release object code per synthetic method (slope 10 → 100)", unit: "bytes",
                summary: Summary([(perMethod[1] - perMethod[0]) / 90])
            ))
        for family in ["OAuth", "HealthVault", "Koppeltaal", "Vital", "SMART"] {
            let module = "HealthSignIn" + family
            let objects = repository.appendingPathComponent(".build/release/\(module).build")
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: objects.path) else { continue }
            let generated = Set(
                Self.swiftFiles(under: repository.appendingPathComponent("Sources/\(module)/Generated")).map {
                    URL(fileURLWithPath: $0).lastPathComponent + ".o"
                })
            let files = names.filter { $0.hasSuffix(".o") }
            let total = try Self.objectBytes(files.map { objects.appendingPathComponent($0).path })
            let fromGenerated = try Self.objectBytes(
                files.filter(generated.contains).map { objects.appendingPathComponent($0).path })
            report.add(
                Row(
                    section: "Compile", metric: "release object code of the \(module) module", unit: "KiB",
                    summary: Summary([Double(total) / 1024]),
                    note: String(format: "%.0f KiB from generated files", Double(fromGenerated) / 1024)
                ))
        }
    }

    /// Text, data and bss bytes of `objects`, as `size` counts them.
    private static func objectBytes(_ objects: [String]) throws -> Int {
        guard !objects.isEmpty else { return 0 }
        let output = try ChildProcess.output(["size"] + objects.sorted())
        return output.split(separator: "\n").dropFirst().reduce(0) { total, line in
            total
                + (line.split(separator: "\t").dropFirst(3).first.flatMap {
                    Int($0.trimmingCharacters(in: .whitespaces))
                } ?? 0)
        }
    }

    private static func swiftFiles(under directory: URL) -> [String] {
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            if file.pathExtension == "swift" { files.append(file.path) }
        }
        return files.sorted()
    }

    /// Seconds to compile the Swift files under `directory` as module `family` in a debug build.
    private func compile(family: String, from directory: URL) throws -> Double {
        try ChildProcess.run(command(family: family, files: Self.swiftFiles(under: directory), optimized: false))
            .seconds
    }

    /// The object code bytes of the Swift files under `directory` compiled as module `family` in a release build.
    private func releaseObjectBytes(family: String, from directory: URL) throws -> Int {
        _ = try ChildProcess.run(command(family: family, files: Self.swiftFiles(under: directory), optimized: true))
        return try Self.objectBytes([workspace.appendingPathComponent("compile-\(family)/\(family).o").path])
    }

    private func command(family: String, files: [String], optimized: Bool) throws -> [String] {
        let output = workspace.appendingPathComponent("compile-\(family)")
        try? FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var command = [
            swiftc, "-working-directory", output.path, "-module-name", family, "-parse-as-library", "-swift-version",
            "6",
            "-enable-upcoming-feature", "ExistentialAny", "-I", modules.path, "-emit-module", "-c",
        ]
        command +=
            optimized
            ? ["-O", "-wmo", "-o", output.appendingPathComponent("\(family).o").path]
            : ["-Onone", "-g", "-enable-testing", "-enable-batch-mode", "-j2"]
        #if os(Linux)
            for library in ["HealthSignInLibcrypto", "HealthSignInLibcurl"] {
                command += [
                    "-Xcc",
                    "-fmodule-map-file="
                        + repository.appendingPathComponent("Sources/\(library)/module.modulemap").path,
                ]
            }
        #endif
        return command + files
    }
}
