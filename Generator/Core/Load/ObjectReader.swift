/// Reads the members of one JSON object for a schema document, reporting wrong types and unknown keywords.
///
/// Each `take…` marks a key as understood; ``finish(_:)`` then reports every key nobody took, with a suggestion
/// when it looks like a misspelling of an allowed one.
struct ObjectReader {
    let node: JSONNode
    private let what: String
    private let keywords: [String]

    /// Starts reading `node`, which should be an object whose keys are among `keywords`; reports and returns nil
    /// when it is not an object.
    init?(_ node: JSONNode, what: String, keywords: [String], diagnostics: inout Diagnostics) {
        guard node.members != nil else {
            diagnostics.error(
                "\(what) is \(Self.article(node.kindName)), expected an object", at: node.location,
                pointer: node.pointer)
            return nil
        }
        self.node = node
        self.what = what
        self.keywords = keywords
    }

    /// The raw value of `key`, or nil.
    func value(_ key: String) -> JSONNode? {
        assert(keywords.contains(key), "ObjectReader: \(key) is read but not in the keyword list of \(what)")
        return node[key]
    }

    /// Reports a missing required key.
    func missing(_ key: String, _ expectation: String, diagnostics: inout Diagnostics) {
        diagnostics.error("missing \"\(key)\", expected \(expectation)", at: node.location, pointer: node.pointer)
    }

    /// A string member.
    func string(_ key: String, required: Bool = false, diagnostics: inout Diagnostics) -> Located<String>? {
        guard let value = value(key) else {
            if required { missing(key, "\(what) to have a string \"\(key)\"", diagnostics: &diagnostics) }
            return nil
        }
        guard let text = value.stringValue else {
            diagnostics.error(
                "\"\(key)\" is \(Self.article(value.kindName)), expected a string", at: value.location,
                pointer: value.pointer)
            return nil
        }
        return Located(value: text, location: value.location, pointer: value.pointer)
    }

    /// A non-empty string member.
    func nonEmptyString(_ key: String, required: Bool = false, diagnostics: inout Diagnostics) -> Located<String>? {
        guard let text = string(key, required: required, diagnostics: &diagnostics) else { return nil }
        guard !text.value.isEmpty else {
            diagnostics.error(
                "\"\(key)\" is empty, expected a non-empty string", at: text.location, pointer: text.pointer)
            return nil
        }
        return text
    }

    /// An integer member.
    func integer(_ key: String, required: Bool = false, minimum: Int? = nil, diagnostics: inout Diagnostics) -> Located<
        Int
    >? {
        guard let value = value(key) else {
            if required { missing(key, "\(what) to have an integer \"\(key)\"", diagnostics: &diagnostics) }
            return nil
        }
        // JSON Schema counts a number with a zero fractional part (2.0, 2e0) as an integer.
        guard case .number(let number, _, _) = value.value, let integer = Int(exactly: number) else {
            diagnostics.error(
                "\"\(key)\" is \(Self.article(value.kindName)), expected an integer", at: value.location,
                pointer: value.pointer)
            return nil
        }
        if let minimum, integer < minimum {
            diagnostics.error(
                "\"\(key)\" is \(integer), expected an integer of at least \(minimum)", at: value.location,
                pointer: value.pointer)
            return nil
        }
        return Located(value: integer, location: value.location, pointer: value.pointer)
    }

    /// A number member, with its literal text.
    func number(_ key: String, diagnostics: inout Diagnostics) -> Located<(value: Double, literal: String)>? {
        guard let value = value(key) else { return nil }
        guard case .number(let number, let literal, _) = value.value else {
            diagnostics.error(
                "\"\(key)\" is \(Self.article(value.kindName)), expected a number", at: value.location,
                pointer: value.pointer)
            return nil
        }
        return Located(value: (number, literal), location: value.location, pointer: value.pointer)
    }

    /// A boolean member.
    func bool(_ key: String, diagnostics: inout Diagnostics) -> Located<Bool>? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value.value else {
            diagnostics.error(
                "\"\(key)\" is \(Self.article(value.kindName)), expected a boolean", at: value.location,
                pointer: value.pointer)
            return nil
        }
        return Located(value: flag, location: value.location, pointer: value.pointer)
    }

    /// A string member that must be one of `E`'s raw values.
    func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ type: E.Type, required: Bool = false, diagnostics: inout Diagnostics
    ) -> Located<E>? where E.RawValue == String {
        guard let text = string(key, required: required, diagnostics: &diagnostics) else { return nil }
        guard let choice = E(rawValue: text.value) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            diagnostics.error(
                "\"\(key)\" is \"\(text.value)\", expected one of \(allowed)", at: text.location, pointer: text.pointer)
            return nil
        }
        return Located(value: choice, location: text.location, pointer: text.pointer)
    }

    /// An array of strings.
    func strings(_ key: String, diagnostics: inout Diagnostics) -> [Located<String>]? {
        guard let value = value(key) else { return nil }
        guard let elements = value.elements else {
            diagnostics.error(
                "\"\(key)\" is \(Self.article(value.kindName)), expected an array of strings", at: value.location,
                pointer: value.pointer)
            return nil
        }
        var result: [Located<String>] = []
        // By code points, as JSON Schema compares strings: canonically equivalent spellings are different values.
        var seen = Set<[Unicode.Scalar]>()
        for element in elements {
            guard let text = element.stringValue else {
                diagnostics.error(
                    "an element of \"\(key)\" is \(Self.article(element.kindName)), expected a string",
                    at: element.location, pointer: element.pointer)
                continue
            }
            if !seen.insert(Array(text.unicodeScalars)).inserted {
                diagnostics.error(
                    "\(SwiftLiteral.string(text)) appears twice in \"\(key)\", expected unique values",
                    at: element.location,
                    pointer: element.pointer)
                continue
            }
            result.append(Located(value: text, location: element.location, pointer: element.pointer))
        }
        return result
    }

    /// An object whose values are all strings, e.g. headers.
    func stringMap(_ key: String, diagnostics: inout Diagnostics) -> [HTTPHeaderField] {
        guard let value = value(key) else { return [] }
        guard let members = value.members else {
            diagnostics.error(
                "\"\(key)\" is \(Self.article(value.kindName)), expected an object of strings", at: value.location,
                pointer: value.pointer)
            return []
        }
        var result: [HTTPHeaderField] = []
        for member in members {
            guard let text = member.value.stringValue else {
                diagnostics.error(
                    "\"\(member.key)\" is \(Self.article(member.value.kindName)), expected a string",
                    at: member.value.location, pointer: member.value.pointer)
                continue
            }
            guard HTTPGrammar.isToken(member.key) else {
                diagnostics.error(
                    "the header name \(SwiftLiteral.string(member.key)) is not an RFC 9110 token, expected letters, digits and !#$%&'*+-.^_`|~",
                    at: member.keyLocation, pointer: member.value.pointer)
                continue
            }
            if let problem = HTTPGrammar.fieldValueProblem(text) {
                diagnostics.error(
                    "the value of the header \"\(member.key)\" \(problem), expected visible US-ASCII characters with spaces and tabs only between them (RFC 9110 §5.5)",
                    at: member.value.location, pointer: member.value.pointer)
                continue
            }
            result.append(HTTPHeaderField(name: member.key, value: text))
        }
        return result
    }

    /// Reports every key that is not one of the keywords.
    func finish(_ diagnostics: inout Diagnostics) {
        guard let members = node.members else { return }
        for member in members where !keywords.contains(member.key) {
            var message = "unknown keyword \"\(member.key)\" in \(what)"
            if let suggestion = Self.closest(to: member.key, in: Set(keywords)) {
                message += ", expected a known keyword (did you mean \"\(suggestion)\"?)"
            } else {
                message += ", expected one of \(keywords.map { "\"\($0)\"" }.joined(separator: ", "))"
            }
            diagnostics.error(message, at: member.keyLocation, pointer: member.value.pointer)
        }
    }

    /// "a string", "an object", "an integer".
    static func article(_ kind: String) -> String {
        ["a", "e", "i", "o", "u"].contains(kind.prefix(1)) ? "an \(kind)" : "a \(kind)"
    }

    /// The candidate within edit distance 2 of `word`, if any.
    static func closest(to word: String, in candidates: Set<String>) -> String? {
        candidates
            .map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= 2 && $0.1 < max(word.count, 2) }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let left = Array(a)
        let right = Array(b)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        for i in 1...left.count {
            var current = [i] + Array(repeating: 0, count: right.count)
            for j in 1...right.count {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            previous = current
        }
        return previous[right.count]
    }
}
