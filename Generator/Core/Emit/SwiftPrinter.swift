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

    /// Prints one line at the current indentation (an empty string prints a blank line). Code wider than
    /// ``maximumWidth`` columns is broken at its widest argument list (see ``SwiftLineBreaker``).
    mutating func line(_ text: String) {
        if depth * 4 + text.count > Self.maximumWidth, !text.hasPrefix("//"), let split = SwiftLineBreaker.split(text) {
            // Only code is broken: a comment's text is the schema's, and wrapped where it is printed (doc(_:)).
            switch split {
            case .arguments(let head, let arguments, let tail):
                line(head)
                indented { p in p.fill(arguments) }
                closeArguments(tail)
            case .blocks(let heads, let bodies):
                for (index, head) in heads.enumerated() {
                    line(index == 0 ? head : "} " + head)
                    indented { p in p.line(bodies[index]) }
                }
                line("}")
            }
            return
        }
        lines.append(text.isEmpty ? "" : String(repeating: "    ", count: depth) + text)
    }

    /// Prints a blank line, unless the previous line is blank or opens a block.
    mutating func blank() {
        guard let last = lines.last, !last.isEmpty, !last.hasSuffix("{") else { return }
        lines.append("")
    }

    /// Rewrites the line at `index`, for text that depends on what was printed after it.
    mutating func rewriteLine(_ index: Int, _ transform: (String) -> String) {
        lines[index] = transform(lines[index])
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
    /// columns, otherwise with the items on the lines between, as many to a line as fit (the layout swift-format
    /// gives a long parameter list).
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
        indented { p in p.fill(items) }
        block(close, body)
    }

    /// Prints an initializer that sets each stored property from the parameter of the same name: the whole
    /// initializer on one line when it fits, otherwise `open` + `parameters` + `close` as ``listBlock(_:_:_:_:)``
    /// lays them out, with the assignments as tuple assignments on as few lines as fit, evenly shared.
    ///
    /// ```swift
    /// public init(key: Swift.String, value: Swift.String? = nil) { (self.key, self.value) = (key, value) }
    /// ```
    mutating func memberwiseInitializer(_ open: String, _ parameters: [String], _ close: String, names: [String]) {
        let single = open + parameters.joined(separator: ", ") + close
        let whole = Self.assignment(names[...])
        if depth * 4 + single.count + whole.count + 5 <= Self.maximumWidth {
            line(single + " { " + whole + " }")
            return
        }
        listBlock(open, parameters, close) { p in
            let width = Self.maximumWidth - p.depth * 4
            for run in Self.runs(of: names[...], fitting: width) { p.line(Self.assignment(run)) }
        }
    }

    /// `names` cut into as few runs as have assignments of at most `width` columns (a lone name always counts as
    /// fitting), with the runs as even in length as that allows.
    private static func runs(of names: ArraySlice<String>, fitting width: Int) -> [ArraySlice<String>] {
        func cut(atMost limit: Int) -> [ArraySlice<String>] {
            var runs: [ArraySlice<String>] = []
            var rest = names
            while !rest.isEmpty {
                // The longest run that fits, grown one name at a time: an assignment of k names whose lengths sum
                // to L is 3 + 9k + 2L columns (`(self.a, self.b) = (a, b)`), so nothing is built to be measured.
                var count = 1
                var length = rest.first.map { $0.count } ?? 0
                for name in rest.dropFirst().prefix(max(0, limit - 1)) {
                    length += name.count
                    guard 3 + 9 * (count + 1) + 2 * length <= width else { break }
                    count += 1
                }
                runs.append(rest.prefix(count))
                rest = rest.dropFirst(count)
            }
            return runs
        }
        let greedy = cut(atMost: names.count)
        let even = cut(atMost: (names.count + greedy.count - 1) / greedy.count)
        return even.count == greedy.count ? even : greedy
    }

    /// `self.a = a`, or `(self.a, self.b) = (a, b)` for more than one name.
    private static func assignment(_ names: ArraySlice<String>) -> String {
        guard names.count > 1 else { return names.map { "self.\($0) = \($0)" }.joined() }
        return "(" + names.map { "self." + $0 }.joined(separator: ", ") + ") = (" + names.joined(separator: ", ") + ")"
    }

    /// Prints `items` separated by commas, as many to a line as fit in ``maximumWidth`` columns.
    mutating func fill(_ items: [String]) {
        var current = ""
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "" : ",")
            if current.isEmpty {
                current = piece
            } else if depth * 4 + current.count + 1 + piece.count <= Self.maximumWidth {
                current += " " + piece
            } else {
                line(current)
                current = piece
            }
        }
        if !current.isEmpty { line(current) }
    }

    /// Prints the call `open` + `items` + `close`: on one line when it fits in ``maximumWidth`` columns, otherwise
    /// with the arguments filling the lines after `open`.
    mutating func call(_ open: String, _ items: [String], _ close: String) {
        let single = open + items.joined(separator: ", ") + close
        if depth * 4 + single.count <= Self.maximumWidth {
            line(single)
            return
        }
        line(open)
        indented { p in p.fill(items) }
        closeArguments(close)
    }

    /// Ends an argument list broken over lines with `close`: on the last line of arguments, as the project's own
    /// formatting does, unless it opens a block (whose body would start right under the arguments) or does not fit.
    private mutating func closeArguments(_ close: String) {
        if !close.hasSuffix("{"), let last = lines.last, last.count + close.count <= Self.maximumWidth {
            lines[lines.count - 1] = last + close
        } else {
            line(close)
        }
    }

    /// Prints `open`, then each of `entries` on its own line one level deeper and followed by a comma, then `close`:
    /// the layout of a collection literal whose entries are read one by one.
    mutating func entries(_ open: String, _ entries: [String], _ close: String) {
        line(open)
        indented { p in
            for entry in entries { p.line(entry + ",") }
        }
        line(close)
    }

    /// Prints the collection literal `open` + `entries` + `close` on one line when it fits in ``maximumWidth``
    /// columns, otherwise as ``entries(_:_:_:)`` lays it out, an entry per line.
    mutating func collection(_ open: String, _ entries: [String], _ close: String) {
        let single = open + entries.joined(separator: ", ") + close
        if depth * 4 + single.count <= Self.maximumWidth {
            line(single)
        } else {
            self.entries(open, entries, close)
        }
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
        for part in SwiftComment.lines(text) {
            for piece in wrapped(part, width: Self.maximumWidth - depth * 4 - 4) {
                line(piece.isEmpty ? "///" : "/// " + piece)
            }
        }
    }

    /// `text` broken at spaces into lines of at most `width` columns where it can be (a word longer than the
    /// width stays whole); the lines after the first of a list item are indented to its text, as Markdown continues
    /// the item.
    private func wrapped(_ text: String, width: Int) -> [String] {
        guard text.count > width else { return [text] }
        let leading = text.prefix { $0 == " " }.count
        let indent = String(repeating: " ", count: text.dropFirst(leading).hasPrefix("- ") ? leading + 2 : leading)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let prefix = lines.isEmpty ? String(repeating: " ", count: leading) : indent
            if current.isEmpty {
                current = prefix + word
            } else if current.count + 1 + word.count <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = indent + word
            }
        }
        lines.append(current)
        return lines
    }

    /// Prints `text` as `//` comment lines (see ``SwiftComment``).
    mutating func comment(_ text: String) {
        for part in SwiftComment.lines(text) { line(part.isEmpty ? "//" : "// " + part) }
    }

    /// Prints a documentation comment: the summary, then each remark. A remark that is a list item (`- Remark:`,
    /// `- Parameters:`) follows the line before it directly, as Markdown lets a list interrupt a paragraph; any
    /// other remark starts a paragraph of its own.
    mutating func doc(_ summary: String?, remarks: [String]) {
        var text = summary ?? ""
        for remark in remarks where !remark.isEmpty {
            if !text.isEmpty { text += remark.hasPrefix("- ") ? "\n" : "\n\n" }
            text += remark
        }
        doc(text)
    }

    /// Appends another printer's lines at the current indentation, as they are: they were laid out when printed,
    /// and a comment line among them, now indented, must not be taken for code.
    /// The printed code with its declarations at `access`: emitters write `public`, which this replaces (for
    /// `internal`, removes) where it starts a line's code.
    func withAccess(_ access: GeneratorConfig.AccessModifier) -> SwiftPrinter {
        guard access != .public else { return self }
        var copy = self
        let replacement = access == .internal ? "" : access.rawValue + " "
        copy.lines = lines.map { (line: String) -> String in
            let indentation: Substring = line.prefix { $0 == " " }
            let code: Substring = line.dropFirst(indentation.count)
            guard code.hasPrefix("public ") else { return line }
            return String(indentation) + replacement + String(code.dropFirst("public ".count))
        }
        return copy
    }

    mutating func append(_ other: SwiftPrinter) {
        let indentation = String(repeating: "    ", count: depth)
        for text in other.lines { lines.append(text.isEmpty ? "" : indentation + text) }
    }

    /// The printed text, ending in one newline.
    var text: String {
        var trimmed = lines
        while trimmed.last == "" { trimmed.removeLast() }
        return trimmed.joined(separator: "\n") + "\n"
    }
}
