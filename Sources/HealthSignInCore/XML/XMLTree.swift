import Foundation

/// A parsed XML document, stored flat for fast reading by generated decoders.
///
/// Built in one pass over the bytes by the SDK's own XML reader. Elements keep their local name, namespace URI, attributes and
/// directly contained text; comments and processing instructions are dropped. Each element also knows where its
/// content is in the document, so its exact bytes stay available as ``XMLElementView/innerXML``. Documents with a
/// document type declaration are refused, so entity expansion and external entities never happen; no protocol the
/// SDK speaks uses one.
///
/// Names, attribute values and text are kept as spans of the document's bytes (or, when references had to be
/// decoded, of a side buffer) and become strings only when a decoder reads them, so a large response costs a few
/// plain-data records per element rather than several heap objects.
public final class XMLTree {
    /// Where some text is: `count` bytes from `start`, in the document or in the decoded buffer.
    ///
    /// Eight bytes: which buffer is the top bit of the count, so that a node and an attribute stay small and a large
    /// document's tree fills fewer fresh pages.
    @usableFromInline
    struct Span: Sendable {
        @usableFromInline let start: Int32
        @usableFromInline let packedCount: UInt32

        @inlinable var count: Int32 { Int32(bitPattern: packedCount & 0x7FFF_FFFF) }
        @inlinable var isDecoded: Bool { packedCount & 0x8000_0000 != 0 }

        init(start: Int32, count: Int32, isDecoded: Bool) {
            self.start = start
            self.packedCount = UInt32(bitPattern: count) | (isDecoded ? 0x8000_0000 : 0)
        }

        /// No text; computed, so that making a node reads no lazily made global.
        static var empty: Span { Span(start: 0, count: 0, isDecoded: false) }
    }

    /// An attribute as written: its qualified name and its normalised value.
    struct Attribute {
        var name: Span
        var value: Span
    }

    /// One element, in 32 bytes: what a large document's tree holds per element is what it costs in memory, and
    /// what its decoder reads again. What only an error or ``XMLElementView/innerXML`` needs (an element's parent,
    /// where its content is) is found when asked (``chain(to:)``, ``contentRange(of:)``).
    struct Node {
        var name: Span
        /// An index into ``namespaces``, or -1 for none.
        var namespace: Int32
        /// Where its attributes start in ``attributes``; they end where the next element's do
        /// (``attributeRange(of:)``).
        var firstAttribute: Int32
        var text = Span.empty
        var firstChild: Int32 = -1
        var nextSibling: Int32 = -1
    }

    // Constants, so that reading them needs no runtime exclusivity checks.
    @usableFromInline let source: [UInt8]
    @usableFromInline let decoded: [UInt8]
    let nodes: [Node]
    let attributes: [Attribute]
    let namespaces: [String]

    init(source: [UInt8], decoded: [UInt8], nodes: [Node], attributes: [Attribute], namespaces: [String]) {
        self.source = source
        self.decoded = decoded
        self.nodes = nodes
        self.attributes = attributes
        self.namespaces = namespaces
    }

    /// Parses `data`.
    ///
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - limits: the bounds the document must stay within.
    /// - Throws: ``ResponseDecodingError`` naming the line, column and reason when `data` is not well-formed UTF-8
    ///   XML or declares a document type, or naming the exceeded bound (``ResponseDecodingError/exceededLimit``)
    ///   when it goes beyond `limits`.
    public static func parse(_ data: Data, limits: XMLLimits = .default) throws -> XMLTree {
        guard data.count <= min(limits.maximumDocumentBytes, Int(Int32.max) - 1) else {
            throw ResponseDecodingError(
                path: "",
                reason:
                    "the XML document has \(data.count) bytes, more than the limit of \(limits.maximumDocumentBytes)",
                exceededLimit: .documentSize
            )
        }
        switch XMLReader.read(data, limits: limits) {
        case .success(let tree):
            return tree
        case .failure(let failure):
            let position = data.withUnsafeBytes {
                XMLReader.position(of: failure.offset, in: $0.bindMemory(to: UInt8.self))
            }
            let place = "at line \(position.line), column \(position.column)"
            if let limit = failure.limit {
                throw ResponseDecodingError(
                    path: "", reason: "the XML document \(place): \(failure.reason)", exceededLimit: limit)
            }
            throw ResponseDecodingError(path: "", reason: "malformed XML \(place): \(failure.reason)")
        }
    }

    /// Where the attributes of the element at `index` are in ``attributes``: an element's start tag is read whole
    /// before the next element's, so they run up to where the next element's begin.
    func attributeRange(of index: Int) -> Range<Int> {
        let end = index + 1 < nodes.count ? Int(nodes[index + 1].firstAttribute) : attributes.count
        return Int(nodes[index].firstAttribute)..<end
    }

    /// The elements from the root down to the one at `index`, both included. Elements are stored in document order,
    /// so an element's descendants follow it up to its next sibling: the child that holds `index` is the last one
    /// at or before it.
    func chain(to index: Int) -> [Int] {
        var chain = [0]
        var current = 0
        while current != index {
            var child = Int(nodes[current].firstChild)
            guard child >= 0, child <= index else { break }
            while case let sibling = Int(nodes[child].nextSibling), sibling >= 0, sibling <= index { child = sibling }
            chain.append(child)
            current = child
        }
        return chain
    }

    /// Where the content of the element at `index` is in the document: from after its start tag's `>` to its end
    /// tag's `<` (empty, after the tag, for an empty-element tag such as `<a/>`; all of it for a fragment's root).
    ///
    /// Found by reading the document again from the element's name: it was read once already, so it is well-formed,
    /// and this is asked only for content kept as it came.
    func contentRange(of index: Int) -> Range<Int> {
        let name = nodes[index].name
        guard name.count > 0 else { return 0..<source.count }
        return source.withUnsafeBufferPointer { bytes in
            let (afterTag, isEmpty) = Self.endOfTag(in: bytes, from: Int(name.start + name.count))
            guard !isEmpty else { return afterTag..<afterTag }
            var depth = 0
            var position = afterTag
            while position < bytes.count {
                guard bytes[position] == UInt8(ascii: "<") else {
                    position += 1
                    continue
                }
                let next = position + 1 < bytes.count ? bytes[position + 1] : 0
                if next == UInt8(ascii: "/") {
                    if depth == 0 { return afterTag..<position }
                    depth -= 1
                    position = Self.endOfTag(in: bytes, from: position).end
                } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                    // A comment, a CDATA section or a processing instruction, whose text may hold `<` and `>`.
                    let close: [UInt8] =
                        next == UInt8(ascii: "?")
                        ? Array("?>".utf8)
                        : bytes[position...].starts(with: "<!--".utf8) ? Array("-->".utf8) : Array("]]>".utf8)
                    position = Self.index(of: close, in: bytes, from: position + 2) + close.count
                } else {
                    let (end, isEmpty) = Self.endOfTag(in: bytes, from: position)
                    if !isEmpty { depth += 1 }
                    position = end
                }
            }
            return afterTag..<bytes.count
        }
    }

    /// Past the `>` that ends the tag around `position`, and whether it ends `/>`: quoted attribute values may hold
    /// `>`.
    private static func endOfTag(in bytes: UnsafeBufferPointer<UInt8>, from position: Int) -> (end: Int, isEmpty: Bool)
    {
        var position = position
        var quote: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return (position + 1, position > 0 && bytes[position - 1] == UInt8(ascii: "/"))
            }
            position += 1
        }
        return (bytes.count, false)
    }

    /// Where `needle` starts in `bytes` from `start` on, or the end.
    private static func index(of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var position = start
        while position + needle.count <= bytes.count {
            if bytes[position..<position + needle.count].elementsEqual(needle) { return position }
            position += 1
        }
        return bytes.count
    }

    /// The document element, as the root of decoding paths.
    public var root: XMLElementView { XMLElementView(tree: self, index: 0, base: 0) }

    /// The text of `span` (already checked to be UTF-8).
    @usableFromInline
    func string(_ span: Span) -> String {
        guard span.count > 0 else { return "" }
        let buffer = span.isDecoded ? decoded : source
        return String(decoding: buffer[Int(span.start)..<Int(span.start + span.count)], as: UTF8.self)
    }

    /// Calls `body` with the bytes of `span`.
    @inlinable
    func withBytes<R>(_ span: Span, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = Int(span.start)..<Int(span.start + span.count)
        if span.isDecoded {
            return try decoded.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        return try source.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Whether `span` holds exactly the bytes of `text`.
    func span(_ span: Span, equals text: String) -> Bool {
        var text = text
        return text.withUTF8 { expected in withBytes(span) { WireText.equal($0, expected) } }
    }

    /// Whether `span` holds exactly the bytes of `text`, compared without making a string.
    func span(_ span: Span, equals text: StaticString) -> Bool {
        // The lengths first, then the few bytes of a name in line: decoders ask this for every element and attribute.
        guard Int(span.count) == text.utf8CodeUnitCount else { return false }
        let expected = text.utf8Start
        return withBytes(span) { bytes in
            for offset in bytes.indices where bytes[offset] != expected[offset] { return false }
            return true
        }
    }
}
