import Foundation

/// Decodes `Decodable` types from a ``JSONValue`` tree, with JSON Schema 2020-12's meaning of each JSON type.
///
/// Unlike Foundation's `JSONDecoder`, it reads the runtime's own strict parser's output and never coerces:
///
/// - `String` reads only a JSON string and `Bool` only `true` or `false`; numbers read only JSON numbers.
/// - The integer types read any number whose value is an integer (`1`, `1.0`, `1e2`, `-0`), decided exactly from
///   the number's text; `1.5` is a type mismatch and an integer the type cannot hold is corrupted data.
/// - `Double` and `Float` read any number they can hold; one that would be infinite is corrupted data.
/// - `JSONValue` reads the node as it is, numbers in their exact text and object members in order.
/// - Keyed containers read only objects (the last member of a repeated key wins), unkeyed ones only arrays.
/// - `null` where a value is required is `DecodingError.valueNotFound`; `decodeIfPresent` reads it as absent.
///
/// `Data`, `Date`, `URL`, `UUID` and `Decimal` get no special strategies: each reads itself through its own
/// `Decodable` implementation, as generated code reads its wire scalars from strings itself.
///
/// Errors are `DecodingError`s with the coding path of the offending value (array positions as integer keys), so
/// ``ResponseDecodingError`` paths read `issue[0]/type/code`.
@_spi(Generated) public struct JSONValueDecoder: Sendable {
    /// Values handed to every `Decodable` implementation as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// A decoder with `userInfo` for the types it decodes.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes `type` from `data` parsed strictly by ``JSONValue/parse(_:)``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with an empty coding path when `data` is not JSON (the
    ///   ``JSONValueError`` as its underlying error and its description as the debug description), otherwise what
    ///   decoding the parsed value throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let value: JSONValue
        do {
            value = try JSONValue.parse(data)
        } catch {
            // An empty coding path is how `ResponseDecodingError` tells malformed JSON from a wrong shape.
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
        return try decode(type, from: value)
    }

    /// Decodes `type` from an already parsed value.
    ///
    /// - Throws: `DecodingError` with the coding path of the value that does not fit, and what `type`'s own
    ///   `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoding(root: value, userInfo: userInfo).decodeValue(T.self)
    }
}
