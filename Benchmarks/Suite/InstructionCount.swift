import Foundation

/// Counts the instructions a whole process executes, under valgrind's callgrind: the same binary on the same input
/// executes the same instructions on a busy machine and on a quiet one, so a budget on the count holds on any day.
enum InstructionCount {
    /// valgrind was not found, or did not report a count.
    struct Unavailable: Error, CustomStringConvertible {
        let detail: String
        var description: String {
            "cannot count instructions (\(detail)); install valgrind (Debian: apt-get install valgrind)"
        }
    }

    /// The instructions `command` executes, start to exit. Hashing is made deterministic (Swift seeds its hashes per
    /// process, which moves the count of every dictionary's work from run to run).
    static func of(_ command: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + command
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        process.environment = environment
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do { try process.run() } catch { throw Unavailable(detail: "\(error)") }
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ChildProcess.Failure(command: ["valgrind"] + command, status: process.terminationStatus)
        }
        // callgrind ends with a line such as `==4740== Collected : 277030372`.
        guard let line = log.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let count = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else { throw Unavailable(detail: "no count in valgrind's output") }
        return count
    }
}
