import Foundation

/// A value that travels as text: an XML element or attribute, a query or form field, a path segment, or a JSON
/// string that a lenient reader accepts in place of a number.
public protocol WireScalar {
    /// Reads the value from its wire text, or returns nil when the text is not a valid spelling.
    init?(wireText: String)
    /// The value's wire text.
    var wireText: String { get }
    /// How the type is named in decoding errors ("expected Int, found ...").
    static var wireTypeName: String { get }
}

extension String: WireScalar {
    /// The text itself.
    public init?(wireText: String) { self = wireText }
    /// The string itself.
    public var wireText: String { self }
    /// `String`
    public static var wireTypeName: String { "String" }
}

extension Int: WireScalar {
    /// Reads a decimal integer; surrounding whitespace is allowed, as in `xsd:int`.
    public init?(wireText: String) {
        guard let value = Int(wireText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        self = value
    }
    /// The decimal spelling.
    public var wireText: String { String(self) }
    /// `Int`
    public static var wireTypeName: String { "Int" }
}

extension Int64: WireScalar {
    /// Reads a decimal integer; surrounding whitespace is allowed, as in `xsd:long`.
    public init?(wireText: String) {
        guard let value = Int64(wireText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        self = value
    }
    /// The decimal spelling.
    public var wireText: String { String(self) }
    /// `Int64`
    public static var wireTypeName: String { "Int64" }
}

extension Double: WireScalar {
    /// Reads a decimal number.
    public init?(wireText: String) {
        guard let value = Double(wireText.trimmingCharacters(in: .whitespacesAndNewlines)), value.isFinite else { return nil }
        self = value
    }
    /// The shortest spelling that reads back to the same value.
    public var wireText: String { description }
    /// `Double`
    public static var wireTypeName: String { "Double" }
}

extension Bool: WireScalar {
    /// Reads `xsd:boolean`: `true`, `false`, `1` or `0`.
    public init?(wireText: String) {
        switch wireText.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }
    /// `true` or `false`.
    public var wireText: String { self ? "true" : "false" }
    /// `Bool`
    public static var wireTypeName: String { "Bool" }
}

extension UUID: WireScalar {
    /// Reads a GUID in either case.
    public init?(wireText: String) {
        guard let value = UUID(uuidString: wireText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        self = value
    }
    /// The lowercase canonical spelling: GUID case is significant to HealthVault's MACs, and servers send lowercase.
    public var wireText: String { uuidString.lowercased() }
    /// `UUID`
    public static var wireTypeName: String { "UUID" }
}

extension Date: WireScalar {
    /// Reads an `xsd:dateTime` (see ``DateTimeText``).
    public init?(wireText: String) {
        guard let value = DateTimeText.parse(wireText.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        self = value
    }
    /// The UTC millisecond spelling, e.g. `2017-08-10T12:34:56.000Z`.
    public var wireText: String { DateTimeText.format(self) }
    /// `date-time`
    public static var wireTypeName: String { "date-time" }
}

extension URL: WireScalar {
    /// Reads an absolute or relative URL.
    public init?(wireText: String) {
        let trimmed = wireText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let value = URL(string: trimmed) else { return nil }
        self = value
    }
    /// The URL's string.
    public var wireText: String { absoluteString }
    /// `URL`
    public static var wireTypeName: String { "URL" }
}

extension LocalDate: WireScalar {
    /// Reads `YYYY-MM-DD`.
    public init?(wireText: String) { self.init(wireText.trimmingCharacters(in: .whitespacesAndNewlines)) }
    /// `YYYY-MM-DD`
    public var wireText: String { description }
    /// `date`
    public static var wireTypeName: String { "date" }
}
