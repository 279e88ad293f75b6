/// A position in a schema file, 1-based.
struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file as shown to the user, e.g. `Schemas/Koppeltaal/Token.json`.
    let file: String
    /// The line, from 1.
    let line: Int
    /// The column, from 1, counted in characters.
    let column: Int

    /// Creates a location.
    init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI logs make clickable.
    var description: String { "\(file):\(line):\(column)" }

    /// Orders by file, then position.
    static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

/// One problem found in the schemas.
///
/// Rendered as `Schemas/Koppeltaal/Token.json:14:7: error: <what was found>, <what was expected> [at /request/oneOf/1]`.
struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious the problem is.
    enum Severity: String, Sendable, Hashable {
        /// Generation cannot proceed.
        case error
        /// Generation proceeds, but the schema is probably not what was meant.
        case warning
    }

    /// How serious the problem is.
    let severity: Severity
    /// What was found and what was expected.
    let message: String
    /// Where, when the problem is in a file.
    let location: SourceLocation?
    /// The JSON pointer of the offending value inside the file.
    let pointer: String?

    /// Creates a diagnostic.
    init(_ severity: Severity, _ message: String, at location: SourceLocation?, pointer: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.pointer = pointer
    }

    /// The one-line rendering.
    var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        let suffix = pointer.map { $0.isEmpty ? " [at /]" : " [at \($0)]" } ?? ""
        // Messages quote schema text, which must not move the cursor or rewrite the terminal line.
        return VisibleText.singleLine("\(prefix)\(severity.rawValue): \(message)\(suffix)")
    }
}

/// Collects diagnostics from every stage, so all problems are reported at once.
package struct Diagnostics: Sendable {
    /// Everything reported so far, in the order reported.
    private(set) var all: [Diagnostic] = []

    /// Creates an empty collection.
    package init() {}

    /// Whether any error was reported.
    var hasErrors: Bool { all.contains { $0.severity == .error } }

    /// Reports an error.
    mutating func error(_ message: String, at location: SourceLocation?, pointer: String? = nil) {
        all.append(Diagnostic(.error, message, at: location, pointer: pointer))
    }

    /// Reports a warning.
    mutating func warning(_ message: String, at location: SourceLocation?, pointer: String? = nil) {
        all.append(Diagnostic(.warning, message, at: location, pointer: pointer))
    }

    /// Adds diagnostics reported elsewhere.
    mutating func append(contentsOf other: Diagnostics) { all += other.all }

    /// The diagnostics sorted by file and position (those without a location first), duplicates removed.
    var sorted: [Diagnostic] {
        var seen = Set<Diagnostic>()
        let unique = all.filter { seen.insert($0).inserted }
        return unique.enumerated().sorted { left, right in
            switch (left.element.location, right.element.location) {
            case (let l?, let r?) where l != r: return l < r
            case (nil, _?): return true
            case (_?, nil): return false
            default: return left.offset < right.offset
            }
        }.map(\.element)
    }
}

/// Generation stopped because the schemas have errors; ``diagnostics`` says which.
struct GenerationFailed: Error, Sendable, CustomStringConvertible {
    /// Every diagnostic, errors and warnings, sorted.
    let diagnostics: [Diagnostic]

    /// One diagnostic per line, then a count.
    var description: String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        return
            (diagnostics.map(\.description) + [
                "\(errors) error\(errors == 1 ? "" : "s") in the schemas; nothing was generated"
            ])
            .joined(separator: "\n")
    }
}

extension Diagnostics {
    /// `"a", "b"` for the names a message offers as choices, or `nothing (<empty>)` when there are none.
    static func choices(_ names: some Sequence<String>, empty: String) -> String {
        let quoted = names.sorted().map { "\"\($0)\"" }
        return quoted.isEmpty ? "nothing (\(empty))" : quoted.joined(separator: ", ")
    }
}
