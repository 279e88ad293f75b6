/// The character classes of RFC 3986's ABNF, and runs of them with percent-encoding.
enum URICharacters {
    /// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    static let unreserved = ASCIISet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    /// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`.
    static let subDelimiters = ASCIISet("!$&'()*+,;=")
    /// `reg-name`'s characters besides percent-encoding.
    static let registeredName = unreserved.union(subDelimiters)
    /// `userinfo`'s characters besides percent-encoding; also the tail of an `IPvFuture`, which has no `%`.
    static let userInfo = registeredName.union(ASCIISet(":"))
    /// `pchar`, a path segment's characters besides percent-encoding.
    static let pathCharacter = userInfo.union(ASCIISet("@"))
    /// A path's characters: segments and the slashes between them.
    static let path = pathCharacter.union(ASCIISet("/"))
    /// `query` and `fragment`: `*( pchar / "/" / "?" )`.
    static let queryOrFragment = path.union(ASCIISet("?"))
    /// `scheme`'s characters after its first letter.
    static let schemeTail = ASCIISet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-.")

    /// Whether every byte of `bytes` is in `allowed` or starts a `pct-encoded` triplet (`%` and two hex digits).
    static func isRun(_ bytes: ArraySlice<UInt8>, of allowed: ASCIISet) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 3 <= bytes.endIndex,
                    ASCII.hexValue(bytes[index + 1]) != nil, ASCII.hexValue(bytes[index + 2]) != nil
                else { return false }
                index += 3
            } else {
                guard allowed.contains(byte) else { return false }
                index += 1
            }
        }
        return true
    }

    /// Whether `bytes` is a `scheme`: a letter, then letters, digits, `+`, `-` and `.`.
    static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, ASCII.isLetter(first) else { return false }
        return bytes.dropFirst().allSatisfy { schemeTail.contains($0) }
    }
}
