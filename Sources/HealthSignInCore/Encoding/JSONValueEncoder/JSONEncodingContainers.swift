/// The members of one JSON object, written for ``JSONValueEncoder``.
struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoding
    let object: JSONEncodedObject

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) { object.members[key.stringValue] = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.members[key.stringValue] = try encoder.encoded(value, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = JSONEncodedObject()
        object.members[key.stringValue] = .object(nested)
        let nestedEncoder = JSONValueEncoding(parent: encoder, key: key)
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(encoder: nestedEncoder, object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONEncodedArray()
        object.members[key.stringValue] = .array(nested)
        return JSONUnkeyedEncodingContainer(encoder: JSONValueEncoding(parent: encoder, key: key), array: nested)
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: JSONSuperKey()) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: some CodingKey) -> any Encoder {
        let object = object
        let name = key.stringValue
        // Written when the super type encodes; until then the member is the empty object Foundation writes too.
        object.members[name] = .object(JSONEncodedObject())
        return JSONValueEncoding(parent: encoder, key: key) { object.members[name] = $0 }
    }
}

/// The elements of one JSON array, written for ``JSONValueEncoder``.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoding
    let array: JSONEncodedArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.elements.count }

    mutating func encodeNil() { array.elements.append(.value(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try encoder.encoded(value, key: JSONIndexKey(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = JSONEncodedObject()
        let nestedEncoder = JSONValueEncoding(parent: encoder, key: JSONIndexKey(count))
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(encoder: nestedEncoder, object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONEncodedArray()
        let nestedEncoder = JSONValueEncoding(parent: encoder, key: JSONIndexKey(count))
        array.elements.append(.array(nested))
        return JSONUnkeyedEncodingContainer(encoder: nestedEncoder, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let array = array
        let position = count
        array.elements.append(.object(JSONEncodedObject()))
        return JSONValueEncoding(parent: encoder, key: JSONIndexKey(position)) { array.elements[position] = $0 }
    }
}

/// One JSON value of any type, written for ``JSONValueEncoder``.
struct JSONSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: JSONValueEncoding

    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() { encoder.set(.value(.null)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.set(try encoder.encoded(value, key: nil))
    }
}
