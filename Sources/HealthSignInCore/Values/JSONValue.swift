import Foundation
import HealthSignInSchemaSemantics

/// Any JSON value, for schema properties that hold "any value", kept exactly as received.
///
/// Read one with ``parse(_:)`` and write it back with ``serialized()``: objects keep their members in the order
/// received (duplicates included) and numbers keep their exact text, so compact input comes back byte for byte
/// when it uses the same escaping choices as ``serialized()`` (see there).
///
/// ```swift
/// let value = try JSONValue.parse(Data(#"{"b":1.0,"a":[true,null,"x"]}"#.utf8))
/// let text = value["b"]?.numberValue?.text                 // "1.0"
/// let first = value["a"]?[0]?.boolValue                     // true
/// let bytes = String(decoding: value.serialized(), as: UTF8.self)  // #"{"b":1.0,"a":[true,null,"x"]}"#
/// ```
///
/// `JSONValue` is also `Codable`, so it can sit inside any `Codable` model. Foundation's `JSONDecoder` does not
/// report a number's text or the order of an object's members, so a value decoded through it has numbers spelled
/// from their parsed value (`1.0` reads as `1`) and members sorted by key (for deterministic output); use
/// ``parse(_:)`` where the exact bytes matter.
///
/// Values compare member by member in order: `{"a":1,"b":2}` and `{"b":2,"a":1}` are different values, as are the
/// numbers `1` and `1.0`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its exact text.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its members in the order received.
    case object(JSONObject)

    /// How deeply arrays and objects may nest in what the SDK reads (``parse(_:)``, and every response it
    /// decodes); deeper input is refused rather than risking the stack. It is half the depth the SDK's JSON writing
    /// and Foundation's `JSONEncoder` write (512), so whatever was read can always be stored, kept inside up to 255
    /// levels of the SDK's own state: a token response that arrived is never lost to a store that cannot write it.
    public static let maximumDepth = 256

    /// How deeply the SDK's JSON writing (``JSONCoding``, which the credential stores write with) nests arrays and
    /// objects: as deeply as Foundation's `JSONEncoder`.
    package static let writableDepth = 511

    // MARK: - Accessors

    /// The member called `key` when this is an object that has one (the last, if the key appears more than once).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` when this is an array that long, else nil.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        guard case .string(let string) = self else { return nil }
        return string
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let bool) = self else { return nil }
        return bool
    }

    /// The number, when this is a number.
    public var numberValue: JSONNumber? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let array) = self else { return nil }
        return array
    }

    /// The members, when this is an object.
    public var objectValue: JSONObject? {
        guard case .object(let object) = self else { return nil }
        return object
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    // MARK: - Reading and writing exact bytes

    /// Reads one JSON text, strictly as RFC 8259 defines it, keeping member order and number text.
    ///
    /// Refused: anything but one value surrounded by optional whitespace (no byte order mark, no comments, no
    /// trailing commas), numbers with leading zeros or without digits around the `.`, unescaped control characters
    /// and unterminated strings, escapes JSON does not define, `\u` escapes of unpaired surrogates, bytes that are
    /// not UTF-8, and nesting deeper than ``maximumDepth``. Duplicate object keys are kept, in order.
    ///
    /// - Throws: ``JSONValueError`` saying why and at which byte.
    public static func parse(_ data: Data) throws(JSONValueError) -> JSONValue {
        var parser = JSONValueParser(bytes: [UInt8](data))
        return try parser.document()
    }

    /// Compact JSON: no whitespace, object members in stored order, numbers in their exact text.
    ///
    /// Strings escape only what RFC 8259 requires: `"` and `\` as `\"` and `\\`, and control characters below
    /// U+0020 as `\b`, `\f`, `\n`, `\r`, `\t` or `\u00xx` (lowercase hexadecimal). `/` and non-ASCII characters
    /// are written as they are, in UTF-8. Input that spelled a character differently (`\/`, `\u00e9`, `\u000A`)
    /// comes back in this spelling.
    public func serialized() -> Data {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return Data(bytes)
    }

    /// Appends the compact JSON text, members in stored order.
    func write(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(contentsOf: "null".utf8)
        case .bool(let bool):
            bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number):
            bytes.append(contentsOf: number.text.utf8)
        case .string(let string):
            Self.writeString(string, to: &bytes)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in array.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string, escaped as ``serialized()`` documents.
    ///
    /// The bytes between escapes are appended a run at a time, which matters since most strings need none.
    static func writeString(_ string: String, to bytes: inout [UInt8]) {
        var string = string
        bytes.append(UInt8(ascii: "\""))
        string.withUTF8 { utf8 in
            var run = 0
            for (position, byte) in utf8.enumerated()
            where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<position]))
                appendEscape(of: byte, to: &bytes)
                run = position + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
        case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
        case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
        case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
        case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
        default:
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, as ``serialized()`` writes it.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }
}

// MARK: - Codable

extension JSONValue: Codable {
    /// Reads any JSON value from `decoder`.
    ///
    /// Numbers are spelled from the value the decoder parsed (integers exactly, others as the shortest text that
    /// reads back as the same `Double`), and object members are sorted by key, since decoders do not report their
    /// order. Use ``parse(_:)`` to keep both exactly.
    public init(from decoder: any Decoder) throws {
        // The runtime's own decoder holds the value as received: its number text and member order are kept.
        if let decoding = decoder as? JSONValueDecoding {
            self = decoding.value
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? single.decode(Int64.self) {
            self = .number(JSONNumber(uncheckedText: String(integer)))
        } else if let integer = try? single.decode(UInt64.self) {
            self = .number(JSONNumber(uncheckedText: String(integer)))
        } else if let double = try? single.decode(Double.self) {
            guard let number = JSONNumber(exactly: double) else {
                throw DecodingError.dataCorruptedError(in: single, debugDescription: "a number JSON cannot hold")
            }
            self = .number(number)
        } else if let string = try? single.decode(String.self) {
            self = .string(string)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(array)
        } else if let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) {
            let keys = keyed.allKeys.sorted { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(keys.count)
            for key in keys { members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key))) }
            self = .object(JSONObject(members))
        } else {
            throw DecodingError.dataCorruptedError(in: single, debugDescription: "expected a JSON value")
        }
    }

    /// Writes the value to `encoder`, members in stored order.
    ///
    /// The SDK's own JSON writing keeps numbers in their exact text. Other encoders get numbers as `Int64` or
    /// `UInt64` when their text is an integer that fits, else as `Double`.
    ///
    /// - Throws: `EncodingError.invalidValue` when another encoder would need a `Double` for a number too large for
    ///   one (such as `1e400`); use ``serialized()`` to write it exactly.
    public func encode(to encoder: any Encoder) throws {
        if let encoding = encoder as? JSONValueEncoding {
            encoding.set(.value(self))
            return
        }
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .number(let number):
            try number.encode(to: encoder)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .object(let object):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for member in object.members { try container.encode(member.value, forKey: AnyCodingKey(member.key)) }
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A number, spelled as the shortest text that reads back as the same `Double`.
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object, with its members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

// MARK: - JSONObject

/// The members of a JSON object, in the order received.
///
/// Reading by key finds the last member with that key, as most JSON readers do; iterating gives every member in
/// order, duplicates included, so ``JSONValue/serialized()`` writes the object back as it came.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One member: its key and value.
    public typealias Member = (key: String, value: JSONValue)

    /// The members, in order.
    public private(set) var members: [Member]

    /// An object with no members.
    public init() { members = [] }

    /// An object with `members`, in this order (duplicate keys are kept).
    public init(_ members: [Member]) { self.members = members }

    /// The keys, in member order.
    public var keys: [String] { members.map(\.key) }

    /// How many members the object has.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The value of the last member called `key`, or nil.
    ///
    /// Setting a value replaces the member with that key where it stands (dropping any duplicates of it), or
    /// appends a member when there is none; setting nil removes every member with that key. To store JSON `null`,
    /// set ``JSONValue/null``.
    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            guard let first = members.firstIndex(where: { $0.key == key }) else {
                members.append((key, newValue))
                return
            }
            members[first].value = newValue
            var position = members.count - 1
            while position > first {
                if members[position].key == key { members.remove(at: position) }
                position -= 1
            }
        }
    }

    /// Iterates over the members in order.
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// The number of members.
    public var underestimatedCount: Int { members.count }

    /// Whether both objects have the same members, in any order: JSON objects are unordered (RFC 8259 §4), and
    /// codecs such as `JSONEncoder` with sorted keys reorder them. ``members`` keeps the order for writing.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && lhs.sortedMembers.elementsEqual(rhs.sortedMembers) {
                $0.key == $1.key && $0.value == $1.value
            }
    }

    /// Hashes the members in key order, so that equal objects hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for member in sortedMembers {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }

    /// The members ordered by key (stably, so repeated keys keep their order).
    private var sortedMembers: [Member] {
        members.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object with the members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON.
    public var description: String { JSONValue.object(self).description }
}

// MARK: - JSONNumber

/// A JSON number, kept as its exact text (`1.0`, `-0`, `1e400` and `12345678901234567890` stay as written).
///
/// Two numbers are equal when their text is: `1` and `1.0` are different numbers here, as they are different
/// bytes on the wire. Read the value with ``intValue`` or ``doubleValue``.
public struct JSONNumber: Sendable, Hashable {
    /// The number as written, a valid JSON number.
    public let text: String

    /// The number spelled `text`, or nil when `text` is not exactly a JSON number (RFC 8259 §6: an optional `-`,
    /// digits without leading zeros, an optional fraction, an optional exponent; no spaces, `+` sign, `NaN`).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard case .success(bytes.count) = JSONValueParser.scanNumber(bytes, from: 0) else { return nil }
        self.text = text
    }

    /// The integer `value`.
    public init(_ value: Int) { text = String(value) }

    /// The finite `value`, spelled as the shortest text that reads back as the same `Double` (`1.0`, `0.1`,
    /// `1e+16`).
    ///
    /// - Precondition: `value` is finite; JSON has no spelling for infinity or NaN. ``init(exactly:)`` returns
    ///   nil instead.
    public init(_ value: Double) {
        precondition(value.isFinite, "JSONNumber: JSON cannot hold \(value)")
        text = value.description
    }

    /// The finite `value`, spelled as the shortest text that reads back as the same `Double`, or nil for infinity
    /// and NaN.
    public init?(exactly value: Double) {
        guard value.isFinite else { return nil }
        text = value.description
    }

    /// Text already checked to be a JSON number.
    init(uncheckedText: String) { text = uncheckedText }

    /// Whether the text is an integer: no fraction and no exponent.
    var isIntegerText: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The nearest `Double`, or nil when the number is too large for one (`1e400`); tiny numbers read as zero.
    public var doubleValue: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The value as an `Int` when it is exactly an integer that fits (`3`, `-0`, `3.0`, `1e2`), else nil.
    public var intValue: Int? { JSONIntegerValue(text).value() }
}

extension JSONNumber: CustomStringConvertible {
    /// The number's text.
    public var description: String { text }
}

extension JSONNumber: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int) { self.init(value) }
}

extension JSONNumber: ExpressibleByFloatLiteral {
    /// A number, spelled as the shortest text that reads back as the same `Double`.
    public init(floatLiteral value: Double) { self.init(value) }
}

// MARK: - Errors

/// Why ``JSONValue/parse(_:)`` refused its input, and at which byte.
public struct JSONValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The input ended inside a value, or held no value at all.
        case unexpectedEnd
        /// A byte that cannot stand here, such as the `]` after a trailing comma or a byte order mark.
        case unexpectedByte(UInt8)
        /// A misspelled `true`, `false` or `null`.
        case invalidLiteral
        /// A number against the grammar: a leading zero (`01`), no digit after `-`, `.` or `e`.
        case invalidNumber
        /// A string without its closing quote; the offset is its opening quote.
        case unterminatedString
        /// A control character (below U+0020) inside a string, which JSON requires to be escaped.
        case controlCharacterInString
        /// A backslash escape JSON does not define, or a `\u` not followed by four hexadecimal digits.
        case invalidEscape
        /// A `\u` escape of a surrogate that is not part of a high-low pair.
        case loneSurrogate
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// Arrays and objects nested deeper than ``JSONValue/maximumDepth``.
        case tooDeep
        /// More than whitespace after the value.
        case trailingContent
    }

    /// What was wrong.
    public let reason: Reason
    /// Where, in bytes from the start of the input.
    public let offset: Int

    /// An error for `reason` at `offset`.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// For example `malformed JSON at byte 7: a leading zero or a missing digit in a number`.
    public var description: String { "malformed JSON at byte \(offset): \(explanation)" }

    private var explanation: String {
        switch reason {
        case .unexpectedEnd: return "unexpected end of the input"
        case .unexpectedByte(let byte):
            if byte >= 0x20 && byte < 0x7F { return "unexpected '\(Character(Unicode.Scalar(byte)))'" }
            return "unexpected byte 0x\(String(byte, radix: 16, uppercase: true))"
        case .invalidLiteral: return "expected true, false or null"
        case .invalidNumber: return "a leading zero or a missing digit in a number"
        case .unterminatedString: return "a string without its closing quote"
        case .controlCharacterInString: return "an unescaped control character in a string"
        case .invalidEscape: return "an escape JSON does not define"
        case .loneSurrogate: return "a \\u escape of an unpaired surrogate"
        case .invalidUTF8: return "bytes that are not UTF-8"
        case .tooDeep: return "arrays and objects nest deeper than \(JSONValue.maximumDepth) levels"
        case .trailingContent: return "content after the JSON value"
        }
    }
}

// MARK: - Parser

/// The strict RFC 8259 reader behind ``JSONValue/parse(_:)``.
///
/// It never recurses: open arrays and objects are kept on an explicit stack bounded by ``JSONValue/maximumDepth``,
/// so hostile input costs memory in proportion to its size and never the call stack.
struct JSONValueParser {
    /// An array or object whose closing bracket has not been read yet.
    private struct Container {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [JSONObject.Member] = []
        /// The key of the member whose value is being read.
        var key = ""

        mutating func append(_ value: JSONValue) {
            if isObject { members.append((key, value)) } else { elements.append(value) }
        }

        var value: JSONValue { isObject ? .object(JSONObject(members)) : .array(elements) }
    }

    private let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// One value and nothing but whitespace around it.
    mutating func document() throws(JSONValueError) -> JSONValue {
        var stack: [Container] = []
        var value: JSONValue
        values: while true {
            skipWhitespace()
            guard index < bytes.count else { throw failure(.unexpectedEnd) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                guard stack.count < JSONValue.maximumDepth else { throw failure(.tooDeep) }
                let isObject = byte == UInt8(ascii: "{")
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    value = isObject ? .object(JSONObject()) : .array([])
                } else {
                    var container = Container(isObject: isObject)
                    if isObject { container.key = try key() }
                    stack.append(container)
                    continue values
                }
            case UInt8(ascii: "\""):
                value = .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try literal("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try literal("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                value = .number(try number())
            default:
                throw failure(.unexpectedByte(byte))
            }
            // Hand the value to the innermost open container, closing containers while their end follows.
            while var container = stack.popLast() {
                container.append(value)
                skipWhitespace()
                guard index < bytes.count else { throw failure(.unexpectedEnd) }
                let next = bytes[index]
                if next == UInt8(ascii: ",") {
                    index += 1
                    if container.isObject {
                        skipWhitespace()
                        container.key = try key()
                    }
                    stack.append(container)
                    continue values
                }
                guard next == (container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw failure(.unexpectedByte(next))
                }
                index += 1
                value = container.value
            }
            break
        }
        skipWhitespace()
        guard index == bytes.count else { throw failure(.trailingContent) }
        return value
    }

    /// A member's key and the `:` after it.
    private mutating func key() throws(JSONValueError) -> String {
        guard index < bytes.count else { throw failure(.unexpectedEnd) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw failure(.unexpectedByte(bytes[index])) }
        let key = try string()
        skipWhitespace()
        guard index < bytes.count else { throw failure(.unexpectedEnd) }
        guard bytes[index] == UInt8(ascii: ":") else { throw failure(.unexpectedByte(bytes[index])) }
        index += 1
        return key
    }

    private mutating func literal(_ word: StaticString) throws(JSONValueError) {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure(.invalidLiteral) }
        index += count
    }

    private mutating func number() throws(JSONValueError) -> JSONNumber {
        let start = index
        switch Self.scanNumber(bytes, from: start) {
        case .success(let end):
            index = end
            return JSONNumber(uncheckedText: String(decoding: bytes[start..<end], as: UTF8.self))
        case .failure(let error):
            throw error
        }
    }

    /// Where the JSON number starting at `start` ends, or why it is not one.
    static func scanNumber(_ bytes: [UInt8], from start: Int) -> Result<Int, JSONValueError> {
        var index = start
        func isDigit(_ position: Int) -> Bool {
            position < bytes.count && bytes[position] >= UInt8(ascii: "0") && bytes[position] <= UInt8(ascii: "9")
        }
        func digits() -> Bool {
            guard isDigit(index) else { return false }
            while isDigit(index) { index += 1 }
            return true
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return .failure(JSONValueError(.invalidNumber, offset: index)) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return .failure(JSONValueError(.invalidNumber, offset: index)) }
        } else {
            _ = digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() else { return .failure(JSONValueError(.invalidNumber, offset: index)) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() else { return .failure(JSONValueError(.invalidNumber, offset: index)) }
        }
        return .success(index)
    }

    /// A string, from its opening quote to just after its closing one.
    private mutating func string() throws(JSONValueError) -> String {
        let quote = index
        index += 1
        var run = index
        // Bytes of the string so far, once an escape (which adds at least one byte) means it is no longer one run
        // of the input. Appended to in place: a copy for each escape would make a string of escapes quadratic.
        var decoded: [UInt8] = []
        while true {
            guard index < bytes.count else { throw JSONValueError(.unterminatedString, offset: quote) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string: String
                if !decoded.isEmpty {
                    decoded.append(contentsOf: bytes[run..<index])
                    string = String(decoding: decoded, as: UTF8.self)
                } else {
                    string = String(decoding: bytes[run..<index], as: UTF8.self)
                }
                index += 1
                return string
            } else if byte == UInt8(ascii: "\\") {
                decoded.append(contentsOf: bytes[run..<index])
                try escape(into: &decoded)
                run = index
            } else if byte < 0x20 {
                throw failure(.controlCharacterInString)
            } else if byte < 0x80 {
                index += 1
            } else {
                try utf8Sequence()
            }
        }
    }

    /// One backslash escape, appended to `buffer` as UTF-8.
    private mutating func escape(into buffer: inout [UInt8]) throws(JSONValueError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw JSONValueError(.unterminatedString, offset: start) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeStart: start)
            var value = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw JSONValueError(.loneSurrogate, offset: start) }
                let lowStart = index
                index += 2
                let low = try hexQuad(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else { throw JSONValueError(.loneSurrogate, offset: start) }
                value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw JSONValueError(.loneSurrogate, offset: start)
            }
            guard let scalar = Unicode.Scalar(value) else { throw JSONValueError(.loneSurrogate, offset: start) }
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            throw JSONValueError(.invalidEscape, offset: start)
        }
    }

    /// Four hexadecimal digits after `\u`.
    private mutating func hexQuad(escapeStart: Int) throws(JSONValueError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw JSONValueError(.invalidEscape, offset: escapeStart) }
        var value: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONValueError(.invalidEscape, offset: escapeStart)
            }
            value = value << 4 | UInt16(digit)
        }
        index += 4
        return value
    }

    /// Steps over one multi-byte UTF-8 sequence, checked as Unicode's table 3-7 requires (no overlong forms, no
    /// surrogates, nothing above U+10FFFF).
    private mutating func utf8Sequence() throws(JSONValueError) {
        let lead = bytes[index]
        let count: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0:
            count = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED:
            count = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            count = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4:
            count = 4
            secondRange = 0x80...0x8F
        default: throw failure(.invalidUTF8)
        }
        guard index + count <= bytes.count, secondRange.contains(bytes[index + 1]) else { throw failure(.invalidUTF8) }
        for position in index + 2..<index + count where !(0x80...0xBF).contains(bytes[position]) {
            throw failure(.invalidUTF8)
        }
        index += count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: JSONValueError.Reason) -> JSONValueError { JSONValueError(reason, offset: index) }
}

extension JSONValueError: SDKError {
    /// `ErrorRecovery.none`: the text is not JSON, which no retry or new sign-in fixes.
    public var recovery: ErrorRecovery { .none }
}
