import Foundation

/// Places in a JSON document where text goes, and the document with a payload added at one of them.
public enum HostileJSON {
    /// A step into a document: an object member's value, an object member's key, or an array element.
    public enum Step: Sendable, CustomStringConvertible {
        /// An object member's value.
        case member(String)
        /// An object member's key.
        case key(String)
        /// An array element.
        case element(Int)

        /// `/name`, `/{key name}` or `/3`.
        public var description: String {
            switch self {
            case .member(let name): return "/" + name
            case .key(let name): return "/{key " + name + "}"
            case .element(let index): return "/\(index)"
            }
        }
    }

    /// Every string value and every object key, except `$ref` targets and `$schema` (which are locations, not text).
    public static func textPaths(in node: Any, prefix: [Step] = []) -> [[Step]] {
        switch node {
        case is String:
            return [prefix]
        case let object as [String: Any]:
            var paths: [[Step]] = []
            for (key, value) in object.sorted(by: { $0.key < $1.key }) where key != "$ref" && key != "$schema" {
                if !key.hasPrefix("$") { paths.append(prefix + [.key(key)]) }
                paths += textPaths(in: value, prefix: prefix + [.member(key)])
            }
            return paths
        case let array as [Any]:
            return array.indices.flatMap { textPaths(in: array[$0], prefix: prefix + [.element($0)]) }
        default:
            return []
        }
    }

    /// `node` with `payload` appended to the text at `path`.
    public static func inject(_ payload: String, at path: [Step], in node: Any) -> Any {
        guard let step = path.first else { return (node as? String).map { $0 + payload } ?? node }
        let rest = Array(path.dropFirst())
        switch (step, node) {
        case (.member(let name), var object as [String: Any]):
            object[name] = object[name].map { inject(payload, at: rest, in: $0) }
            return object
        case (.key(let name), var object as [String: Any]):
            if let value = object.removeValue(forKey: name) { object[name + payload] = value }
            return object
        case (.element(let index), var array as [Any]):
            if array.indices.contains(index) { array[index] = inject(payload, at: rest, in: array[index]) }
            return array
        default:
            return node
        }
    }

    /// The document as pretty JSON text.
    public static func text(_ node: Any) -> String {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: node, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// A small Swift lexer for tests and fuzzing: just enough to tell code from comments and string literals.
public enum SwiftSource {
    /// `source` with every comment and the contents of every string literal blanked out, so that what remains is
    /// code. Comments end where Swift ends them (a line comment at CR or LF); literals follow Swift's rules for
    /// escapes, multi-line and raw strings. Anything it cannot follow counts as code.
    public static func codeOutsideCommentsAndLiterals(_ source: String) -> String {
        let scalars = Array(source.unicodeScalars)
        var code = String.UnicodeScalarView()
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        func starts(_ text: String) -> Bool {
            for (offset, scalar) in text.unicodeScalars.enumerated() where at(offset) != scalar { return false }
            return true
        }
        while index < scalars.count {
            if starts("//") {
                while let scalar = at(0), scalar != "\n", scalar != "\r" { index += 1 }
                code.append(" ")
            } else if starts("/*") {
                var depth = 0
                repeat {
                    if starts("/*") {
                        depth += 1
                        index += 2
                    } else if starts("*/") {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < scalars.count
                code.append(" ")
            } else if starts("#") || starts("\"") {
                var hashes = 0
                while at(hashes) == "#" { hashes += 1 }
                guard at(hashes) == "\"" else {
                    code.append(scalars[index])
                    index += 1
                    continue
                }
                let multiline = at(hashes + 1) == "\"" && at(hashes + 2) == "\""
                index += hashes + (multiline ? 3 : 1)
                let close = (multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: hashes)
                let escape = "\\" + String(repeating: "#", count: hashes)
                while index < scalars.count, !starts(close) {
                    if !multiline, at(0) == "\n" || at(0) == "\r" { break }
                    guard starts(escape) else {
                        index += 1
                        continue
                    }
                    index += escape.unicodeScalars.count
                    guard at(0) == "(" else {
                        index += 1
                        continue
                    }
                    // An interpolation is code.
                    var depth = 0
                    repeat {
                        if at(0) == "(" { depth += 1 }
                        if at(0) == ")" { depth -= 1 }
                        code.append(scalars[index])
                        index += 1
                    } while depth > 0 && index < scalars.count
                }
                index += close.unicodeScalars.count
                code.append(contentsOf: "\"\"".unicodeScalars)
            } else {
                code.append(scalars[index])
                index += 1
            }
        }
        return String(code)
    }
}
