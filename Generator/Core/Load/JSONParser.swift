/// Parses JSON text into ``JSONNode``s that remember their line and column.
///
/// Foundation's parser reports neither, and schema diagnostics must point into the file. The grammar is RFC 8259;
/// duplicate keys are reported, since they make a schema ambiguous. Nesting deeper than ``maximumDepth`` is refused
/// rather than risking the stack.
package struct JSONParser {
    /// How deeply arrays and objects may nest.
    static let maximumDepth = 256

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    /// How far along the current line columns have been counted, and the column there: nodes are located in one
    /// pass over each line, so a document written on a single line is read in linear time.
    private var countedTo = 0
    private var countedColumn = 1
    private var depth = 0
    private var diagnostics: Diagnostics

    /// Parses `text`, the contents of `file`, or reports why it is not JSON.
    ///
    /// - Returns: the root node, or nil when the text is not valid JSON (the reason is in `diagnostics`).
    package static func parse(_ text: String, file: String, diagnostics: inout Diagnostics) -> JSONNode? {
        var parser = JSONParser(bytes: Array(text.utf8), file: file, diagnostics: diagnostics)
        defer { diagnostics = parser.diagnostics }
        do {
            parser.skipWhitespace()
            let root = try parser.parseValue(pointer: "")
            parser.skipWhitespace()
            guard parser.index == parser.bytes.count else {
                throw parser.failure(
                    "unexpected \(parser.describeCurrent()) after the JSON value, expected the end of the file")
            }
            return root
        } catch let failure as ParseFailure {
            parser.diagnostics.error("malformed JSON: \(failure.message)", at: failure.location)
            return nil
        } catch {
            return nil
        }
    }

    private init(bytes: [UInt8], file: String, diagnostics: Diagnostics) {
        self.bytes = bytes
        self.file = file
        self.diagnostics = diagnostics
        // A UTF-8 byte order mark is allowed before the value.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    private struct ParseFailure: Error {
        let message: String
        let location: SourceLocation
    }

    private var location: SourceLocation {
        // Columns count characters, not bytes: continuation bytes of multi-byte characters are skipped.
        var column = 1
        for position in lineStart..<min(index, bytes.count) where bytes[position] & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(file: file, line: line, column: column)
    }

    /// The location of the current byte, counting from where the last location was taken on the same line.
    private mutating func here() -> SourceLocation {
        let end = min(index, bytes.count)
        if countedTo < lineStart || countedTo > end {
            (countedTo, countedColumn) = (lineStart, 1)
        }
        for position in countedTo..<end where bytes[position] & 0xC0 != 0x80 { countedColumn += 1 }
        countedTo = end
        return SourceLocation(file: file, line: line, column: countedColumn)
    }

    private func failure(_ message: String) -> ParseFailure {
        ParseFailure(message: message, location: location)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func parseValue(pointer: String) throws -> JSONNode {
        let start = here()
        guard index < bytes.count else { throw failure("unexpected end of file, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(pointer: pointer, start: start)
        case UInt8(ascii: "["): return try parseArray(pointer: pointer, start: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), location: start, pointer: pointer)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(value: .bool(true), location: start, pointer: pointer)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(value: .bool(false), location: start, pointer: pointer)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(value: .null, location: start, pointer: pointer)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber(pointer: pointer, start: start)
        default: throw failure("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func enterContainer() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject(pointer: String, start: SourceLocation) throws -> JSONNode {
        try enterContainer()
        defer { depth -= 1 }
        index += 1
        var members: [JSONNode.Member] = []
        var seen: [String: SourceLocation] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSONNode(value: .object([]), location: start, pointer: pointer)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()), expected a string key")
            }
            let keyLocation = here()
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("unexpected \(describeCurrent()) after the key \"\(key)\", expected ':'")
            }
            index += 1
            skipWhitespace()
            let childPointer = pointer + "/" + JSONNode.escape(key)
            let value = try parseValue(pointer: childPointer)
            if let first = seen[key] {
                diagnostics.error(
                    "duplicate key \"\(key)\" (first at line \(first.line)), expected each key once", at: keyLocation,
                    pointer: childPointer)
            } else {
                seen[key] = keyLocation
                members.append(JSONNode.Member(key: key, keyLocation: keyLocation, value: value))
            }
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of file, expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                break
            }
            throw failure("unexpected \(describeCurrent()), expected ',' or '}'")
        }
        return JSONNode(value: .object(members), location: start, pointer: pointer)
    }

    private mutating func parseArray(pointer: String, start: SourceLocation) throws -> JSONNode {
        try enterContainer()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return JSONNode(value: .array([]), location: start, pointer: pointer)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(pointer: pointer + "/\(elements.count)"))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unexpected end of file, expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                break
            }
            throw failure("unexpected \(describeCurrent()), expected ',' or ']'")
        }
        return JSONNode(value: .array(elements), location: start, pointer: pointer)
    }

    private mutating func expectLiteral(_ literal: String) throws {
        let expected = Array(literal.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw failure("unexpected \(describeCurrent()), expected a value")
        }
        index += expected.count
    }

    private mutating func parseNumber(pointer: String, start: SourceLocation) throws -> JSONNode {
        let begin = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        // RFC 8259: no leading zeros, so a 0 integer part is a single digit.
        if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try consumeDigits() else { throw failure("unexpected \(describeCurrent()), expected a digit") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard try consumeDigits() else {
                throw failure("unexpected \(describeCurrent()), expected a digit after '.'")
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard try consumeDigits() else { throw failure("unexpected \(describeCurrent()), expected an exponent") }
        }
        let literal = String(decoding: bytes[begin..<index], as: UTF8.self)
        guard let number = Double(literal) else { throw failure("the number \(literal) is out of range") }
        return JSONNode(
            value: .number(number, literal: literal, isInteger: isInteger), location: start, pointer: pointer)
    }

    private mutating func consumeDigits() throws -> Bool {
        let begin = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > begin
    }

    private mutating func parseString() throws -> String {
        index += 1
        let start = index
        // Most strings have no escapes: find the closing quote and decode the bytes once.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"),
            bytes[index] >= 0x20
        {
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var buffer = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw failure("unterminated string, expected '\"'") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw failure("unterminated escape sequence") }
                let escaped = bytes[index]
                index += 1
                let scalar: Unicode.Scalar
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = Unicode.Scalar(escaped)
                case UInt8(ascii: "b"): scalar = "\u{08}"
                case UInt8(ascii: "f"): scalar = "\u{0C}"
                case UInt8(ascii: "n"): scalar = "\n"
                case UInt8(ascii: "r"): scalar = "\r"
                case UInt8(ascii: "t"): scalar = "\t"
                case UInt8(ascii: "u"): scalar = try parseUnicodeEscape()
                default:
                    index -= 1
                    throw failure(
                        "invalid escape \\\(describeCurrent().trimmingQuotes), expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"
                    )
                }
                UTF8.encode(scalar) { buffer.append($0) }
            case 0x00..<0x20:
                throw failure("control character inside a string, expected it escaped")
            default:
                buffer.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseUnicodeEscape() throws -> Unicode.Scalar {
        let first = try parseHex4()
        if (0xD800..<0xDC00).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw failure("unpaired surrogate in \\u escape")
            }
            index += 2
            let second = try parseHex4()
            guard (0xDC00..<0xE000).contains(second),
                let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else { throw failure("invalid surrogate pair in \\u escape") }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else { throw failure("unpaired surrogate in \\u escape") }
        return scalar
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("unexpected \(describeCurrent()) in \\u escape, expected a hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}

extension String {
    fileprivate var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
