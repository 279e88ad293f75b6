/// Breaks a generated line of code that is wider than the line width, the way swift-format lays out such code: a
/// one-line block (`if let value = x { … }`) opens onto its own lines, and otherwise the widest argument list
/// outside any brackets goes onto the lines between its parentheses:
///
/// ```swift
/// self.code = try container.decodeIfPresent(
///     Swift.String.self, forKey: container.firstPresentKey("code", "Code", "CODE")
/// )
/// ```
///
/// Text inside string literals is never broken, nor a line with an interpolation or a multi-line literal, so a line
/// that is wide only because of a string stays as it is.
enum SwiftLineBreaker {
    /// How a line breaks.
    enum Split: Equatable {
        /// `head(` + the arguments, filled onto the lines between + `)tail`.
        case arguments(head: String, arguments: [String], tail: String)
        /// Each `head {`, its body on a line of its own, and the closing `}` (the next head follows it on the same
        /// line, as in `} else {`).
        case blocks(heads: [String], bodies: [String])
    }

    /// How `line` breaks, or nil when it has no place to break.
    static func split(_ line: String) -> Split? {
        if line.contains("\\(") || line.contains("\"\"\"") { return nil }
        var characters = Array(line)
        // A block opener's own brace is not part of the line's brackets.
        let opensBlock = line.hasSuffix(" {")
        if opensBlock { characters.removeLast(2) }
        guard let groups = topLevelGroups(characters) else { return nil }
        let braces = groups.filter { characters[$0.open] == "{" }
        if !opensBlock, let last = braces.last, last.close == characters.count - 1, last.close - last.open > 2 {
            var heads: [String] = []
            var bodies: [String] = []
            var start = 0
            for brace in braces {
                heads.append(String(characters[start..<brace.open]).trimmingSpaces + " {")
                bodies.append(String(characters[(brace.open + 1)..<brace.close]).trimmingSpaces)
                start = brace.close + 1
            }
            return .blocks(heads: heads, bodies: bodies)
        }
        let calls = groups.filter { characters[$0.open] == "(" && $0.close - $0.open > 1 }
        guard let widest = calls.max(by: { $0.close - $0.open < $1.close - $1.open }) else { return nil }
        var arguments: [String] = []
        var start = widest.open + 1
        for comma in widest.commas + [widest.close] {
            arguments.append(String(characters[start..<comma]).trimmingSpaces)
            start = comma + 1
        }
        var tail = String(characters[widest.close...])
        if opensBlock { tail += " {" }
        let head = String(characters[...widest.open])
        return .arguments(head: head, arguments: arguments, tail: tail)
    }

    /// The bracket pairs at the top level of `characters`, each with the commas directly inside it; nil when the
    /// brackets or string literals do not balance.
    private static func topLevelGroups(_ characters: [Character]) -> [(open: Int, close: Int, commas: [Int])]? {
        var groups: [(open: Int, close: Int, commas: [Int])] = []
        var depth = 0
        var inString = false
        var open = -1
        var commas: [Int] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if inString {
                if character == "\\" { index += 1 } else if character == "\"" { inString = false }
            } else {
                switch character {
                case "\"":
                    inString = true
                case "(", "[", "{":
                    if depth == 0 {
                        open = index
                        commas = []
                    }
                    depth += 1
                case ")", "]", "}":
                    depth -= 1
                    if depth < 0 { return nil }
                    if depth == 0 { groups.append((open, index, commas)) }
                case ",":
                    if depth == 1 { commas.append(index) }
                default:
                    break
                }
            }
            index += 1
        }
        return depth == 0 && !inString ? groups : nil
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
