import Foundation
import HealthSignInSchemaSemantics

/// A value that travels as text: an XML element or attribute, a query or form field, a path segment, or a JSON
/// string that a lenient reader accepts in place of a number.
public protocol WireScalar {
    /// Reads the value from its wire text, or returns nil when the text is not a valid spelling.
    init?(wireText: String)
    /// Reads the value from the UTF-8 bytes of its wire text (already checked to be UTF-8), or returns nil when
    /// they are not a valid spelling. XML decoders call it on the response's own bytes, so the common scalars are
    /// read without making a string first; a type without its own reading gets one that calls ``init(wireText:)``.
    init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>)
    /// The value's wire text.
    var wireText: String { get }
    /// How the type is named in decoding errors ("expected Int, found ...").
    static var wireTypeName: String { get }
    /// Reads the value from a JSON string, in the grammar JSON Schema's `format` gives it: no surrounding
    /// whitespace, RFC 3339 dates and times, RFC 9562 UUIDs, RFC 3986 absolute URIs. The default reads the wire text.
    init?(jsonText: String)
}

extension WireScalar {
    /// The wire text's reading.
    public init?(jsonText: String) { self.init(wireText: jsonText) }
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
        guard let value = Int(WireText.trimmed(wireText)) else { return nil }
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
        guard let value = Int64(WireText.trimmed(wireText)) else { return nil }
        self = value
    }
    /// The decimal spelling.
    public var wireText: String { String(self) }
    /// `Int64`
    public static var wireTypeName: String { "Int64" }
}

extension Int32: WireScalar {
    /// Reads a decimal integer in the 32-bit range; surrounding whitespace is allowed, as in `xsd:int`.
    public init?(wireText: String) {
        guard let value = Int32(WireText.trimmed(wireText)) else { return nil }
        self = value
    }
    /// The decimal spelling.
    public var wireText: String { String(self) }
    /// `Int32`
    public static var wireTypeName: String { "Int32" }
}

extension Float: WireScalar {
    /// Reads a decimal number that fits a `Float`.
    public init?(wireText: String) {
        guard let value = Float(WireText.trimmed(wireText)), value.isFinite else { return nil }
        self = value
    }
    /// The shortest spelling that reads back to the same value.
    public var wireText: String { description }
    /// `Float`
    public static var wireTypeName: String { "Float" }
}

extension Data: WireScalar {
    /// Reads base64 (RFC 4648 §4, padded), ignoring whitespace around and inside it, as `xsd:base64Binary` allows.
    public init?(wireText: String) {
        let compact = wireText.utf8.filter { !WireText.isSpace($0) }
        guard let value = Data(base64Encoded: Data(compact)) else { return nil }
        self = value
    }
    /// Padded base64 on one line.
    public var wireText: String { base64EncodedString() }
    /// `base64`
    public static var wireTypeName: String { "base64" }
}

extension Double: WireScalar {
    /// Reads a decimal number.
    public init?(wireText: String) {
        guard let value = Double(WireText.trimmed(wireText)), value.isFinite else { return nil }
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
        switch WireText.trimmed(wireText) {
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
        guard let value = WireText.uuid(WireText.trimmed(wireText)) else { return nil }
        self = value
    }
    /// Reads RFC 9562's `8-4-4-4-12` hexadecimal form, in either case, and nothing else.
    public init?(jsonText: String) {
        guard let value = WireText.uuid(jsonText) else { return nil }
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
        guard let value = DateTimeText.parse(WireText.trimmed(wireText)) else { return nil }
        self = value
    }
    /// Reads an RFC 3339 `date-time` exactly (a leap second reads as the next second).
    public init?(jsonText: String) {
        guard let parsed = RFC3339DateTime(jsonText) else { return nil }
        let fraction = Double("0." + parsed.fraction) ?? 0
        self = Date(timeIntervalSince1970: Double(parsed.secondsSince1970) + fraction)
    }
    /// The UTC millisecond spelling, e.g. `2017-08-10T12:34:56.000Z`.
    public var wireText: String { DateTimeText.format(self) }
    /// `date-time`
    public static var wireTypeName: String { "date-time" }
}

extension URL: WireScalar {
    /// Reads an absolute or relative URL.
    public init?(wireText: String) {
        let trimmed = WireText.trimmed(wireText)
        guard !trimmed.isEmpty, let value = URL(string: trimmed) else { return nil }
        self = value
    }
    /// Reads an RFC 3986 URI: a scheme, and nothing a URI cannot hold (a relative reference is not one).
    public init?(jsonText: String) {
        guard URIText.isURI(jsonText), let value = URL(string: jsonText) else { return nil }
        self = value
    }
    /// The URL's string.
    public var wireText: String { absoluteString }
    /// `URL`
    public static var wireTypeName: String { "URL" }
}

extension LocalDate: WireScalar {
    /// Reads `YYYY-MM-DD`.
    public init?(wireText: String) { self.init(WireText.trimmed(wireText)) }
    /// Reads an RFC 3339 `full-date` exactly.
    public init?(jsonText: String) {
        guard let parsed = RFC3339Date(jsonText) else { return nil }
        self.init(year: parsed.year, month: parsed.month, day: parsed.day)
    }
    /// `YYYY-MM-DD`
    public var wireText: String { description }
    /// `date`
    public static var wireTypeName: String { "date" }
}

/// Byte-level helpers for reading wire text: scalars are read in every decoded element and attribute, where
/// Foundation's character-set trimming and UUID parsing cost more than the rest of decoding.
enum WireText {
    /// `text` without leading and trailing XML whitespace (space, tab, carriage return, line feed); `text` itself
    /// when there is none, which is almost always.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return text }
        guard let start = utf8.firstIndex(where: { !isSpace($0) }), let end = utf8.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(text[start...end])
    }

    /// Whether `byte` is XML whitespace.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The UUID spelled `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in hex digits of either case, or nil.
    static func uuid(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8(uuid)
    }

    /// The UUID whose spelling `bytes` hold, or nil.
    static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else {
            return nil
        }
        // Each digit's value from a table, with 16 for a byte that is not one; `invalid` collects them all, so a
        // bad digit anywhere is found once, at the end, rather than by a branch per digit.
        let digits = hexDigits.utf8Start
        var invalid: UInt8 = 0
        func value(_ range: Range<Int>, into number: inout UInt64) {
            for position in range {
                let digit = digits[Int(bytes[position])] &- UInt8(ascii: "0")
                invalid |= digit
                number = number << 4 | UInt64(digit & 0x0F)
            }
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        value(0..<8, into: &high)
        value(9..<13, into: &high)
        value(14..<18, into: &high)
        value(19..<23, into: &low)
        value(24..<36, into: &low)
        guard invalid & 0xF0 == 0 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { output in
            output.storeBytes(of: high.bigEndian, as: UInt64.self)
            output.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: value)
    }

    /// For each byte value, `0`–`9` and `:`–`?` (0x30 plus the value) where it is a hexadecimal digit, `@` (16)
    /// elsewhere; a string literal, so a constant.
    private static let hexDigits: StaticString = """
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@0123456789@@@@@@\
        @:;<=>?@@@@@@@@@@@@@@@@@@@@@@@@@@:;<=>?@@@@@@@@@@@@@@@@@@@@@@@@@\
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\
        @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
        """

}
