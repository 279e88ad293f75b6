/// Why a ``JSONScalar`` could not be read from a node, before the node's coding path is known.
enum JSONScalarFailure: Error {
    /// The node is of another JSON type, or null.
    case mismatch(JSONValue)
    /// The node is a number with a fractional part, and an integer was wanted.
    case notInteger
    /// The node is a number, integer or not as `kind` says, that the type cannot hold.
    case beyondRange(_ kind: String, JSONNumber)

    /// The `DecodingError` for `type` at `codingPath`.
    func decodingError(_ type: Any.Type, codingPath: [any CodingKey]) -> DecodingError {
        switch self {
        case .mismatch(let value):
            return .mismatch(type, found: value, codingPath: codingPath)
        case .notInteger:
            return .typeMismatch(
                type, .init(codingPath: codingPath, debugDescription: "found a number that is not an integer"))
        case .beyondRange(let kind, let number):
            // Only the start of the text: it comes from the server and can be as long as the response.
            let limit = 40
            let text = number.text.utf8.count > limit ? number.text.prefix(limit) + "…" : number.text
            return .dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "the \(kind) \(text) is beyond the range of \(type)"))
        }
    }
}

extension DecodingError {
    /// `typeMismatch` when `expected` cannot be read from `value`, or `valueNotFound` when `value` is null: null
    /// where a value is required is a missing value, as `DecodingError` documents and Foundation reports it.
    static func mismatch(_ expected: Any.Type, found value: JSONValue, codingPath: [any CodingKey]) -> DecodingError {
        let context = Context(codingPath: codingPath, debugDescription: "found \(value.kindDescription)")
        if case .null = value { return .valueNotFound(expected, context) }
        return .typeMismatch(expected, context)
    }
}

extension JSONValue {
    /// What an error says it found: `null`, `a string`, `an object`.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
