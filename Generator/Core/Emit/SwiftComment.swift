/// Schema text made safe to print inside a Swift comment: the one way text from a schema reaches a comment.
///
/// A `//` comment ends at CR or LF, and editors also break lines at NEL, VT, FF, U+2028 and U+2029; any of them in a
/// description would end the comment and turn the rest into code. So every one of them starts a new comment line,
/// and every other invisible character (``VisibleText/isInvisible(_:)``) is shown as a `\u{…}` escape, so nothing can
/// hide or reorder code.
enum SwiftComment {
    /// The lines of `text`, each safe to print after `///` or `//`.
    static func lines(_ text: String) -> [String] {
        // Plain ASCII text splits on its line feeds alone; walking Unicode scalars is kept for the rare rest.
        if VisibleText.isPlain(text) {
            return text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        }
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in text.unicodeScalars {
            defer { previous = scalar }
            if VisibleText.isLineBreak(scalar) {
                // CR LF is one break.
                if scalar == "\n", previous == "\r" { continue }
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else if VisibleText.isInvisible(scalar) {
                current.append(contentsOf: VisibleText.escaped(scalar).unicodeScalars)
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        return lines
    }
}
