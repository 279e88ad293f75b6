import Foundation

/// Reads one HTTP/1.1 response (RFC 9112) from bytes as they arrive: the status line and header fields, then a body
/// framed by chunked transfer coding, `Content-Length`, or the end of the connection.
///
/// Every piece of work is bounded: the head by ``maximumHeadSize``, the body by the request's limit (counted in the
/// bytes the caller receives, since no content coding is ever decoded), chunk-size and trailer lines by
/// ``maximumLineSize``. A response in a content or transfer coding other than `identity` and `chunked` is refused
/// before any of its body is read: the SDK asks for `identity`, and decoding a coding nobody asked for would let a
/// few kilobytes turn into gigabytes.
package struct HTTP1ResponseParser {
    /// Why a response cannot be read.
    package enum Failure: Error, Equatable {
        /// The bytes are not an HTTP/1.1 response.
        case malformed(String)
        /// The head or the body is over its limit.
        case tooLarge(String)
        /// The body is in a coding that was not asked for.
        case unrequestedEncoding(String)
    }

    /// The most bytes the status line and header fields may take together.
    package static let maximumHeadSize = 65_536
    /// The most bytes a chunk-size line or a trailer line may take.
    package static let maximumLineSize = 4_096

    private enum Framing {
        case none
        case length(Int)
        case chunked
        case untilClose
    }

    private enum State {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailer
        case untilClose
        case done
    }

    private let bodyLimit: Int
    private let expectsBody: Bool
    private var state = State.head
    private var head: [UInt8] = []
    private var line: [UInt8] = []
    private var status = 0
    private var headers = HTTPHeaderFields()
    private var body = Data()

    /// A parser for the response to a request whose response may carry a body (`expectsBody` is false for `HEAD`)
    /// of at most `bodyLimit` bytes.
    package init(bodyLimit: Int, expectsBody: Bool) {
        self.bodyLimit = max(bodyLimit, 0)
        self.expectsBody = expectsBody
    }

    /// Whether the response is complete.
    package var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// The response, once ``isComplete``.
    package var response: HTTPResponseMessage? {
        isComplete ? HTTPResponseMessage(status: status, headers: headers, body: body) : nil
    }

    /// Reads `bytes`; bytes after the end of the response are ignored.
    package mutating func consume(_ bytes: some Collection<UInt8>) throws(Failure) {
        var input = ArraySlice(bytes)
        while !input.isEmpty {
            switch state {
            case .head:
                input = try consumeHead(input)
            case .fixed(let remaining):
                let count = min(remaining, input.count)
                try append(input.prefix(count))
                input = input.dropFirst(count)
                state = remaining == count ? .done : .fixed(remaining: remaining - count)
            case .chunkSize:
                guard let text = try readLine(&input) else { return }
                let size = try Self.chunkSize(text)
                state = size == 0 ? .trailer : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, input.count)
                try append(input.prefix(count))
                input = input.dropFirst(count)
                state = remaining == count ? .chunkDataEnd : .chunkData(remaining: remaining - count)
            case .chunkDataEnd:
                guard let text = try readLine(&input) else { return }
                guard text.isEmpty else { throw .malformed("a chunk does not end where its size says") }
                state = .chunkSize
            case .trailer:
                // Trailer fields are read and dropped: nothing the SDK uses may arrive after the body.
                guard let text = try readLine(&input) else { return }
                if text.isEmpty { state = .done }
            case .untilClose:
                try append(input)
                input = []
            case .done:
                return
            }
        }
    }

    /// The connection ended: completes a response framed by the end of the connection, or throws when the
    /// response is cut short.
    package mutating func finish() throws(Failure) {
        switch state {
        case .untilClose: state = .done
        case .done: return
        case .head where head.isEmpty: throw .malformed("the connection closed before a response")
        default: throw .malformed("the connection closed before the response was complete")
        }
    }

    // MARK: - Head

    private mutating func consumeHead(_ input: ArraySlice<UInt8>) throws(Failure) -> ArraySlice<UInt8> {
        let scanFrom = max(head.count - 3, 0)
        head.append(contentsOf: input)
        guard let end = Self.endOfHead(in: head, from: scanFrom) else {
            if head.count > Self.maximumHeadSize {
                throw .tooLarge("the response's header fields are over \(Self.maximumHeadSize) bytes")
            }
            return []
        }
        guard end <= Self.maximumHeadSize else {
            throw .tooLarge("the response's header fields are over \(Self.maximumHeadSize) bytes")
        }
        let rest = ArraySlice(head[end...])
        try readHead(Array(head[..<end]))
        head = []
        return rest
    }

    /// The index just past the empty line that ends the head (CRLF CRLF, or bare LFs), or nil.
    private static func endOfHead(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 0x0A {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    private mutating func readHead(_ bytes: [UInt8]) throws(Failure) {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let statusLine = lines.first else { throw .malformed("the response has no status line") }
        status = try Self.statusCode(statusLine)
        var fields = HTTPHeaderFields()
        for line in lines.dropFirst() {
            guard let first = line.first, first != 0x20, first != 0x09 else {
                throw .malformed("a header field is folded over several lines")
            }
            guard let colon = line.firstIndex(of: 0x3A) else { throw .malformed("a header line has no colon") }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self)
            guard HTTPHeaderFields.isToken(name) else { throw .malformed("a header field name is not a token") }
            fields.add(name, Self.fieldValue(line[line.index(after: colon)...]))
        }
        // An interim response (100 Continue, 103 Early Hints) is followed by the real one.
        if (100..<200).contains(status) {
            guard status != 101 else { throw .malformed("the server switched protocols, which was not asked for") }
            return
        }
        headers = fields
        state = try bodyState(for: framing(of: fields))
    }

    private static func statusCode(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
        let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)), parts[0].count == 8,
            parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }),
            let code = Int(String(decoding: parts[1], as: UTF8.self)), code >= 100
        else { throw .malformed("the status line is not HTTP/1.x") }
        return code
    }

    /// The value without surrounding whitespace; bytes that are not UTF-8 are read as ISO 8859-1 (obs-text).
    private static func fieldValue(_ bytes: ArraySlice<UInt8>) -> String {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        let trimmed = bytes[first...last]
        return String(validating: trimmed, as: UTF8.self) ?? String(trimmed.map { Character(Unicode.Scalar($0)) })
    }

    private func framing(of fields: HTTPHeaderFields) throws(Failure) -> Framing {
        guard expectsBody, status != 204, status != 304 else { return .none }
        for coding in Self.listValues(fields.values("Content-Encoding")) where coding != "identity" {
            throw .unrequestedEncoding("the body is in the content coding '\(coding)', and identity was asked for")
        }
        let transferCodings = Self.listValues(fields.values("Transfer-Encoding"))
        if !transferCodings.isEmpty {
            guard transferCodings == ["chunked"] else {
                let codings = transferCodings.joined(separator: ", ")
                throw .unrequestedEncoding("the body is in the transfer coding '\(codings)'; only chunked is read")
            }
            return .chunked
        }
        let lengths = Set(Self.listValues(fields.values("Content-Length")))
        guard let length = lengths.first else { return .untilClose }
        guard lengths.count == 1, length.count <= 18, length.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let count = Int(length)
        else { throw .malformed("the Content-Length is not one decimal number") }
        guard count <= bodyLimit else {
            throw .tooLarge("the response announces \(count) bytes, over the limit of \(bodyLimit)")
        }
        return .length(count)
    }

    private func bodyState(for framing: Framing) -> State {
        switch framing {
        case .none, .length(0): return .done
        case .length(let count): return .fixed(remaining: count)
        case .chunked: return .chunkSize
        case .untilClose: return .untilClose
        }
    }

    /// The comma-separated members of a list field's values, trimmed and lowercased, without empty ones.
    private static func listValues(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    // MARK: - Body

    private mutating func append(_ bytes: ArraySlice<UInt8>) throws(Failure) {
        guard body.count + bytes.count <= bodyLimit else {
            throw .tooLarge("the response went over the limit of \(bodyLimit) bytes")
        }
        body.append(contentsOf: bytes)
    }

    /// The next line of `input` without its line ending, consuming it, or nil when the line is not complete yet
    /// (its start is kept for the next call).
    private mutating func readLine(_ input: inout ArraySlice<UInt8>) throws(Failure) -> [UInt8]? {
        guard let newline = input.firstIndex(of: 0x0A) else {
            line.append(contentsOf: input)
            input = []
            guard line.count <= Self.maximumLineSize else { throw .tooLarge("a chunk line is over its limit") }
            return nil
        }
        line.append(contentsOf: input[..<newline])
        input = input[input.index(after: newline)...]
        guard line.count <= Self.maximumLineSize else { throw .tooLarge("a chunk line is over its limit") }
        defer { line = [] }
        return line.last == 0x0D ? Array(line.dropLast()) : line
    }

    /// The size of a chunk-size line (hexadecimal, then any chunk extensions, which are ignored).
    private static func chunkSize(_ line: [UInt8]) throws(Failure) -> Int {
        let digits = line.prefix { $0 != 0x3B && $0 != 0x20 && $0 != 0x09 }
        let hex = { (byte: UInt8) in
            (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }
        guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(hex),
            let size = Int(String(decoding: digits, as: UTF8.self), radix: 16), size >= 0
        else { throw .malformed("a chunk size is not a hexadecimal number") }
        return size
    }
}
