import Foundation

/// The `Decoder` of one node of a ``JSONValue`` tree, used by ``JSONValueDecoder``.
///
/// Each decoder links to its parent and the key that leads to it, so a coding path is assembled only when asked for
/// (mostly for an error) instead of being copied into every nested value.
final class JSONValueDecoding: Decoder {
    /// The node read.
    let value: JSONValue
    let userInfo: [CodingUserInfoKey: Any]
    private let parent: JSONValueDecoding?
    private let key: (any CodingKey)?
    /// The members of the object read, set when a keyed container is made: keyed containers hold only this
    /// decoder, so that copying one (which `KeyedDecodingContainer` does for every read) retains one reference.
    private(set) var members: [JSONObject.Member] = []
    /// The position of the last member of each key, built at the first lookup in an object too large to scan.
    private var memberIndex: [String: Int]?

    /// Objects with at most this many members are searched from the end instead of through an index: for the
    /// handful of members most objects have, comparing keys costs less than hashing them and building a table.
    static let linearLookupLimit = 16

    /// The decoder of a whole document.
    init(root value: JSONValue, userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.userInfo = userInfo
        parent = nil
        key = nil
    }

    private init(value: JSONValue, parent: JSONValueDecoding, key: any CodingKey) {
        self.value = value
        userInfo = parent.userInfo
        self.parent = parent
        self.key = key
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

    /// The decoder of `value`, found in this node under `key`.
    func child(_ value: JSONValue, key: any CodingKey) -> JSONValueDecoding {
        JSONValueDecoding(value: value, parent: self, key: key)
    }

    /// `value` as `type` when that is `JSONValue` or one of the common scalars, else nil.
    ///
    /// A `JSONValue` is the node itself; the scalars need no decoder of their own, which saves one per element of
    /// `[String]` and the like. Comparing types is cheaper than asking the runtime whether `T` conforms to
    /// `JSONScalar`.
    ///
    /// Callers decode other types with `T(from: child(value, key: key))` themselves rather than through a shared
    /// helper: nested values recurse through them, and in unoptimized builds every extra frame on each level
    /// counts against the 512 KiB stacks of secondary threads.
    ///
    /// Callers ask ``readsWithoutDecoder(_:)`` first: that costs a few comparisons, where merely holding the `T?`
    /// this returns makes generic code look up the metadata of `Optional<T>`.
    @inline(never)
    func withoutDecoder<T>(_ type: T.Type, from value: JSONValue, key: some CodingKey) throws -> T? {
        if T.self == JSONValue.self { return value as? T }
        if T.self == String.self { return try read(String.self, from: value, key: key) as? T }
        if T.self == Int.self { return try read(Int.self, from: value, key: key) as? T }
        if T.self == Double.self { return try read(Double.self, from: value, key: key) as? T }
        if T.self == Bool.self { return try read(Bool.self, from: value, key: key) as? T }
        return nil
    }

    /// Whether ``withoutDecoder(_:from:key:)`` reads `type`.
    @inline(__always)
    static func readsWithoutDecoder(_ type: Any.Type) -> Bool {
        type == JSONValue.self || type == String.self || type == Int.self || type == Double.self || type == Bool.self
    }

    /// Decodes `type` from this decoder's own node.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self, let node = value as? T { return node }
        return try T(from: self)
    }

    /// Reads `type` from `value`, found in this node under `key`.
    @inline(__always)
    func read<T: JSONScalar>(_ type: T.Type, from value: JSONValue, key: some CodingKey) throws -> T {
        do {
            return try T.read(value)
        } catch {
            throw decodingError(error, T.self, key: key)
        }
    }

    /// Reads `type` from this decoder's own node.
    @inline(__always)
    func read<T: JSONScalar>(_ type: T.Type) throws -> T {
        do {
            return try T.read(value)
        } catch {
            throw decodingError(error, T.self, key: nil)
        }
    }

    /// The error for `failure` reading `type` at `key` in this node, or at this node when `key` is nil.
    @inline(never)
    private func decodingError(_ failure: JSONScalarFailure, _ type: Any.Type, key: (any CodingKey)?) -> DecodingError {
        var path = codingPath
        if let key { path.append(key) }
        return failure.decodingError(type, codingPath: path)
    }

    // MARK: - Members

    /// The value of the last member called `name`, when this node is an object with a keyed container.
    func member(named name: String) -> JSONValue? {
        // A local copy: each access to the stored property would be checked for exclusive access.
        let members = self.members
        if members.count <= Self.linearLookupLimit {
            var position = members.count
            while position > 0 {
                position -= 1
                if members[position].key == name { return members[position].value }
            }
            return nil
        }
        let index = memberIndex ?? buildMemberIndex()
        guard let position = index[name], members.indices.contains(position) else { return nil }
        return members[position].value
    }

    private func buildMemberIndex() -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() {
            index[member.key] = position
        }
        memberIndex = index
        return index
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw DecodingError.mismatch([String: Any].self, found: value, codingPath: codingPath)
        }
        members = object.members
        return KeyedDecodingContainer(JSONKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.mismatch([Any].self, found: value, codingPath: codingPath)
        }
        return JSONUnkeyedContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONSingleValueContainer(decoder: self)
    }
}
