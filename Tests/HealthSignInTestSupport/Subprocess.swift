import Foundation

/// Runs other programs from tests: compilers, the generator, the demo, Python checks.
public enum Subprocess {
    /// What a program printed (standard output and error, interleaved) and how it ended.
    public struct Outcome: Sendable {
        /// The exit status.
        public let status: Int32
        /// Everything it printed.
        public let output: String
    }

    /// Runs `arguments` (in `currentDirectory`, when given) and waits. The first argument is a path or a name looked up
    /// on PATH.
    public static func run(_ arguments: [String], currentDirectory: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: output)
    }
}
