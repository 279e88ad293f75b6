/// The one place that decides indentation and blank lines of generated Swift.
///
/// Builders never concatenate indentation themselves; they call ``line(_:)`` and ``block(_:_:)``:
///
/// ```swift
/// printer.block("public struct Culture: Sendable, Hashable") { p in
///     p.line("public let language: Swift.String?")
/// }
/// ```
/// prints
/// ```
/// public struct Culture: Sendable, Hashable {
///     public let language: Swift.String?
/// }
/// ```
struct SwiftPrinter {
    private(set) var lines: [String] = []
    private var depth = 0

    /// Prints one line at the current indentation (an empty string prints a blank line).
    mutating func line(_ text: String) {
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Prints a blank line, unless the previous line is blank or opens a block.
    mutating func blank() {
        guard let last = lines.last, !last.isEmpty, !last.hasSuffix("{") else { return }
        lines.append("")
    }

    /// Prints `opener {`, the body one level deeper, and `}`; an empty body prints `opener {}`.
    mutating func block(_ opener: String, _ body: (inout SwiftPrinter) -> Void) {
        line(opener + " {")
        let start = lines.count
        indented(body)
        while lines.last == "" { lines.removeLast() }
        if lines.count == start {
            lines[start - 1] += "}"
        } else {
            line("}")
        }
    }

    /// The widest line a declaration's opening may take before its parameters go one per line.
    static let maximumWidth = 120

    /// Prints `open` + `items` + `close` + ` {`, the body, and `}`: on one line when it fits in ``maximumWidth``
    /// columns, otherwise with one item per line, so short signatures stay short and long ones stay readable.
    ///
    /// ```swift
    /// p.listBlock("public init(", ["a: Swift.Int", "b: Swift.Int"], ")") { p in … }
    /// ```
    mutating func listBlock(_ open: String, _ items: [String], _ close: String, _ body: (inout SwiftPrinter) -> Void) {
        let single = open + items.joined(separator: ", ") + close
        if depth * 4 + single.count + 2 <= Self.maximumWidth {
            block(single, body)
            return
        }
        line(open)
        for (index, item) in items.enumerated() {
            line("    " + item + (index == items.count - 1 ? "" : ","))
        }
        block(close, body)
    }

    /// Prints `switch subject {`, the body at the same depth (so `case` lines align with `switch`), and `}`.
    mutating func switchBlock(_ subject: String, _ body: (inout SwiftPrinter) -> Void) {
        line("switch \(subject) {")
        body(&self)
        line("}")
    }

    /// Prints the body one level deeper.
    mutating func indented(_ body: (inout SwiftPrinter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Prints `text` as a `///` documentation comment, one comment line per text line (see ``SwiftComment``).
    mutating func doc(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        for part in SwiftComment.lines(text) { line(part.isEmpty ? "///" : "/// " + part) }
    }

    /// Prints `text` as `//` comment lines (see ``SwiftComment``).
    mutating func comment(_ text: String) {
        for part in SwiftComment.lines(text) { line(part.isEmpty ? "//" : "// " + part) }
    }

    /// Prints a documentation comment: the summary, then (after a blank comment line) each remark.
    mutating func doc(_ summary: String?, remarks: [String]) {
        var parts: [String] = []
        if let summary, !summary.isEmpty { parts.append(summary) }
        parts += remarks.filter { !$0.isEmpty }
        doc(parts.joined(separator: "\n\n"))
    }

    /// Appends another printer's lines at the current indentation.
    mutating func append(_ other: SwiftPrinter) {
        for text in other.lines { line(text) }
    }

    /// The printed text, ending in one newline.
    var text: String {
        var trimmed = lines
        while trimmed.last == "" { trimmed.removeLast() }
        return trimmed.joined(separator: "\n") + "\n"
    }
}
