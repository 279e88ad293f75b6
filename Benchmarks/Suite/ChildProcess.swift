import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a program and reports its wall time and peak memory, which `Process` cannot: the child is reaped with
/// `wait4`, whose resource usage belongs to that child alone.
enum ChildProcess {
    /// What one run cost.
    struct Cost {
        let seconds: Double
        /// The child's peak resident set size in bytes.
        let peakBytes: Int
    }

    /// A run that did not exit with status 0.
    struct Failure: Error, CustomStringConvertible {
        let command: [String]
        let status: Int32
        var description: String { "\(command.joined(separator: " ")) exited with status \(status)" }
    }

    /// Runs `command` (looked up on PATH unless it contains a slash) with standard output discarded, and waits.
    static func run(_ command: [String]) throws -> Cost {
        var actions = makeFileActions()
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid = pid_t()
        let start = Harness.now()
        let spawned = posix_spawnp(&pid, command[0], &actions, nil, arguments, environ)
        guard spawned == 0 else { throw Failure(command: command, status: spawned) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
        let seconds = Harness.now() - start
        // The exit status lives in bits 8–15 when the child exited normally (low 7 bits zero).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { throw Failure(command: command, status: status) }
        #if canImport(Darwin)
            let peak = Int(usage.ru_maxrss)  // bytes
        #else
            let peak = Int(usage.ru_maxrss) * 1024  // KiB
        #endif
        return Cost(seconds: seconds, peakBytes: peak)
    }

    /// Runs `command` (looked up on PATH) and returns what it printed on standard output.
    static func output(_ command: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(command: command, status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    #if canImport(Darwin)
        private static func makeFileActions() -> posix_spawn_file_actions_t? {
            var actions: posix_spawn_file_actions_t?
            posix_spawn_file_actions_init(&actions)
            return actions
        }
    #else
        private static func makeFileActions() -> posix_spawn_file_actions_t {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            return actions
        }
    #endif
}
