import Foundation

/// Writes `text` as a line to standard output at once, unbuffered, so a script reading the demo through a pipe sees
/// each line (an authorization page to open, above all) when it is written.
func say(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Runs the demo's steps, printing each with its outcome, and remembers whether all succeeded.
final class StepPrinter {
    private(set) var failures = 0
    private(set) var steps = 0

    /// Prints a journey's heading.
    func journey(_ name: String) {
        say("\n" + name)
    }

    /// Runs `step`, printing its name and the summary it returns, or the error it throws.
    @discardableResult
    func step<Result>(_ name: String, _ step: () async throws -> (Result, String)) async -> Result? {
        steps += 1
        do {
            let (result, summary) = try await step()
            say("  ✓ " + name.padding(toLength: 16, withPad: " ", startingAt: 0) + summary)
            return result
        } catch {
            failures += 1
            say("  ✗ " + name.padding(toLength: 16, withPad: " ", startingAt: 0) + "\(error)")
            return nil
        }
    }

    /// A step that returns only a summary.
    @discardableResult
    func step(_ name: String, _ step: () async throws -> String) async -> Bool {
        await self.step(name) { () async throws -> (Bool, String) in (true, try await step()) } ?? false
    }
}
