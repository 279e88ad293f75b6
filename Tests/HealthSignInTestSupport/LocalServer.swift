import Foundation

/// A helper server process on 127.0.0.1, started from a Python script that prints `READY <port>` once it listens.
///
/// The script runs with the project's virtual environment when it exists (`Tests/Emulator/.venv`), otherwise with
/// `python3`. The process is terminated when the server is stopped or deallocated, and, since servers shared by a
/// whole test run are never deallocated, it also exits by itself when this process ends: it is started with
/// `--exit-with-parent` and a standard input pipe that closes with this process.
public final class LocalServer: @unchecked Sendable {
    // @unchecked: `process` and `lifeline` are set once in init and only read afterwards; Process itself is
    // thread-safe for terminate.
    private let process: Process
    private let lifeline: Pipe
    /// The port the server listens on.
    public let port: Int

    /// `http://127.0.0.1:<port>`
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts `script` (a path relative to the repository) with `arguments`, waiting up to `timeout` seconds for it
    /// to report its port.
    public init(script: String, arguments: [String] = [], timeout: TimeInterval = 20) throws {
        let venv = Fixtures.repository.appendingPathComponent("Tests/Emulator/.venv/bin/python")
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: venv.path) {
            process.executableURL = venv
            process.arguments =
                [Fixtures.repository.appendingPathComponent(script).path, "--exit-with-parent"] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                ["python3", Fixtures.repository.appendingPathComponent(script).path, "--exit-with-parent"] + arguments
        }
        let lifeline = Pipe()
        process.standardInput = lifeline
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.lifeline = lifeline

        var buffer = ""
        guard
            let port = Self.readPort(
                from: output.fileHandleForReading, of: process, until: Date().addingTimeInterval(timeout), into: &buffer
            )
        else {
            process.terminate()
            let hasVenv = FileManager.default.isExecutableFile(atPath: venv.path)
            throw LocalServerError.didNotStart(script: script, output: buffer, venvMissing: !hasVenv)
        }
        self.port = port
    }

    /// Reads `output` until it reports `READY <port>`, the process ends or `deadline` passes; `buffer` keeps what
    /// was read, for the error when no port came.
    private static func readPort(
        from output: FileHandle, of process: Process, until deadline: Date, into buffer: inout String
    ) -> Int? {
        while Date() < deadline, process.isRunning {
            let chunk: Data = output.availableData
            if chunk.isEmpty { return nil }
            buffer += String(decoding: chunk, as: UTF8.self)
            let lines: [Substring] = buffer.split(separator: "\n")
            if let line = lines.first(where: { $0.hasPrefix("READY ") }) {
                return Int(line.dropFirst("READY ".count).trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// Stops the server.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// A helper server could not be started.
public enum LocalServerError: Error, CustomStringConvertible {
    /// The script did not report its port; `venvMissing` when it ran without the project's Python environment.
    case didNotStart(script: String, output: String, venvMissing: Bool)

    public var description: String {
        switch self {
        case .didNotStart(let script, let output, let venvMissing):
            let hint =
                venvMissing
                ? " Tests/Emulator/.venv is missing, so it ran with the system python3, which may lack Flask and"
                    + " Authlib: run `make venv` once (make test does it) and test again."
                : ""
            return "\(script) did not report READY <port>; it printed: \(output.isEmpty ? "nothing" : output).\(hint)"
        }
    }
}
