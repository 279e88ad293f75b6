import Foundation

/// `HealthSignInBench`: measures the budgets of `Benchmarks/README.md` and prints one table; `make bench` runs it.
///
/// ```
/// HealthSignInBench --sdkgen .build/release/HealthSignInSDKGen --modules .build/debug/Modules [--emulator URL] [--only SECTIONS]
/// ```
@main
struct Bench {
    static let usage = """
        usage: HealthSignInBench [options]
          --sdkgen PATH      the release sdkgen binary (needed for Generator and Compile)
          --modules DIR      the debug build's Modules directory, holding HealthSignInCore (needed for Compile)
          --swiftc PATH      the Swift compiler (default: swiftc on PATH)
          --emulator URL     the emulator's base URL for the calls over HTTP (default: $EMULATOR_URL; skipped without)
          --repository DIR   the repository root (default: the current directory)
          --output FILE      where to write the JSON results (default: .build/bench/results.json)
          --scratch DIR      where generated files go (default: /dev/shm/HealthSignInBench when it exists, so that the
                             generator, not the disk, is measured; otherwise next to the output)
          --only LIST        comma-separated sections: generator, compile, codecs, fhir, client, refresh,
                             lifecycle, transport
        """

    static func main() async {
        do {
            // A child process whose instructions the codecs section counts.
            if CommandLine.arguments.dropFirst().first == "--parse-adversarial" {
                return try CodecBenchmarks.parseAdversarial(CommandLine.arguments.dropFirst(2).first ?? "")
            }
            let options = try Options(CommandLine.arguments.dropFirst())
            let report = Report()
            try await run(options, into: report)
            print(report.table())
            try report.write(to: options.output, environment: environment())
            print("\nwritten to \(options.output.path)")
            if report.rows.contains(where: { $0.withinBudget == false }) {
                print("some measurements are over budget")
                exit(1)
            }
        } catch {
            FileHandle.standardError.write(Data("HealthSignInBench: \(error)\n".utf8))
            exit(2)
        }
    }

    /// Runs each section asked for in a process of its own when there is more than one, so that what one section
    /// leaves behind does not move another's timings: after the generator's section, whose process reads thousands
    /// of generated files, the allocator hands the 10 MB XML decode fresh pages to fault in and its speed drops by
    /// a third.
    private static func run(_ options: Options, into report: Report) async throws {
        let sections = Options.sections.filter(options.runs)
        guard sections.count > 1 else { return try await runSections(options, into: report) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "HealthSignInBench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for section in sections {
            let output = scratch.appendingPathComponent(section + ".json")
            let child = Process()
            child.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
            child.arguments = options.arguments + ["--only", section, "--output", output.path]
            child.standardOutput = FileHandle.nullDevice  // its table; its progress lines go to standard error
            try child.run()
            child.waitUntilExit()
            // 1 means over budget, which this process reports from the child's rows.
            guard child.terminationStatus <= 1 else {
                throw BenchmarkError.wrongResult("the \(section) section failed (\(child.terminationStatus))")
            }
            for row in try Report.rows(from: output) { report.append(row) }
        }
    }

    private static func runSections(_ options: Options, into report: Report) async throws {
        let workspace = options.scratch ?? options.output.deletingLastPathComponent().appendingPathComponent("work")
        let disk = options.output.deletingLastPathComponent().appendingPathComponent("work")
        let generator = options.sdkgen.map {
            GeneratorBenchmarks(sdkgen: $0, repository: options.repository, workspace: workspace, disk: disk)
        }
        if options.runs("generator") {
            guard let generator else { throw BenchmarkError.missing("--sdkgen for the generator benchmarks") }
            try generator.run(into: report)
        }
        if options.runs("compile") {
            guard let generator, let modules = options.modules else {
                throw BenchmarkError.missing("--sdkgen and --modules for the compile benchmarks")
            }
            if !FileManager.default.fileExists(atPath: generator.sources(size: 100).path) {
                try generator.run(into: Report())
            }
            try CompileBenchmarks(
                swiftc: options.swiftc, modules: modules, repository: options.repository, workspace: workspace,
                generator: generator
            )
            .run(into: report)
        }
        if options.runs("codecs") { try CodecBenchmarks().run(into: report) }
        if options.runs("fhir") { try FHIRCodecBenchmarks(repository: options.repository).run(into: report) }
        if options.runs("client") { try await ClientBenchmarks(emulator: options.emulator).run(into: report) }
        if options.runs("refresh") { try await RefreshBenchmarks().run(into: report) }
        if options.runs("lifecycle") { try await LifecycleBenchmarks(emulator: options.emulator).run(into: report) }
        if options.runs("transport") { try await TransportBenchmarks(repository: options.repository).run(into: report) }
    }

    private static func environment() -> [String: String] {
        let info = ProcessInfo.processInfo
        return [
            "date": ISO8601DateFormatter().string(from: Date()), "cores": String(info.activeProcessorCount),
            "os": info.operatingSystemVersionString, "memory": String(info.physicalMemory / 1_048_576) + " MiB",
        ]
    }
}

/// The command line.
struct Options {
    var sdkgen: String?
    var modules: URL?
    var swiftc = "swiftc"
    var emulator: URL? = ProcessInfo.processInfo.environment["EMULATOR_URL"].flatMap(URL.init(string:))
    var repository = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    var output = URL(fileURLWithPath: ".build/bench/results.json")
    var scratch: URL? =
        FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm/HealthSignInBench") : nil
    var only: Set<String>?
    /// The options given, without `--only` and `--output`, for the process that runs one section.
    var arguments: [String] = []

    /// Every section, in the order they run.
    static let sections = ["generator", "compile", "codecs", "fhir", "client", "refresh", "lifecycle", "transport"]

    /// Whether `section` is to run.
    func runs(_ section: String) -> Bool { only?.contains(section) ?? true }

    struct Invalid: Error, CustomStringConvertible {
        let message: String
        var description: String { message + "\n" + Bench.usage }
    }

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { throw Invalid(message: "") }
            guard let value = rest.popFirst() else { throw Invalid(message: "\(flag) needs a value") }
            if flag != "--only" && flag != "--output" { self.arguments += [flag, value] }
            switch flag {
            case "--sdkgen": sdkgen = value
            case "--modules": modules = URL(fileURLWithPath: value)
            case "--swiftc": swiftc = value
            case "--emulator": emulator = URL(string: value)
            case "--repository": repository = URL(fileURLWithPath: value)
            case "--output": output = URL(fileURLWithPath: value)
            case "--scratch": scratch = URL(fileURLWithPath: value)
            case "--only": only = Set(value.split(separator: ",").map(String.init))
            default: throw Invalid(message: "unknown option \(flag)")
            }
        }
        if let unknown = only?.subtracting(Self.sections).sorted(), !unknown.isEmpty {
            throw Invalid(message: "unknown sections \(unknown.joined(separator: ", "))")
        }
    }
}
