import Foundation

/// Encodes `Encodable` values as compact JSON with sorted keys, writing ``JSONValue`` and ``JSONNumber`` exactly.
///
/// Its bytes are those of Foundation's `JSONEncoder` with `.sortedKeys` and `.withoutEscapingSlashes` on Linux, for
/// every value that encoder can write, on every platform:
///
/// - Object members are sorted by the UTF-8 bytes of their keys; a key written twice keeps its last value.
/// - Strings escape `"`, `\` and control characters below U+0020 (see ``JSONValue/serialized()``).
/// - `Double` and `Float` are written as their shortest round-tripping spelling without a trailing `.0` (`1.5`,
///   `3`, `1e-07`); infinity and NaN throw `EncodingError.invalidValue`.
/// - `Data` is a base64 string, `URL` its absolute string, `Decimal` a number; `Date` encodes itself.
/// - A nested value that encodes nothing is written as `{}`; a whole document that does throws.
/// - Arrays and objects nest at most ``JSONValue/writableDepth`` levels deep; deeper values throw
///   `EncodingError.invalidValue` rather than risk the stack.
///
/// What `JSONEncoder` cannot write, it writes as it is: a ``JSONNumber`` in its exact text (`1.50`, `1e400`), and a
/// ``JSONValue``'s numbers likewise, where `JSONEncoder` goes through `Int64` or `Double` (`1.0` became `1`).
struct JSONValueEncoder {
    /// Values handed to every `Encodable` implementation as `Encoder.userInfo`.
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// `value` as JSON text.
    ///
    /// - Throws: `EncodingError.invalidValue` for a non-finite `Double` or `Float`, and what `value`'s own
    ///   `encode(to:)` throws.
    func encode<T: Encodable>(_ value: T) throws -> Data {
        var bytes: [UInt8] = []
        try encodedValue(value).write(to: &bytes, depth: 0)
        return Data(bytes)
    }

    private func encodedValue<T: Encodable>(_ value: T) throws -> JSONEncodedValue {
        let encoding = JSONValueEncoding(userInfo: userInfo)
        let encoded = try encoding.encoded(value, key: nil)
        if case .value = encoded { return encoded }
        // A document needs a value; only a nested one that writes nothing becomes `{}`.
        guard encoding.result != nil else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return encoded
    }
}

/// A value as encoded so far. Arrays and objects are boxes, since containers are handed out before they are filled.
enum JSONEncodedValue {
    case value(JSONValue)
    case array(JSONEncodedArray)
    case object(JSONEncodedObject)

    /// The compact JSON text, object members sorted by key; `depth` is the number of arrays and objects around it.
    func write(to bytes: inout [UInt8], depth: Int) throws {
        switch self {
        case .value(let value):
            try Self.writeSorted(value, to: &bytes, depth: depth)
        case .array(let array):
            try Self.enter(depth)
            bytes.append(UInt8(ascii: "["))
            for (position, element) in array.elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                try element.write(to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            try Self.enter(depth)
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in object.members.sorted(by: { Self.precedes($0.key, $1.key) }).enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try member.value.write(to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Refuses an array or object inside `depth` others when that is deeper than ``JSONValue/writableDepth``.
    private static func enter(_ depth: Int) throws {
        guard depth < JSONValue.writableDepth else {
            throw EncodingError.invalidValue(
                depth,
                .init(
                    codingPath: [], debugDescription: "more than \(JSONValue.writableDepth) nested arrays and objects"))
        }
    }

    private static func writeSorted(_ value: JSONValue, to bytes: inout [UInt8], depth: Int) throws {
        switch value {
        case .array(let elements):
            try enter(depth)
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                try writeSorted(element, to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            try enter(depth)
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in lastMembers(object).enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try writeSorted(member.value, to: &bytes, depth: depth + 1)
            }
            bytes.append(UInt8(ascii: "}"))
        case .null, .bool, .number, .string:
            value.write(to: &bytes)
        }
    }

    /// Whether key `a` sorts before `b`: by their UTF-8 bytes, as `JSONEncoder` sorts them (not by `String`'s `<`,
    /// which compares canonical forms).
    private static func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// The members of `object` sorted by key, each key once with its last value, as a keyed container keeps them.
    private static func lastMembers(_ object: JSONObject) -> [(key: String, value: JSONValue)] {
        var last: [String: JSONValue] = [:]
        for member in object.members { last[member.key] = member.value }
        return last.sorted { precedes($0.key, $1.key) }
    }
}

/// The elements an unkeyed container has written.
final class JSONEncodedArray {
    var elements: [JSONEncodedValue] = []
}

/// The members a keyed container has written.
final class JSONEncodedObject {
    var members: [String: JSONEncodedValue] = [:]
}
