/// Derives Swift names from wire names.
///
/// Wire names are split into words at every character that is not a letter or digit and at camel-case humps
/// (`person-info`, `access_token`, `NoActionRequired`, `AUTHENTICATED_SESSION_TOKEN_EXPIRED`). Words written in
/// capitals are read as ordinary words, and known acronyms are capitalized as the Swift API guidelines ask
/// (`app-id` → `appID`, `redirect_uri` → `redirectURI`).
enum Naming {
    /// Words spelled in capitals when they are not the first word of a lowerCamelCase name.
    static let acronyms: Set<String> = [
        "id", "url", "uri", "ttl", "http", "https", "xml", "json", "api", "uuid", "jwt", "ip", "fhir", "hmac",
    ]

    /// Swift keywords that must be escaped with backticks when used as names.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]

    /// The words of a wire name.
    static func words(_ name: String) -> [String] {
        // Only ASCII letters and digits form words, so the bytes can be read directly; reading Characters would
        // walk grapheme clusters, which made naming a tenth of generation time.
        let bytes = Array(name.utf8)
        var words: [String] = []
        var start: Int?
        var wordHasLowercase = false
        func flush(upTo end: Int) {
            if let begin = start { words.append(String(decoding: bytes[begin..<end], as: UTF8.self)) }
            start = nil
        }
        for index in bytes.indices {
            let byte = bytes[index]
            guard isLowercase(byte) || isUppercase(byte) || isDigit(byte) else {
                flush(upTo: index)
                continue
            }
            if start != nil, isUppercase(byte) {
                let last = bytes[index - 1]
                let nextIsLower = index + 1 < bytes.count && isLowercase(bytes[index + 1])
                // A hump starts a word: "appId" → app|Id; "XMLHttp" → XML|Http; "HMACSHA256" stays whole.
                if isLowercase(last) || isDigit(last) && wordHasLowercase || isUppercase(last) && nextIsLower {
                    flush(upTo: index)
                }
            }
            if start == nil {
                start = index
                wordHasLowercase = false
            }
            if isLowercase(byte) { wordHasLowercase = true }
        }
        flush(upTo: bytes.count)
        return words
    }

    private static func isLowercase(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
    private static func isUppercase(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// A lowerCamelCase name: `person-info` → `personInfo`, `app-id` → `appID`, `` → `unspecified`.
    static func lowerCamel(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "unspecified" }
        let head = first.lowercased()
        let tail = parts.dropFirst().map(capitalize).joined()
        return safeStart(head + tail)
    }

    /// An UpperCamelCase name: `response-results` → `ResponseResults`, `hmacSig` → `HMACSig`.
    static func upperCamel(_ name: String) -> String {
        let parts = words(name)
        guard !parts.isEmpty else { return "Unspecified" }
        return safeStart(parts.map(capitalize).joined())
    }

    /// `name` with backticks when it is a Swift keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// Whether `text` is a valid Swift identifier (ASCII).
    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// Whether `text` is an UpperCamelCase Swift type name.
    static func isTypeName(_ text: String) -> Bool {
        isIdentifier(text) && text.first?.isUppercase == true
    }

    private static func capitalize(_ word: String) -> String {
        let lower = word.lowercased()
        if acronyms.contains(lower) { return lower.uppercased() }
        // Words written in capitals are ordinary words ("INVALID" → "Invalid").
        let base = word == word.uppercased() ? lower : word
        return base.prefix(1).uppercased() + base.dropFirst()
    }

    private static func safeStart(_ name: String) -> String {
        guard let first = name.first else { return "_" }
        return first.isNumber ? "_" + name : name
    }
}
