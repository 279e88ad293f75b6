/// Text placed in XML the servers write.
enum XMLText {
    /// `value` escaped for element content.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// `value` as a quoted attribute value (Python's `quoteattr`).
    static func attribute(_ value: String) -> String {
        "\"" + escaped(value).replacingOccurrences(of: "\"", with: "&quot;") + "\""
    }
}
