import Foundation

/// How long the generated code takes to compile: each synthetic family's generated module built as a debug
/// module (`-Onone -g`, the way `swift build` compiles a changed module) against the already built runtime.
struct CompileBenchmarks {
    let swiftc: String
    /// The debug build's module directory, holding `SDKRuntime.swiftmodule`.
    let modules: URL
    let repository: URL
    let workspace: URL
    let generator: GeneratorBenchmarks

    func run(into report: Report) throws {
        var medians: [Int: Double] = [:]
        for size in [10, 100] {
            var samples: [Double] = []
            for run in 0..<4 {
                var total = 0.0
                for family in ["SynthXML", "SynthJSON"] {
                    total += try compile(family: family, from: generator.sources(size: size).appendingPathComponent(family))
                }
                if run > 0 { samples.append(total) }   // the first run loads the runtime module into the cache
            }
            let summary = Summary(samples)
            medians[size] = summary.median
            report.add(Row(section: "Compile", metric: "generated module, \(size) methods (debug)", unit: "s", summary: summary))
        }
        if let small = medians[10], let large = medians[100] {
            report.add(Row(
                section: "Compile", metric: "cost per 100 methods (slope 10 → 100)", unit: "s", summary: Summary([(large - small) / 90 * 100])
            ))
        }
    }

    /// Seconds to compile the Swift files under `directory` as module `family`.
    private func compile(family: String, from directory: URL) throws -> Double {
        let output = workspace.appendingPathComponent("compile-\(family)")
        try? FileManager.default.removeItem(at: output)
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let file = enumerator?.nextObject() as? URL {
            if file.pathExtension == "swift" { files.append(file.path) }
        }
        var command = [
            swiftc, "-working-directory", output.path, "-module-name", family, "-parse-as-library", "-swift-version", "6",
            "-enable-upcoming-feature", "ExistentialAny", "-Onone", "-g", "-enable-testing", "-I", modules.path,
            "-emit-module", "-c", "-j2",
        ]
        #if os(Linux)
        command += ["-Xcc", "-fmodule-map-file=" + repository.appendingPathComponent("Sources/COpenSSL/module.modulemap").path]
        #endif
        return try ChildProcess.run(command + files.sorted()).seconds
    }
}
