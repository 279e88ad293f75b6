/// RFC 3986 URIs as JSON Schema's `format: uri` and `format: uri-reference` read them.
///
/// The check is the RFC's ABNF exactly, on the text's bytes: RFC 3986 is ASCII, so any non-ASCII character (an
/// IRI's, RFC 3987) makes the text not a URI, and `%` must start two hexadecimal digits. No scheme's own rules are
/// applied (`http://999.999.999.999/` is a URI whose host is a reg-name), and no IPv6 zone identifier (RFC 6874) is
/// accepted.
public enum URIText {
    /// Whether `text` is a `URI`: `scheme ":" hier-part [ "?" query ] [ "#" fragment ]` (RFC 3986 §3).
    ///
    /// `urn:isbn:0451450523`, `mailto:a@b`, `http:` and `http://[::1]:80/a?b#c` are URIs; `/abc`, `foo bar.txt`,
    /// `//host/path` and `http://example.com/%` are not.
    public static func isURI(_ text: String) -> Bool {
        let bytes = Array(text.utf8)[...]
        // A scheme holds no ":", so the first one ends it.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), URICharacters.isScheme(bytes[..<colon]) else {
            return false
        }
        return isRest(bytes[(colon + 1)...], relative: false)
    }

    /// Whether `text` is a `URI-reference`: a URI, or a `relative-ref` (RFC 3986 §4.1), such as `/abc`, `../a`,
    /// `?q`, `#frag`, `//host/path` or the empty string.
    ///
    /// A relative reference's first segment may not hold `:` (`a:b/c` would read as a scheme), so `1a:b` is not
    /// one, while `./1a:b` is.
    public static func isURIReference(_ text: String) -> Bool {
        isURI(text) || isRest(Array(text.utf8)[...], relative: true)
    }

    /// Whether `bytes` is a `hier-part` (or a `relative-part`) followed by an optional query and fragment.
    private static func isRest(_ bytes: ArraySlice<UInt8>, relative: Bool) -> Bool {
        var rest = bytes
        // Neither a path nor a query holds "#", so the first one starts the fragment; it may hold no other "#".
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard URICharacters.isRun(rest[(hash + 1)...], of: URICharacters.queryOrFragment) else { return false }
            rest = rest[..<hash]
        }
        // A path holds no "?", so the first one starts the query.
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard URICharacters.isRun(rest[(question + 1)...], of: URICharacters.queryOrFragment) else {
                return false
            }
            rest = rest[..<question]
        }
        return isHierarchicalPart(rest, relative: relative)
    }

    /// `"//" authority path-abempty`, or a path of the other kinds: `path-absolute`, `path-rootless` (for a URI)
    /// or `path-noscheme` (for a relative reference), or `path-empty`.
    private static func isHierarchicalPart(_ bytes: ArraySlice<UInt8>, relative: Bool) -> Bool {
        if bytes.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let authorityStart = bytes.startIndex + 2
            let pathStart = bytes[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            return URIAuthority.isAuthority(bytes[authorityStart..<pathStart])
                && URICharacters.isRun(bytes[pathStart...], of: URICharacters.path)
        }
        // Without an authority every path kind is pchar segments between slashes (one starting with "//" is an
        // authority, taken above); a relative reference's first segment must not look like a scheme.
        if relative {
            let firstSegmentEnd = bytes.firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
            if bytes[..<firstSegmentEnd].contains(UInt8(ascii: ":")) { return false }
        }
        return URICharacters.isRun(bytes, of: URICharacters.path)
    }
}
