import Foundation

/// How `sdkgen diff` prints its changes: one line each, or JSON.
package enum DiffReport {
    /// The output formats.
    package enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    /// The changes in `format`.
    static func render(_ changes: [SchemaChange], format: Format) -> String {
        switch format {
        case .text: return text(changes)
        case .json: return json(changes)
        }
    }

    /// One line per change: where, the rule, both verdicts, what; then a count.
    private static func text(_ changes: [SchemaChange]) -> String {
        var lines = changes.map { change in
            "\(change.file)#\(change.pointer): \(change.rule.rawValue) (source \(change.source.rawValue), wire "
                + "\(change.wire.rawValue)): \(message(change))"
        }
        let source = changes.filter { $0.source == .breaking }.count
        let wire = changes.filter { $0.wire == .breaking }.count
        lines.append(
            "\(changes.count) change\(changes.count == 1 ? "" : "s"): \(source) breaking the source, \(wire) breaking the wire"
        )
        return lines.joined(separator: "\n") + "\n"
    }

    /// `{"changes": [{"file", "pointer", "rule", "source", "wire", "message"}]}`, keys sorted, one change per line.
    private static func json(_ changes: [SchemaChange]) -> String {
        let items = changes.map { change -> String in
            let members: [(String, String)] = [
                ("file", change.file), ("message", message(change)), ("pointer", change.pointer),
                ("rule", change.rule.rawValue), ("source", change.source.rawValue), ("wire", change.wire.rawValue),
            ]
            return "    {"
                + members.map { "\(SchemaText.quoted($0.0)): \(SchemaText.quoted($0.1))" }.joined(separator: ", ") + "}"
        }
        guard !items.isEmpty else { return "{\"changes\": []}\n" }
        return "{\"changes\": [\n" + items.joined(separator: ",\n") + "\n]}\n"
    }

    /// The change's message, with where it was when that differs from where it is.
    private static func message(_ change: SchemaChange) -> String {
        guard let old = change.old, let new = change.new, old != new else { return change.message }
        return change.message + " (was at \(old.file)#\(old.pointer))"
    }
}
