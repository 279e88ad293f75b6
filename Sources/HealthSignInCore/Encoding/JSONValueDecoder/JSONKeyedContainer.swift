/// A JSON object's members, read by key for ``JSONValueDecoder``.
///
/// A key that appears more than once reads its last member, as ``JSONObject``'s subscript does; `allKeys` lists
/// each key once, where it first appears.
struct JSONKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The object's decoder, which holds its members, coding path and key index.
    private let decoder: JSONValueDecoding

    init(decoder: JSONValueDecoding) {
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        let members = decoder.members
        var keys: [Key] = []
        keys.reserveCapacity(members.count)
        if members.count <= JSONValueDecoding.linearLookupLimit {
            for (position, member) in members.enumerated()
            where !members[..<position].contains(where: { $0.key == member.key }) {
                if let key = Key(stringValue: member.key) { keys.append(key) }
            }
        } else {
            var seen = Set<String>(minimumCapacity: members.count)
            for member in members where seen.insert(member.key).inserted {
                if let key = Key(stringValue: member.key) { keys.append(key) }
            }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool {
        decoder.member(named: key.stringValue) != nil
    }

    /// The value of `key`, or `keyNotFound`.
    private func value(forKey key: Key) throws -> JSONValue {
        guard let value = decoder.member(named: key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    /// The value of `key`, or nil when it is absent or null.
    private func presentValue(forKey key: Key) -> JSONValue? {
        guard let value = decoder.member(named: key.stringValue), !value.isNull else { return nil }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try value(forKey: key).isNull
    }

    // MARK: - Required values

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try value(forKey: key)
        if JSONValueDecoding.readsWithoutDecoder(T.self),
            let node = try decoder.withoutDecoder(T.self, from: value, key: key)
        {
            return node
        }
        return try T(from: decoder.child(value, key: key))
    }

    @inline(__always)
    private func scalar<T: JSONScalar>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.read(T.self, from: value(forKey: key), key: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, forKey: key) }

    // MARK: - Optional values

    // The protocol's defaults look the key up twice (`contains`, then `decodeNil`) before decoding; these once.

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = presentValue(forKey: key) else { return nil }
        if JSONValueDecoding.readsWithoutDecoder(T.self),
            let node = try decoder.withoutDecoder(T.self, from: value, key: key)
        {
            return node
        }
        return try T(from: decoder.child(value, key: key))
    }

    @inline(__always)
    private func scalarIfPresent<T: JSONScalar>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = presentValue(forKey: key) else { return nil }
        return try decoder.read(T.self, from: value, key: key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try scalarIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try scalarIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try scalarIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try scalarIfPresent(type, forKey: key)
    }

    // MARK: - Nested containers

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.child(value(forKey: key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(value(forKey: key), key: key).unkeyedContainer()
    }

    /// A decoder of the member `super`, or of null when there is none, as Foundation's `JSONDecoder` gives.
    func superDecoder() throws -> any Decoder {
        let key = JSONSuperKey()
        return decoder.child(decoder.member(named: key.stringValue) ?? .null, key: key)
    }

    /// A decoder of the member `key`, or of null when there is none, as Foundation's `JSONDecoder` gives.
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(decoder.member(named: key.stringValue) ?? .null, key: key)
    }
}
