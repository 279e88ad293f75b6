/// Strings as JSON Schema sees them: sequences of Unicode code points.
///
/// Swift's `==` and `count` work on extended grapheme clusters under canonical equivalence, so `"a\u{308}" == "ä"`
/// and `"e\u{301}".count == 1`; JSON Schema's `const`, `enum`, `uniqueItems` and `minLength`/`maxLength` count and
/// compare code points (RFC 8259 §8.3, JSON Schema Validation §6.3.1), where those differ.
public enum CodePoints {
    /// Whether `a` and `b` are the same sequence of code points: `"a\u{308}"` and `"ä"` are not.
    public static func equal(_ a: String, _ b: String) -> Bool {
        // Equal scalar sequences are exactly equal UTF-8 encodings, and comparing bytes needs no decoding.
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// The number of code points (Unicode scalars) in `s`, what `minLength` and `maxLength` count: `"e\u{301}"`
    /// has 2 and `"😀"` has 1.
    public static func count(_ s: String) -> Int {
        s.unicodeScalars.count
    }
}
