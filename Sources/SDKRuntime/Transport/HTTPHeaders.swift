/// One header field of a request or response.
public struct HTTPHeaderField: Sendable, Hashable {
    /// The field name as given; comparisons are case-insensitive.
    public let name: String
    /// The field value.
    public let value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// An ordered list of header fields with case-insensitive lookup.
///
/// Order is kept as added so that requests are byte-for-byte reproducible.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added.
    public private(set) var fields: [HTTPHeaderField] = []

    /// Creates an empty list.
    public init() {}

    /// Creates a list from name/value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The value of the first field called `name` (case-insensitive), or nil; setting replaces every such field.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    /// Every value of the fields called `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(HTTPHeaderField(name: name, value: value))
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPHeaderField]> { fields.makeIterator() }

    /// Header names whose values are credentials, redacted whenever headers are printed.
    static let credentialNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-vital-api-key", "x-api-key",
    ]

    /// The fields as `Name: value` lines, with credential values replaced by `<redacted>`.
    var redactedLines: [String] {
        fields.map { field in
            let isCredential = HTTPHeaders.credentialNames.contains(field.name.lowercased())
            return "\(field.name): \(isCredential ? Redaction.placeholder : field.value)"
        }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names and most protocol tokens need.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let left = utf8
        let right = other.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
    }
}

@inline(__always)
func asciiLowercase(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
}
