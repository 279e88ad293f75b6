import Foundation
import HealthSignInSchemaSemantics

/// JSON reading and writing with the SDK's conventions.
///
/// - Writing sorts keys, leaves slashes unescaped and keeps numbers' text, so the same value always produces the
///   same bytes.
/// - Reading turns Foundation's `DecodingError` into ``ResponseDecodingError`` with a path like `issue[0]/type/code`.
@_spi(Generated) public enum JSONCoding {
    /// Decodes `type` from `data`, read strictly by the runtime's own JSON reader (``JSONValueDecoder``): types
    /// are never coerced, integers are decided from their exact text, and `JSONValue`s keep their number text.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONValueDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw ResponseDecodingError(error)
        }
    }

    /// Reads a value from `members`, a JSON object another type kept beyond its own properties, with `read` given a
    /// decoder of that object: how a type extending another family's type reads the members it adds.
    ///
    /// - Throws: ``ResponseDecodingError`` with the path to the bad member, and what `read` throws.
    public static func decodeMembers<T: Sendable>(
        _ members: [String: JSONValue], _ read: @escaping @Sendable (any Decoder) throws -> T
    ) throws -> T {
        let object = JSONValue.object(JSONObject(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        do {
            return try read(JSONValueDecoding(root: object, userInfo: [:]))
        } catch let error as DecodingError {
            throw ResponseDecodingError(error)
        }
    }

    /// The members of the JSON object `decoder` reads, once none of `notNull` is null: the properties that may be
    /// left out but not be null, which read as optionals (and `decodeIfPresent` reads null as absent).
    public static func members(of decoder: any Decoder, notNull: [String]) throws
        -> KeyedDecodingContainer<AnyCodingKey>
    {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        if let reader = decoder as? JSONValueDecoding {
            // The runtime's own reader has the members at hand, and nulls are rare: look at the null members (a
            // key's last member counts) instead of looking up every key that may not be null.
            for member in reader.members where member.value.isNull && notNull.contains(member.key) {
                if reader.member(named: member.key)?.isNull == true {
                    throw nullRefused(AnyCodingKey(member.key), in: container)
                }
            }
            return container
        }
        for key in notNull.map({ AnyCodingKey($0) }) where container.contains(key) {
            if try container.decodeNil(forKey: key) { throw nullRefused(key, in: container) }
        }
        return container
    }

    private static func nullRefused(_ key: AnyCodingKey, in container: KeyedDecodingContainer<AnyCodingKey>)
        -> DecodingError
    {
        .valueNotFound(
            Any.self,
            .init(codingPath: container.codingPath + [key], debugDescription: "null, which the schema does not allow"))
    }

    /// The keys of the members of the JSON object `decoder` reads, other than `declared`, each once, in the order
    /// they first appear: the members a type keeps beyond its properties.
    ///
    /// The same as filtering the keyed container's `allKeys`, without the runtime's own reader making and casting
    /// every key.
    public static func undeclaredKeys(of decoder: any Decoder, besides declared: [String]) throws -> [AnyCodingKey] {
        guard let reader = decoder as? JSONValueDecoding else {
            return try decoder.container(keyedBy: AnyCodingKey.self).allKeys.filter {
                !declared.contains($0.stringValue)
            }
        }
        var keys: [AnyCodingKey] = []
        var seen = Set<String>()
        for member in reader.members where !declared.contains(member.key) && seen.insert(member.key).inserted {
            keys.append(AnyCodingKey(member.key))
        }
        return keys
    }

    /// The one value of `valid`, the variants of a `oneOf` a JSON value is valid against: JSON Schema's `oneOf`
    /// holds only when exactly one is.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at `codingPath` for none or several.
    public static func exactlyOne<Union>(_ valid: [Union], at codingPath: [any CodingKey]) throws -> Union {
        guard valid.count == 1, let only = valid.first else {
            let found = valid.isEmpty ? "none" : "\(valid.count)"
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "valid against \(found) of the oneOf variants, expected exactly one"))
        }
        return only
    }

    /// Encodes `value` deterministically, by the runtime's own JSON writer (``JSONValueEncoder``): keys sorted,
    /// slashes unescaped, and ``JSONNumber``s and ``JSONValue``s written exactly.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONValueEncoder().encode(value)
    }
}

extension ResponseDecodingError {
    /// Converts Foundation's decoding error, keeping its coding path.
    init(_ error: DecodingError) {
        switch error {
        case .typeMismatch(let type, let context):
            self.init(
                path: Self.path(context.codingPath),
                reason: "expected \(Self.jsonName(type)), \(context.debugDescription.lowercasedFirst)")
        case .valueNotFound(let type, let context) where type == Any.self:
            // A null refused whatever the type (a member that may be left out but not be null) says so itself.
            self.init(path: Self.path(context.codingPath), reason: context.debugDescription)
        case .valueNotFound(let type, let context):
            self.init(path: Self.path(context.codingPath), reason: "expected \(Self.jsonName(type)), found null")
        case .keyNotFound(let key, let context):
            self.init(path: Self.path(context.codingPath + [key]), reason: "missing required field")
        case .dataCorrupted(let context):
            let reason = context.underlyingError is JSONValueError ? "malformed JSON" : context.debugDescription
            self.init(path: Self.path(context.codingPath), reason: reason)
        @unknown default:
            self.init(path: "", reason: "unreadable JSON")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : "/") + key.stringValue
            }
        }
        return text
    }

    private static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "string"
        case is Int.Type, is Int64.Type: return "integer"
        case is Double.Type, is JSONNumber.Type: return "number"
        case is Bool.Type: return "boolean"
        case is [String: Any].Type: return "object"
        case is [Any].Type: return "array"
        default: return String(describing: type)
        }
    }
}

extension String {
    fileprivate var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}

// MARK: - Helpers for generated Codable implementations

@_spi(Generated) extension KeyedDecodingContainer {
    /// The first of `keys` present in the JSON object, or the first key when none is (for fields with aliases).
    public func firstPresentKey(_ keys: Key...) -> Key {
        keys.first { contains($0) } ?? keys[0]
    }

    /// Reads a value carried as a JSON string in its wire spelling (UUIDs, dates, URLs).
    public func decodeText<T: WireScalar>(_ type: T.Type, forKey key: Key) throws -> T {
        let text = try decode(String.self, forKey: key)
        return try parse(text, as: T.self, forKey: key)
    }

    /// Like ``decodeText(_:forKey:)``, but nil when the key is absent or null.
    public func decodeTextIfPresent<T: WireScalar>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return try parse(text, as: T.self, forKey: key)
    }

    /// Reads an array of values carried as JSON strings.
    public func decodeTextArray<T: WireScalar>(_ type: T.Type, forKey key: Key) throws -> [T] {
        let texts = try decode([String].self, forKey: key)
        return try texts.map { try parse($0, as: T.self, forKey: key) }
    }

    /// Like ``decodeTextArray(_:forKey:)``, but nil when the key is absent or null.
    public func decodeTextArrayIfPresent<T: WireScalar>(_ type: T.Type, forKey key: Key) throws -> [T]? {
        guard let texts = try decodeIfPresent([String].self, forKey: key) else { return nil }
        return try texts.map { try parse($0, as: T.self, forKey: key) }
    }

    /// Reads a number or boolean, also accepting it spelled as a string (`"3600"`), as many token servers send
    /// (a property with `acceptString`).
    public func decodeLenient<T: WireScalar & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if let value = try? decode(T.self, forKey: key) { return value }
        let text = try decode(String.self, forKey: key)
        guard let value = T(wireText: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected \(T.wireTypeName), found \(ResponseDecodingError.quote(text))")
        }
        return value
    }

    /// Like ``decodeLenient(_:forKey:)``, but nil when the key is absent or null.
    public func decodeLenientIfPresent<T: WireScalar & Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeLenient(T.self, forKey: key)
    }

    /// Reads an array that a server may also send as a single element.
    public func decodeArrayAcceptingSingle<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> [T] {
        if let array = try? decode([T].self, forKey: key) { return array }
        return [try decode(T.self, forKey: key)]
    }

    /// Like ``decodeArrayAcceptingSingle(_:forKey:)``, but nil when the key is absent or null.
    public func decodeArrayAcceptingSingleIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> [T]? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeArrayAcceptingSingle(T.self, forKey: key)
    }

    /// Refuses an object without one of `keys` (required properties that may be null, which read as optionals).
    public func expectMembers(_ keys: Key...) throws {
        if let missing = keys.first(where: { !contains($0) }) {
            throw DecodingError.keyNotFound(
                missing, .init(codingPath: codingPath, debugDescription: "a required member is missing"))
        }
    }

    /// Refuses a member other than `declared` (`additionalProperties: false`).
    public func expectNoMembers(besides declared: Set<String>) throws {
        if let other = allKeys.first(where: { !declared.contains($0.stringValue) }) {
            throw DecodingError.dataCorruptedError(
                forKey: other, in: self,
                debugDescription: "a member the schema does not allow (additionalProperties: false)")
        }
    }

    /// Checks that a constant field holds `expected` or one of `others`; when `required` is false an absent field is
    /// accepted.
    public func expectConstant(_ expected: String, alsoAccepting others: [String] = [], forKey key: Key, required: Bool)
        throws
    {
        guard contains(key) else {
            if required {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "missing constant"))
            }
            return
        }
        // Present, it must be the string: null is no more the constant than any other value.
        let found = try decode(String.self, forKey: key)
        // JSON Schema compares strings by code points; Swift's == would equate canonically equivalent spellings.
        guard CodePoints.equal(found, expected) || others.contains(where: { CodePoints.equal(found, $0) }) else {
            let accepted = ([expected] + others).map { "\"\($0)\"" }.joined(separator: " or ")
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected \(accepted), found \(ResponseDecodingError.quote(found))"
            )
        }
    }

    private func parse<T: WireScalar>(_ text: String, as type: T.Type, forKey key: Key) throws -> T {
        guard let value = T(jsonText: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "expected \(T.wireTypeName), found \(ResponseDecodingError.quote(text))"
            )
        }
        return value
    }
}

@_spi(Generated) extension KeyedEncodingContainer {
    /// Writes a value in its wire spelling as a JSON string (UUIDs, dates, URLs).
    public mutating func encodeText<T: WireScalar>(_ value: T, forKey key: Key) throws {
        try encode(value.wireText, forKey: key)
    }

    /// Like ``encodeText(_:forKey:)``, writing nothing for nil.
    public mutating func encodeTextIfPresent<T: WireScalar>(_ value: T?, forKey key: Key) throws {
        guard let value else { return }
        try encode(value.wireText, forKey: key)
    }

    /// Writes an array of values as JSON strings in their wire spelling.
    public mutating func encodeTextArray<T: WireScalar>(_ values: [T], forKey key: Key) throws {
        try encode(values.map(\.wireText), forKey: key)
    }
}

/// A coding key for any string: generated codecs spell their keys as string literals of this type.
@_spi(Generated) public struct AnyCodingKey: CodingKey, Sendable, Hashable, ExpressibleByStringLiteral {
    /// The key.
    public let stringValue: String
    /// Always nil: these keys name object members.
    public var intValue: Int? { nil }

    /// Creates a key.
    public init(_ stringValue: String) { self.stringValue = stringValue }

    /// Creates a key.
    public init?(stringValue: String) { self.stringValue = stringValue }

    /// Creates a key from a literal, as generated codecs spell their keys.
    public init(stringLiteral value: String) { self.stringValue = value }

    /// Never succeeds: these keys name object members.
    public init?(intValue: Int) { nil }
}

/// A value JSON carries as a string in its own grammar (a UUID, a date, a URI), read and written through
/// ``WireScalar/init(jsonText:)`` and ``WireScalar/wireText``: how generated code codes such values inside arrays of
/// arrays, maps and unions, where no keyed helper reaches.
@_spi(Generated) public struct JSONText<Value: WireScalar>: Codable {
    /// The value.
    public let value: Value

    /// Wraps `value` to be written.
    public init(_ value: Value) { self.value = value }

    /// Reads a JSON string in the value's grammar.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Value(jsonText: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "expected \(Value.wireTypeName), found \(ResponseDecodingError.quote(text))")
        }
        self.value = value
    }

    /// Writes the value's wire text as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.wireText)
    }
}
