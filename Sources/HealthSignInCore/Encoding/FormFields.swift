import Foundation

/// An ordered list of name/value pairs for a query string or an `application/x-www-form-urlencoded` body.
///
/// Printing the list, dumping it or logging it never shows a sensitive pair's value (see ``FormField``).
public struct FormFields: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The pairs in the order added.
    public private(set) var pairs: [FormField] = []

    /// Creates an empty list.
    public init() {}

    /// Appends `name=value`; a `sensitive` value is never printed.
    public mutating func append(_ name: String, _ value: String, sensitive: Bool = false) {
        pairs.append(FormField(name: name, value: value, isSensitive: sensitive))
    }

    /// Appends `name=value` in the value's wire spelling; nothing for nil.
    public mutating func append(_ name: String, _ value: (some WireScalar)?, sensitive: Bool = false) {
        guard let value else { return }
        append(name, value.wireText, sensitive: sensitive)
    }

    /// Appends one `name=value` pair per element.
    public mutating func append(_ name: String, each values: [some WireScalar], sensitive: Bool = false) {
        for value in values { append(name, value.wireText, sensitive: sensitive) }
    }

    /// Whether there are no pairs.
    public var isEmpty: Bool { pairs.isEmpty }

    /// The value of the first pair called `name`, or nil.
    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    /// The body form per RFC 6749 Appendix B: unreserved characters kept, space as `+`, everything else `%XX`.
    public var formEncoded: String {
        pairs.map { PercentEncoding.form($0.name) + "=" + PercentEncoding.form($0.value) }.joined(separator: "&")
    }

    /// The query-string form: characters JavaScript's `encodeURIComponent` keeps are kept, space as `%20`.
    public var queryEncoded: String {
        pairs.map { PercentEncoding.query($0.name) + "=" + PercentEncoding.query($0.value) }.joined(separator: "&")
    }

    /// Reads a form-encoded string (either spelling of space), keeping order and repeated names.
    public init(formEncoded text: String) {
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decode(String(pieces[0]))
            let value = pieces.count > 1 ? PercentEncoding.decode(String(pieces[1])) : ""
            append(name, value)
        }
    }

    /// The pairs as `name=value`, joined by `&`, with sensitive values redacted and nothing percent-encoded.
    public var description: String { pairs.map(\.description).joined(separator: "&") }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror of the redacted pairs.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: pairs.map(\.description), displayStyle: .collection)
    }
}

/// One pair of a ``FormFields`` list.
///
/// A pair marked sensitive, and any pair whose name always carries a secret in OAuth 2.0 and its extensions
/// (`client_secret`, `code`, `code_verifier`, `refresh_token`, ...), prints its value as `Redaction.placeholder`.
/// Sensitivity does not take part in equality.
public struct FormField: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The field name.
    public let name: String
    /// The field value.
    public let value: String
    /// Whether the value is a secret, never to be printed.
    public let isSensitive: Bool

    /// Names whose values are always secrets, whoever appends them.
    static let secretNames: Set<String> = [
        "client_secret", "client_assertion", "assertion", "code", "code_verifier", "refresh_token", "access_token",
        "id_token", "token", "subject_token", "actor_token", "device_code", "password",
    ]

    /// Creates a pair; `isSensitive` is true whatever is passed when `name` always carries a secret.
    public init(name: String, value: String, isSensitive: Bool = false) {
        self.name = name
        self.value = value
        self.isSensitive = isSensitive || Self.secretNames.contains(name)
    }

    /// Pairs are equal when their names and values are.
    public static func == (lhs: FormField, rhs: FormField) -> Bool { lhs.name == rhs.name && lhs.value == rhs.value }

    /// Hashes the name and value.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(value)
    }

    /// `name=value`, with a sensitive value redacted.
    public var description: String { "\(name)=\(isSensitive ? Redaction.placeholder : value)" }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["pair": description], displayStyle: .struct) }
}

/// The percent-encodings the protocols use.
@_spi(Generated) public enum PercentEncoding {
    private static let alphanumerics: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8))
    private static let unreserved = alphanumerics.union("-._~".utf8)
    private static let componentSafe = alphanumerics.union("-_.!~*'()".utf8)

    /// Form encoding (RFC 6749 Appendix B): unreserved characters kept, space as `+`, everything else `%XX`.
    public static func form(_ text: String) -> String { encode(text, keeping: unreserved, spaceAsPlus: true) }

    /// Percent-encoding with only unreserved characters kept and space as `%20`: what a server reads back whether it
    /// form-decodes or only percent-decodes, as RFC 6749 §2.3.1 client credentials need.
    public static func unreserved(_ text: String) -> String { encode(text, keeping: unreserved, spaceAsPlus: false) }

    /// Query encoding: the characters `encodeURIComponent` keeps (`A-Z a-z 0-9 - _ . ! ~ * ' ( )`), space as `%20`.
    public static func query(_ text: String) -> String { encode(text, keeping: componentSafe, spaceAsPlus: false) }

    /// Path-segment encoding: unreserved characters kept, everything else (including `/`) as `%XX`, and the dot
    /// segments `.` and `..` as `%2E` and `%2E%2E`, so that no value can climb out of the path it is placed in.
    public static func pathSegment(_ text: String) -> String {
        if text == "." || text == ".." { return String(repeating: "%2E", count: text.count) }
        return encode(text, keeping: unreserved, spaceAsPlus: false)
    }

    /// Percent-encodes every byte outside `kept`, uppercase hex; optionally space as `+`.
    public static func encode(_ text: String, keeping kept: Set<UInt8>, spaceAsPlus: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else if byte == UInt8(ascii: " "), spaceAsPlus {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` sequences and `+` (as space); malformed escapes are kept literally.
    public static func decode(_ text: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 2
            } else {
                output.append(byte)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension FormFields: ExpressibleByDictionaryLiteral {
    /// Fields in the order written, e.g. `["status": "ready", "_count": "50"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init()
        for (name, value) in elements { append(name, value) }
    }
}
