/// A string enumeration that keeps values it does not know.
///
/// Generated enums conform to this: a known spelling becomes its case, anything else `unknown(String)`, so a server
/// that adds a value never breaks decoding. JSON, XML and form coding come from the extension below.
public protocol OpenEnum: RawRepresentable, Sendable, Hashable, Codable, WireScalar, CustomStringConvertible
where RawValue == String {
    /// Whether the value is one the schema lists; an unlisted one decodes, but `validate()` refuses it.
    var isListed: Bool { get }
}

extension OpenEnum {
    /// What `known` holds for the listed value spelled exactly `rawValue` (the same code points: JSON Schema does not
    /// equate canonically equivalent strings), or nil: the case, or a row about it.
    @_spi(Generated) @inlinable
    public static func listedCase<Value>(_ rawValue: String, in known: [String: Value]) -> Value? {
        // The same code points are the same UTF-8 bytes. A few listed values are compared one by one, which costs
        // less than hashing the value with Unicode normalization; many are looked up, then compared.
        if known.count <= 16 {
            for (listed, value) in known where sameBytes(listed, rawValue) { return value }
            return nil
        }
        guard let index = known.index(forKey: rawValue), sameBytes(known[index].key, rawValue) else { return nil }
        return known[index].value
    }

    /// Whether two strings have the same UTF-8 bytes, compared through their contiguous storage: a generic walk of
    /// their UTF-8 views costs more than the rest of reading an enum value.
    @usableFromInline
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in rhs.withUTF8 { right in WireText.equal(left, right) } }
    }

    /// Reads any spelling; unknown ones become the `unknown` case.
    @inlinable
    public init?(wireText: String) { self.init(rawValue: wireText) }

    /// The wire spelling.
    public var wireText: String { rawValue }

    /// The enum's type name.
    public static var wireTypeName: String { String(describing: Self.self) }

    /// The wire spelling.
    public var description: String { rawValue }

    /// Reads a JSON string.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unreadable enum value"))
        }
        self = value
    }

    /// Writes a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
