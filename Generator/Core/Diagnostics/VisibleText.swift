/// Which characters of outside text a reader cannot see as they are, and how to show them instead.
///
/// Schema text reaches generated comments, string literals and diagnostics printed in a terminal. Line breaks of
/// every kind, control characters (including terminal escape sequences) and format characters (bidi overrides,
/// zero-width characters) could end a comment, rewrite a terminal line or reorder code as a reader sees it.
enum VisibleText {
    /// Whether `scalar` ends a line for Swift, for an editor or for a terminal.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Whether `scalar` is a control, format or separator character (other than tab), or one with no assigned meaning.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar != "\t" else { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
        default: return false
        }
    }

    /// `\u{202e}`
    static func escaped(_ scalar: Unicode.Scalar) -> String { "\\u{\(String(scalar.value, radix: 16))}" }

    /// Whether every byte of `text` is printable ASCII or a line feed, so nothing needs looking at.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F || $0 == UInt8(ascii: "\n") }
    }

    /// `text` on one line, with every line break and invisible character shown as an escape.
    static func singleLine(_ text: String) -> String {
        guard !isPlain(text) || text.utf8.contains(UInt8(ascii: "\n")) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isLineBreak(scalar) || isInvisible(scalar) {
                result.append(contentsOf: escaped(scalar).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
