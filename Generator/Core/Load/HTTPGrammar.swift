/// What RFC 9110 and RFC 3986 let a schema put on the wire as it is: header field names and values, and the literal
/// text of paths. A schema is untrusted input; a CR or LF that reached a header would end it and smuggle in others.
enum HTTPGrammar {
    /// A field name: one or more token characters (RFC 9110 §5.1): letters, digits and the punctuation `tchar`
    /// allows.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { isAlphanumeric($0) || tokenPunctuation.contains($0) }
    }

    /// What keeps `text` from being a field value the runtime sends (RFC 9110 §5.5 without `obs-text`, as
    /// `HTTPHeaderFields.isFieldValue` decides at run time), or nil when it is one: empty, or visible US-ASCII with
    /// spaces and tabs only between visible characters. A value the runtime refuses would fail every request.
    static func fieldValueProblem(_ text: String) -> String? {
        let bytes = text.utf8
        if bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) { return "holds a control character" }
        if bytes.contains(where: { $0 > 0x7F }) { return "holds a character outside US-ASCII" }
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        if bytes.first.map(isBlank) == true || bytes.last.map(isBlank) == true {
            return "starts or ends with a space or tab"
        }
        return nil
    }

    /// Literal path text (RFC 3986 §3.3): unreserved and sub-delimiter characters, `:`, `@`, `/`, and `%` with two
    /// hex digits.
    static func isPathText(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard isAlphanumeric(byte) || pathPunctuation.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
    private static let pathPunctuation = Set("-._~!$&'()*+,;=:@/".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
