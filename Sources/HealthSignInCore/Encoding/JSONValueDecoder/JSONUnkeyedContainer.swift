/// A JSON array's elements, read in order for ``JSONValueDecoder``.
///
/// A read that throws does not advance `currentIndex`, so the same element can be tried as another type.
struct JSONUnkeyedContainer: UnkeyedDecodingContainer {
    /// The array's decoder, which holds its coding path.
    private let decoder: JSONValueDecoding
    private let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoding, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The element at `currentIndex`, or `valueNotFound` for `type` past the end.
    private func next(_ type: Any.Type) throws -> JSONValue {
        guard elements.indices.contains(currentIndex) else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: decoder.codingPath + [JSONIndexKey(currentIndex)], debugDescription: "no more elements")
            )
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try next(T.self)
        let key = JSONIndexKey(currentIndex)
        let decoded: T
        if JSONValueDecoding.readsWithoutDecoder(T.self),
            let node = try decoder.withoutDecoder(T.self, from: value, key: key)
        {
            decoded = node
        } else {
            decoded = try T(from: decoder.child(value, key: key))
        }
        currentIndex += 1
        return decoded
    }

    @inline(__always)
    private mutating func scalar<T: JSONScalar>(_ type: T.Type) throws -> T {
        let value = try decoder.read(T.self, from: next(T.self), key: JSONIndexKey(currentIndex))
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try next(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.child(value, key: JSONIndexKey(currentIndex)).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try next((any UnkeyedDecodingContainer).self)
        let container = try decoder.child(value, key: JSONIndexKey(currentIndex)).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try next((any Decoder).self)
        let superDecoder = decoder.child(value, key: JSONIndexKey(currentIndex))
        currentIndex += 1
        return superDecoder
    }
}
