import Foundation

/// The `Encoder` of one value, used by ``JSONValueEncoder``.
///
/// Like the decoder, each encoder links to its parent and the key that leads to it, so a coding path is assembled
/// only when asked for.
final class JSONValueEncoding: Encoder {
    let userInfo: [CodingUserInfoKey: Any]
    private let parent: JSONValueEncoding?
    private let key: (any CodingKey)?
    /// Where the value goes once written, for an encoder `superEncoder()` handed out.
    private let sink: ((JSONEncodedValue) -> Void)?
    /// What was written, nil until a container is asked for or a value is written.
    private(set) var result: JSONEncodedValue?

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo
        parent = nil
        key = nil
        sink = nil
    }

    init(parent: JSONValueEncoding, key: any CodingKey, sink: ((JSONEncodedValue) -> Void)? = nil) {
        userInfo = parent.userInfo
        self.parent = parent
        self.key = key
        self.sink = sink
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while let key = node.key, let parent = node.parent {
            keys.append(key)
            node = parent
        }
        return keys.reversed()
    }

    func set(_ value: JSONEncodedValue) {
        result = value
        sink?(value)
    }

    /// `value` encoded: under `key` of this encoder's container, or as this encoder's own value when `key` is nil.
    func encoded<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONEncodedValue {
        if let scalar = try scalar(value, key: key) { return .value(scalar) }
        let encoder = key.map { JSONValueEncoding(parent: self, key: $0) } ?? self
        try value.encode(to: encoder)
        return encoder.result ?? .object(JSONEncodedObject())
    }

    /// `value` as a JSON value when it is one of the types written without an encoder of their own, else nil.
    ///
    /// Comparing types first is cheaper than a failed dynamic cast for every nested model.
    private func scalar<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> JSONValue? {
        if T.self == String.self, let string = value as? String { return .string(string) }
        if T.self == JSONValue.self, let json = value as? JSONValue { return json }
        if T.self == JSONNumber.self, let number = value as? JSONNumber { return .number(number) }
        if T.self == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if T.self == Int.self, let integer = value as? Int { return Self.number(integer) }
        if T.self == Double.self, let double = value as? Double { return try number(double, key: key) }
        if T.self == Float.self, let float = value as? Float { return try number(float, key: key) }
        if T.self == Int64.self, let integer = value as? Int64 { return Self.number(integer) }
        if T.self == Int32.self, let integer = value as? Int32 { return Self.number(integer) }
        if T.self == UInt64.self, let integer = value as? UInt64 { return Self.number(integer) }
        if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if T.self == Decimal.self, let decimal = value as? Decimal { return try number(decimal, key: key) }
        if T.self == UInt.self, let integer = value as? UInt { return Self.number(integer) }
        if T.self == Int8.self, let integer = value as? Int8 { return Self.number(integer) }
        if T.self == Int16.self, let integer = value as? Int16 { return Self.number(integer) }
        if T.self == UInt8.self, let integer = value as? UInt8 { return Self.number(integer) }
        if T.self == UInt16.self, let integer = value as? UInt16 { return Self.number(integer) }
        if T.self == UInt32.self, let integer = value as? UInt32 { return Self.number(integer) }
        return nil
    }

    static func number(_ integer: some BinaryInteger) -> JSONValue {
        .number(JSONNumber(uncheckedText: String(integer)))
    }

    /// A finite floating-point value in its shortest round-tripping spelling, without the `.0` of an integer.
    func number<F: BinaryFloatingPoint & LosslessStringConvertible>(_ value: F, key: (any CodingKey)?) throws
        -> JSONValue
    {
        guard value.isFinite else { throw invalid(value, key: key, "\(F.self).\(value) is not a JSON number") }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(JSONNumber(uncheckedText: text))
    }

    private func number(_ value: Decimal, key: (any CodingKey)?) throws -> JSONValue {
        guard let number = JSONNumber(value.description) else {
            throw invalid(value, key: key, "Decimal \(value) is not a JSON number")
        }
        return .number(number)
    }

    private func invalid(_ value: Any, key: (any CodingKey)?, _ description: String) -> EncodingError {
        var path = codingPath
        if let key { path.append(key) }
        return EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: description))
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: JSONEncodedObject
        if case .object(let existing)? = result {
            object = existing
        } else {
            object = JSONEncodedObject()
            set(.object(object))
        }
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<Key>(encoder: self, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: JSONEncodedArray
        if case .array(let existing)? = result {
            array = existing
        } else {
            array = JSONEncodedArray()
            set(.array(array))
        }
        return JSONUnkeyedEncodingContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueEncodingContainer(encoder: self)
    }
}
