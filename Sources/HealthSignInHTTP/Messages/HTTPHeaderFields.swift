/// One header field of a request or response.
///
/// A field marked sensitive, and any field whose name always carries a credential (`Authorization`, `Cookie`, ...),
/// prints its value as ``Redaction/placeholder`` in every description, dump and log. Sensitivity does not take part
/// in equality: two fields are equal when they send the same bytes.
public struct HTTPHeaderField: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The field name as given; comparisons are case-insensitive.
    public let name: String
    /// The field value.
    public let value: String
    /// Whether the value is a secret, never to be printed.
    public let isSensitive: Bool

    /// Creates a field; `isSensitive` is true whatever is passed when `name` always carries a credential.
    public init(name: String, value: String, isSensitive: Bool = false) {
        self.name = name
        self.value = value
        self.isSensitive = isSensitive || HTTPHeaderFields.credentialNames.contains(name.lowercased())
    }

    /// Fields are equal when their names and values are.
    public static func == (lhs: HTTPHeaderField, rhs: HTTPHeaderField) -> Bool {
        lhs.name == rhs.name && lhs.value == rhs.value
    }

    /// Hashes the name and value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }

    /// `Name: value`, with a sensitive value redacted.
    public var description: String { "\(name): \(isSensitive ? Redaction.placeholder : value)" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["field": description], displayStyle: .struct) }
}

/// An ordered list of header fields with case-insensitive lookup.
///
/// Order is kept as added so that requests are byte-for-byte reproducible.
///
/// Printing the list, dumping it or logging it never shows a sensitive field's value (see ``HTTPHeaderField``).
public struct HTTPHeaderFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible,
    CustomDebugStringConvertible, CustomReflectable
{
    /// The fields in the order they were added.
    public private(set) var fields: [HTTPHeaderField] = []

    /// Creates an empty list.
    public init() {}

    /// Creates a list from name/value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The value of the first field called `name` (case-insensitive), or nil; setting replaces every such field,
    /// and the new field stays sensitive if a field it replaces was.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            let wasSensitive = fields.contains { $0.isSensitive && $0.name.caseInsensitiveEquals(name) }
            remove(name)
            if let newValue { add(name, newValue, sensitive: wasSensitive) }
        }
    }

    /// Replaces every field called `name` with one field carrying a secret, which is never printed.
    public mutating func setSensitive(_ name: String, _ value: String) {
        remove(name)
        add(name, value, sensitive: true)
    }

    /// Every value of the fields called `name`, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Appends a field, keeping any existing fields of the same name; a `sensitive` value is never printed.
    public mutating func add(_ name: String, _ value: String, sensitive: Bool = false) {
        fields.append(HTTPHeaderField(name: name, value: value, isSensitive: sensitive))
    }

    /// Removes every field called `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[HTTPHeaderField]> { fields.makeIterator() }

    /// Header names whose values are always credentials, whoever sets them.
    static let credentialNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-vital-api-key", "x-api-key",
    ]

    /// The fields as `Name: value` lines, with sensitive values replaced by `<redacted>`.
    var redactedLines: [String] { fields.map(\.description) }

    /// The fields in brackets, with sensitive values redacted.
    public var description: String { "[" + redactedLines.joined(separator: ", ") + "]" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror of the redacted fields.
    public var customMirror: Mirror { Mirror(self, unlabeledChildren: redactedLines, displayStyle: .collection) }
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

extension HTTPHeaderFields {
    /// Throws unless every field can travel as it is (RFC 9110 §5.1, §5.5): a name of token characters, and a value
    /// as ``isFieldValue(_:)`` describes (visible US-ASCII, with spaces and tabs only between visible characters). A
    /// CR or LF in a field would end the header there and let whatever follows pass as other fields, so no request
    /// with one is sent. Every request the SDK sends is checked this way after the last middleware.
    ///
    /// - Throws: ``RequestEncodingError/invalidHeaderField(_:)`` naming the first such field (its control characters
    ///   shown as `?`).
    public func checkSyntax() throws(RequestEncodingError) {
        for field in fields where !Self.isToken(field.name) || !Self.isFieldValue(field.value) {
            throw .invalidHeaderField(
                String(String.UnicodeScalarView(field.name.unicodeScalars.map { $0.value < 0x20 ? "?" : $0 })))
        }
    }

    /// Whether `name` is an RFC 9110 token: one or more letters, digits and the punctuation `tchar` allows.
    public static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in tokenPunctuation.contains(byte) || isAlphanumeric(byte) }
    }

    /// Whether `value` may be sent as the value of a request's header field: RFC 9110 §5.5 `field-value`
    /// (`*field-content`, where `field-content = field-vchar [ 1*( SP / HTAB / field-vchar ) field-vchar ]`) without
    /// `obs-text`. So it is empty, or starts and ends with a visible US-ASCII character (`!` to `~`), and holds
    /// nothing but those, spaces and tabs: no other control character (CR, LF, NUL, DEL) and no leading or trailing
    /// space or tab, which a recipient strips and so would not see.
    ///
    /// No character outside US-ASCII is sent. RFC 9110 §5.5 lets only `obs-text` (bytes 0x80 to 0xFF) carry one,
    /// says new fields should limit their values to visible US-ASCII, and does not say how those bytes are decoded:
    /// a `String` goes out as UTF-8, which a server may read as Latin-1, so `é` would arrive as two other characters.
    /// Encode such text first (percent-encoding, or RFC 8187 for a parameter).
    ///
    /// This is the policy for what the SDK sends. Header fields of responses are read leniently, `obs-text`
    /// included, as RFC 9110 lets a recipient; this check is never applied to them.
    public static func isFieldValue(_ value: String) -> Bool {
        let bytes = value.utf8
        guard let first = bytes.first, let last = bytes.last else { return true }
        return !isBlank(first) && !isBlank(last) && bytes.allSatisfy { $0 == 0x09 || (0x20...0x7E).contains($0) }
    }

    /// SP or HTAB, which a field value may hold only between visible characters.
    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
