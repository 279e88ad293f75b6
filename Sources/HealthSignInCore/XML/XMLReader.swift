import Foundation

/// Reads a UTF-8 XML 1.0 document into an ``XMLTree``, in one pass over the bytes.
///
/// It covers what the protocols send: elements, attributes, namespaces, character data with the predefined and
/// numeric character references, CDATA sections, comments and processing instructions. Documents are refused when
/// they are not well-formed, are not UTF-8, or declare a document type (so entity expansion and external entities
/// never happen). Errors name the byte offset, which the caller turns into a line and column.
///
/// Reading the bytes directly, rather than through `XMLParser` callbacks that bridge every name and attribute to
/// Foundation types, makes decoding a large response cost little more than the platform parser's own pass.
///
/// Every element remembers where its content is in the document, so ``XMLElementView/innerXML`` can hand out the
/// exact bytes between its tags. The same reader also reads a content fragment (``XMLFragment``): text and elements
/// with no single root, under a synthetic root element, where prefixes declared outside the fragment are allowed.
///
/// Its work is linear in the document's size whatever the document holds: duplicate attributes are found through a
/// hash of their names once a tag has more than a few, and namespace prefixes are looked up in a table of binding
/// stacks rather than by scanning every binding in scope. ``XMLLimits`` bound the depth, the attributes of one
/// element and the namespace declarations.
struct XMLReader {
    /// A document could not be read; `offset` is where, in bytes, and `limit` the bound it went beyond, if any.
    struct Failure: Error {
        let reason: String
        let offset: Int
        var limit: XMLLimits.Limit?
    }

    /// One namespace binding: the index of its URI in `namespaces` (-1 for none), the nesting level of the start
    /// tag that declared it (-1 for bindings from outside the document), and for a prefix the binding of the same
    /// prefix it hides (an index into `prefixedBindings`, -1 for none).
    private struct Binding {
        var namespace: Int32
        var level: Int
        var hidden: Int32 = -1
    }

    /// Up to this many prefixes in scope, or namespace URIs, are found by comparing each, which costs less than hashing
    /// for real documents; beyond it, through a table, so that a document of many declarations is still read in
    /// linear time.
    private static let linearLookups = 8

    /// Up to this many attributes a start tag is checked for duplicates by comparing each with the others, which
    /// costs less than hashing for the tags of real documents; beyond it, through a set of the names.
    private static let linearDuplicateCheck = 32

    /// An attribute name, compared by its bytes in the document (valid while the document is read) and hashed by
    /// them once, so that a set growing past the cache rehashes its members without reading the document again.
    private struct Name: Hashable {
        let bytes: UnsafeRawBufferPointer
        let hash: Int

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            hash = hasher.finalize()
        }

        static func == (lhs: Name, rhs: Name) -> Bool { lhs.hash == rhs.hash && lhs.bytes.elementsEqual(rhs.bytes) }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// An element whose end tag has not been read yet.
    private struct OpenElement {
        var node: Int32
        /// The qualified name as written, to match the end tag.
        var name: Range<Int>
        /// How many namespace bindings its start tag declared.
        var bindings: Int
        /// Its text so far: one span of the document while that suffices, else bytes collected in `textBuffers`.
        var text: XMLTree.Span?
        var isBuffered = false
        /// Its last child element so far, or -1, which the next child follows.
        var lastChild: Int32 = -1
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Where the tree's copy of the document goes, and how much of it is copied; see ``read(_:limits:)``.
    private var copy: UnsafeMutableBufferPointer<UInt8>?
    private var copied = 0
    /// Whether this reads a content fragment under a synthetic root rather than a document.
    private let isFragment: Bool
    private let limits: XMLLimits
    private var index = 0
    private var nodes: [XMLTree.Node] = []
    private var attributes: [XMLTree.Attribute] = []
    private var decoded: [UInt8] = []
    private var namespaces: [String] = []
    /// The index of each URI in `namespaces`, once there are more than ``linearLookups`` of them.
    private var namespaceIndex: [String: Int32] = [:]
    private var open: [OpenElement] = []
    /// Text of open elements that came in several pieces or needed decoding, one buffer per nesting level.
    private var textBuffers: [[UInt8]] = []
    /// The namespace bindings of prefixes, in the order declared, with their prefixes; and, once more than
    /// ``linearLookups`` are in scope, the innermost one per prefix (an index into them, each linking to the one it
    /// hides): one array for all, rather than one per prefix. The default namespace's are in `defaultBindings`, since
    /// most names have no prefix and need no lookup by one.
    private var prefixedBindings: [Binding] = []
    private var bindingPrefixes: [String] = []
    private var innermostBinding: [String: Int32] = [:]
    private var usesBindingTable = false
    private var defaultBindings: [Binding] = []
    /// The prefixes the open start tags declared, in order, so that each end tag removes its own.
    private var declaredPrefixes: [String] = []
    /// How many namespace declarations the document has had so far.
    private var namespaceDeclarations = 0
    /// The attribute names of the start tag being read, once it has many.
    private var attributeNames: Set<Name> = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>, isFragment: Bool = false, limits: XMLLimits) {
        self.bytes = bytes
        self.isFragment = isFragment
        self.limits = limits
        // About one element per 40 bytes of a typical response, and fewer attributes than one per 32: reserving
        // avoids regrowing a large array, which copies it into fresh pages, and pages never written cost nothing.
        nodes.reserveCapacity(min(bytes.count / 40 + 1, 1 << 20))
        attributes.reserveCapacity(min(bytes.count / 32 + 1, 1 << 20))
        bind("xml", uri: "http://www.w3.org/XML/1998/namespace", level: -1)
    }

    /// The tree of `data`, or why it could not be read.
    ///
    /// The tree keeps a copy of the document, which the reader makes behind itself as it goes, a stretch at a time:
    /// it reads the received bytes where they are, and copies each stretch while it is still in the processor's
    /// cache, rather than copying the whole document first and then reading the copy from memory.
    static func read(_ data: Data, limits: XMLLimits) -> Result<XMLTree, Failure> {
        var outcome: Result<Parts, Failure> = .failure(Failure(reason: "", offset: 0))
        let source = [UInt8](unsafeUninitializedCapacity: data.count) { copy, initialized in
            data.withUnsafeBytes { raw in
                var reader = XMLReader(raw.bindMemory(to: UInt8.self), limits: limits)
                reader.copy = copy
                do throws(Failure) {
                    try reader.document()
                    reader.copyRead(upTo: reader.bytes.count)
                    outcome = .success(
                        Parts(
                            decoded: reader.decoded, nodes: reader.nodes, attributes: reader.attributes,
                            namespaces: reader.namespaces))
                } catch {
                    outcome = .failure(error)
                }
            }
            // All of it was copied when the document was read; none of it is kept when it was not.
            initialized = (try? outcome.get()) == nil ? 0 : data.count
        }
        return outcome.map { parts in
            XMLTree(
                source: source, decoded: parts.decoded, nodes: parts.nodes, attributes: parts.attributes,
                namespaces: parts.namespaces)
        }
    }

    /// What a tree holds besides the document.
    private struct Parts {
        var decoded: [UInt8]
        var nodes: [XMLTree.Node]
        var attributes: [XMLTree.Attribute]
        var namespaces: [String]
    }

    /// How far behind the reader the copy of the document may be: a stretch that stays in the processor's cache.
    private static let copyStretch = 1 << 16

    /// Copies the document up to `end` into `copy`, from where the last copy ended.
    private mutating func copyRead(upTo end: Int) {
        guard let copy, let source = bytes.baseAddress, let target = copy.baseAddress, end > copied else { return }
        UnsafeMutableRawPointer(target + copied).copyMemory(from: source + copied, byteCount: end - copied)
        copied = end
    }

    /// The tree of the content fragment `source` (whose bytes `bytes` are) under a synthetic root element with an
    /// empty name, whose content is all of `source`.
    ///
    /// `namespaces` are bindings in scope around the fragment (the empty prefix is the default namespace); a prefix
    /// bound neither there nor inside the fragment is accepted and gives no namespace.
    static func readFragment(
        _ source: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, namespaces: [(prefix: String, uri: String)]
    ) throws(Failure) -> XMLTree {
        var reader = XMLReader(bytes, isFragment: true, limits: .default)
        for (prefix, uri) in namespaces { reader.bind(prefix, uri: uri, level: -1) }
        try reader.fragment()
        return XMLTree(
            source: source, decoded: reader.decoded, nodes: reader.nodes, attributes: reader.attributes,
            namespaces: reader.namespaces
        )
    }

    /// `line:column` of a byte offset, counting characters rather than bytes, for error messages.
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    // MARK: - Document structure

    private mutating func document() throws(Failure) {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            throw Failure(reason: "the document is UTF-16; only UTF-8 is accepted", offset: 0)
        }
        if matches("<?xml") && index + 5 < bytes.count && isSpace(bytes[index + 5]) { try declaration() }
        try misc()
        guard index < bytes.count else { throw failure("no document element") }
        guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count, isNameStart(bytes[index + 1]) else {
            throw failure("expected the document element")
        }
        try content()
        try misc()
        guard index == bytes.count else {
            throw failure(
                bytes[index] == UInt8(ascii: "<") ? "more than one root element" : "content after the document element")
        }
    }

    /// `<?xml version="1.0" encoding="…"?>`: only UTF-8 is accepted.
    private mutating func declaration() throws(Failure) {
        let start = index
        guard let end = find("?>", from: index) else { throw failure("unterminated XML declaration") }
        // The names compared are ASCII, so ASCII case folding is all the comparison needs; nothing is copied.
        let keyword: StaticString = "encoding"
        let length = keyword.utf8CodeUnitCount
        var position = start
        while position + length <= end, !foldedMatch(keyword, at: position) { position += 1 }
        if position + length <= end {
            var valueStart = position + length
            while valueStart < end,
                [UInt8(ascii: " "), UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'")].contains(
                    bytes[valueStart])
            {
                valueStart += 1
            }
            var valueEnd = valueStart
            while valueEnd < end, bytes[valueEnd] != UInt8(ascii: "\""), bytes[valueEnd] != UInt8(ascii: "'") {
                valueEnd += 1
            }
            let count = valueEnd - valueStart
            guard
                (count == 5 && foldedMatch("utf-8", at: valueStart))
                    || (count == 4 && foldedMatch("utf8", at: valueStart))
            else {
                let encoding = bytes[valueStart..<valueEnd].map(Self.folded)
                throw Failure(
                    reason:
                        "the document is encoded as \(String(decoding: encoding, as: UTF8.self)); only UTF-8 is accepted",
                    offset: start)
            }
        }
        index = end + 2
    }

    /// Whether the bytes at `position` are `literal` (lowercase ASCII) without regard to ASCII case.
    private func foldedMatch(_ literal: StaticString, at position: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where Self.folded(bytes[position + offset]) != literal.utf8Start[offset] {
            return false
        }
        return true
    }

    /// `byte` with ASCII capitals made small.
    @inline(__always)
    private static func folded(_ byte: UInt8) -> UInt8 { byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte }

    /// Whitespace, comments and processing instructions, before or after the document element.
    private mutating func misc() throws(Failure) {
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
            } else if matches("<!--") {
                try comment()
            } else if matches("<!DOCTYPE") || matches("<!doctype") {
                throw failure("the document has a DOCTYPE declaration, which is not accepted")
            } else if matches("<?") {
                try processingInstruction()
            } else {
                return
            }
        }
    }

    /// The document element and everything inside it, without recursion.
    private mutating func content() throws(Failure) {
        repeat {
            try contentItem()
            guard let innermost = open.last else { return }
            guard index < bytes.count else {
                throw failure("unexpected end of the document inside <\(text(innermost.name))>")
            }
        } while true
    }

    /// A content fragment: the content of a synthetic root element that spans all the bytes.
    private mutating func fragment() throws(Failure) {
        appendNode(
            XMLTree.Node(
                name: .empty, namespace: -1, firstAttribute: 0
            ))
        open.append(OpenElement(node: 0, name: 0..<0, bindings: 0))
        textBuffers.append([])
        while index < bytes.count { try contentItem() }
        guard let innermost = open.last, open.count == 1 else {
            throw failure("unexpected end of the fragment inside <\(open.last.map { text($0.name) } ?? "")>")
        }
        finishText(of: innermost, level: 0)
    }

    /// One piece of content: character data, a tag, a comment, a CDATA section or a processing instruction.
    private mutating func contentItem() throws(Failure) {
        if bytes[index] != UInt8(ascii: "<") {
            try characterData()
        } else if index + 1 < bytes.count, isNameStart(bytes[index + 1]) {
            try startTag()
        } else if matches("</") {
            try endTag()
        } else if matches("<!--") {
            try comment()
        } else if matches("<![CDATA[") {
            try cdata()
        } else if matches("<?") {
            try processingInstruction()
        } else if matches("<!DOCTYPE") {
            throw failure("a DOCTYPE declaration inside the document element")
        } else if matches("<!") {
            throw failure("unexpected '<!'")
        } else {
            try startTag()
        }
    }

    // MARK: - Tags

    private mutating func startTag() throws(Failure) {
        let tagStart = index
        if tagStart &- copied >= Self.copyStretch { copyRead(upTo: tagStart) }
        index += 1
        let name = try nameRange()
        let firstAttribute = Int32(attributes.count)
        let declared = try readAttributes(of: name, from: firstAttribute)
        // No closures here or in the other per-tag steps: one that captures `self` copies the whole reader.
        let colon = bytes[name].firstIndex(of: UInt8(ascii: ":"))
        var prefix = ""
        if let colon { prefix = text(name.lowerBound..<colon) }
        var namespace = namespace(for: prefix)
        // Inside a fragment, a prefix may be bound by an element around it that the fragment does not include.
        if namespace == nil, isFragment { namespace = -1 }
        guard let namespace else {
            throw Failure(
                reason: "the prefix \(prefix) of <\(text(name))> is not bound to a namespace", offset: tagStart)
        }
        guard open.count < limits.maximumDepth else {
            throw Failure(
                reason: "elements nest deeper than the limit of \(limits.maximumDepth) levels", offset: tagStart,
                limit: .depth
            )
        }
        let node = Int32(nodes.count)
        var localName = name
        if let colon { localName = colon + 1..<name.upperBound }
        appendNode(
            XMLTree.Node(
                name: span(localName), namespace: namespace, firstAttribute: firstAttribute
            ))
        if matches("/>") {
            index += 2
            removeBindings(declared)
        } else {
            index += 1
            open.append(OpenElement(node: node, name: name, bindings: declared))
            if textBuffers.count < open.count { textBuffers.append([]) }
        }
    }

    /// Reads the attributes of the start tag `name` up to its `>` or `/>`, appending them from `firstAttribute` on
    /// and pushing namespace declarations as bindings; returns how many bindings it pushed.
    private mutating func readAttributes(of name: Range<Int>, from firstAttribute: Int32) throws(Failure) -> Int {
        var declared = 0
        // One bit per attribute read, chosen by its length and its first and last bytes: a name whose bit is clear
        // cannot be a duplicate, so the comparisons with every earlier name are made only when it is set.
        var seen: UInt64 = 0
        while true {
            let hadSpace = skipSpace()
            guard index < bytes.count else { throw failure("unterminated start tag <\(text(name))>") }
            if bytes[index] == UInt8(ascii: ">") || matches("/>") { break }
            guard hadSpace else { throw failure("expected whitespace, '>' or '/>' in <\(text(name))>") }
            let attributeStart = index
            let attributeName = try nameRange()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                throw failure("expected '=' after the attribute \(text(attributeName))")
            }
            index += 1
            skipSpace()
            let value = try attributeValue()
            if isNamespaceDeclaration(attributeName) {
                let prefix =
                    attributeName.count == 5 ? "" : text(attributeName.lowerBound + 6..<attributeName.upperBound)
                try declare(prefix, uri: string(value), at: attributeStart)
                declared += 1
                continue
            }
            let count = attributes.count - Int(firstAttribute)
            guard count < limits.maximumAttributesPerElement else {
                throw Failure(
                    reason:
                        "<\(text(name))> has more attributes than the limit of \(limits.maximumAttributesPerElement)",
                    offset: attributeStart, limit: .attributesPerElement
                )
            }
            let attributeSpan = span(attributeName)
            let bit = filterBit(of: attributeName)
            let isDuplicate: Bool
            if count < Self.linearDuplicateCheck, seen & bit == 0 {
                seen |= bit
                isDuplicate = false
            } else if count < Self.linearDuplicateCheck {
                var position = Int(firstAttribute)
                while position < attributes.count, !sameBytes(attributes[position].name, attributeSpan) {
                    position += 1
                }
                isDuplicate = position < attributes.count
            } else {
                isDuplicate = isHashedDuplicate(attributeSpan, from: Int(firstAttribute))
            }
            if isDuplicate {
                throw Failure(reason: "the attribute \(text(attributeName)) appears twice", offset: attributeStart)
            }
            attributes.append(XMLTree.Attribute(name: attributeSpan, value: value))
        }
        return declared
    }

    /// The bit of the duplicate filter that the attribute name at `range` sets.
    @inline(__always)
    private func filterBit(of range: Range<Int>) -> UInt64 {
        let length = UInt64(truncatingIfNeeded: range.count)
        let first = UInt64(bytes[range.lowerBound])
        let last = UInt64(bytes[range.upperBound - 1])
        let position: UInt64 = (length &* 7 &+ first &* 3 &+ last) & 63
        return 1 << position
    }

    /// Whether `name` is already among the attributes from `first` on, through `attributeNames`, which it fills with
    /// those attributes when a start tag reaches this many and adds `name` to.
    @inline(never)
    private mutating func isHashedDuplicate(_ name: XMLTree.Span, from first: Int) -> Bool {
        if attributes.count - first == Self.linearDuplicateCheck {
            attributeNames.removeAll(keepingCapacity: true)
            for attribute in attributes[first...] { attributeNames.insert(self.name(attribute.name)) }
        }
        return !attributeNames.insert(self.name(name)).inserted
    }

    /// The bytes of the name at `span`, as a set member.
    @inline(__always)
    private func name(_ span: XMLTree.Span) -> Name {
        Name(
            bytes: UnsafeRawBufferPointer(
                UnsafeBufferPointer(rebasing: bytes[Int(span.start)..<Int(span.start + span.count)])))
    }

    /// Binds `prefix` to `uri` for the start tag being read and the elements inside it.
    private mutating func declare(_ prefix: String, uri: String, at offset: Int) throws(Failure) {
        if !prefix.isEmpty && uri.isEmpty {
            throw Failure(reason: "the prefix \(prefix) is bound to an empty namespace", offset: offset)
        }
        namespaceDeclarations += 1
        guard namespaceDeclarations <= limits.maximumNamespaceDeclarations else {
            throw Failure(
                reason:
                    "the document declares more namespaces than the limit of \(limits.maximumNamespaceDeclarations)",
                offset: offset, limit: .namespaceDeclarations
            )
        }
        if (prefix.isEmpty ? defaultBindings.last : binding(of: prefix))?.level == open.count {
            let attribute = prefix.isEmpty ? "xmlns" : "xmlns:" + prefix
            throw Failure(reason: "the attribute \(attribute) appears twice", offset: offset)
        }
        bind(prefix, uri: uri, level: open.count)
        declaredPrefixes.append(prefix)
    }

    /// Pushes a binding of `prefix` to `uri` declared at nesting level `level`.
    private mutating func bind(_ prefix: String, uri: String, level: Int) {
        var binding = Binding(namespace: index(of: uri), level: level)
        if prefix.isEmpty {
            defaultBindings.append(binding)
            return
        }
        if usesBindingTable {
            binding.hidden = innermostBinding[prefix] ?? -1
            innermostBinding[prefix] = Int32(prefixedBindings.count)
        }
        prefixedBindings.append(binding)
        bindingPrefixes.append(prefix)
        if !usesBindingTable, prefixedBindings.count > Self.linearLookups {
            usesBindingTable = true
            for (position, prefix) in bindingPrefixes.enumerated() {
                prefixedBindings[position].hidden = innermostBinding[prefix] ?? -1
                innermostBinding[prefix] = Int32(position)
            }
        }
    }

    /// The innermost binding of `prefix` in scope, if any.
    @inline(__always)
    private func binding(of prefix: String) -> Binding? {
        if usesBindingTable { return innermostBinding[prefix].map { prefixedBindings[Int($0)] } }
        guard let position = bindingPrefixes.lastIndex(of: prefix) else { return nil }
        return prefixedBindings[position]
    }

    /// Removes the last `count` bindings declared, as the element that declared them ends.
    private mutating func removeBindings(_ count: Int) {
        for _ in 0..<count {
            let prefix = declaredPrefixes.removeLast()
            if prefix.isEmpty {
                defaultBindings.removeLast()
            } else {
                let hidden = prefixedBindings.removeLast().hidden
                bindingPrefixes.removeLast()
                if usesBindingTable { innermostBinding[prefix] = hidden >= 0 ? hidden : nil }
            }
        }
    }

    /// Appends `node` and links it as the last child of its parent, the innermost open element.
    private mutating func appendNode(_ node: XMLTree.Node) {
        let index = Int32(nodes.count)
        nodes.append(node)
        guard let level = open.indices.last else { return }
        let last = open[level].lastChild
        if last >= 0 { nodes[Int(last)].nextSibling = index } else { nodes[Int(open[level].node)].firstChild = index }
        open[level].lastChild = index
    }

    private mutating func endTag() throws(Failure) {
        let tagStart = index
        index += 2
        // Well-formed, it names the innermost open element: compared in place rather than scanned as a new name.
        if let element = open.last, open.count > (isFragment ? 1 : 0), closes(element.name) {
            index += element.name.count
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
                index += 1
                open.removeLast()
                removeBindings(element.bindings)
                finishText(of: element, level: open.count)
                return
            }
            index = tagStart + 2
        }
        let name = try nameRange()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw failure("expected '>' to end </\(text(name))>")
        }
        index += 1
        // A fragment's synthetic root is never closed by a tag.
        guard open.count > (isFragment ? 1 : 0) else {
            throw Failure(reason: "</\(text(name))> has no start tag", offset: tagStart)
        }
        guard let element = open.last, sameBytes(element.name, name) else {
            let expected = open.last.map { "</\(text($0.name))>" } ?? "no end tag"
            throw Failure(reason: "</\(text(name))> does not match, expected \(expected)", offset: tagStart)
        }
        open.removeLast()
        removeBindings(element.bindings)
        finishText(of: element, level: open.count)
    }

    /// Whether the bytes at the current position are the name `name` and end there.
    @inline(__always)
    private func closes(_ name: Range<Int>) -> Bool {
        let end = index + name.count
        return end < bytes.count && !isNameCharacter(bytes[end]) && sameBytes(name, index..<end)
    }

    /// Stores the text of `element`, whose end has been read, as its node's text.
    private mutating func finishText(of element: OpenElement, level: Int) {
        if element.isBuffered {
            nodes[Int(element.node)].text = XMLTree.Span(
                start: Int32(decoded.count), count: Int32(textBuffers[level].count), isDecoded: true)
            decoded.append(contentsOf: textBuffers[level])
            textBuffers[level].removeAll(keepingCapacity: true)
        } else if let text = element.text {
            nodes[Int(element.node)].text = text
        }
    }

    /// Where the name at the current position is, checked to be UTF-8.
    private mutating func nameRange() throws(Failure) -> Range<Int> {
        let start = index
        guard start < bytes.count, isNameStart(bytes[start]) else { throw failure("expected a name") }
        var end = start + 1
        var allBits = bytes[start]
        while end < bytes.count, isNameCharacter(bytes[end]) {
            allBits |= bytes[end]
            end += 1
        }
        index = end
        if allBits >= 0x80 { try checkUTF8(start..<end) }
        return start..<end
    }

    @inline(__always)
    private func isNamespaceDeclaration(_ name: Range<Int>) -> Bool {
        guard name.count >= 5, bytes[name.lowerBound] == UInt8(ascii: "x"),
            bytes[name.lowerBound + 1] == UInt8(ascii: "m"),
            bytes[name.lowerBound + 2] == UInt8(ascii: "l"), bytes[name.lowerBound + 3] == UInt8(ascii: "n"),
            bytes[name.lowerBound + 4] == UInt8(ascii: "s")
        else { return false }
        return name.count == 5 || name.count > 6 && bytes[name.lowerBound + 5] == UInt8(ascii: ":")
    }

    /// The index of the namespace URI bound to `prefix` (-1 when an unprefixed name has no default namespace), or
    /// nil when the prefix is unbound.
    @inline(__always)
    private func namespace(for prefix: String) -> Int32? {
        if prefix.isEmpty { return defaultBindings.last?.namespace ?? -1 }
        return binding(of: prefix)?.namespace
    }

    /// The index of `uri` in `namespaces`, added if new; -1 for the empty URI (no namespace).
    private mutating func index(of uri: String) -> Int32 {
        if uri.isEmpty { return -1 }
        if namespaces.count <= Self.linearLookups {
            if let known = namespaces.firstIndex(of: uri) { return Int32(known) }
        } else if let known = namespaceIndex[uri] {
            return known
        }
        let added = Int32(namespaces.count)
        namespaces.append(uri)
        if namespaces.count > Self.linearLookups {
            if namespaceIndex.isEmpty {
                for (position, known) in namespaces.enumerated() { namespaceIndex[known] = Int32(position) }
            }
            namespaceIndex[uri] = added
        }
        return added
    }

    // MARK: - Character data

    /// Text up to the next `<`, with character references decoded and line ends normalised to `\n`.
    private mutating func characterData() throws(Failure) {
        while index < bytes.count {
            // Plain bytes are taken a run at a time, eight at once while they are plain ASCII; only the special
            // ones below are looked at singly.
            let run = index
            var ascii = true
            index = plainASCII(from: index, other: UInt8(ascii: "<"), UInt8(ascii: "&"), UInt8(ascii: "]"))
            while index < bytes.count {
                let byte = bytes[index]
                guard byte >= 0x20 || byte == 0x09 || byte == 0x0A, byte != UInt8(ascii: "<"),
                    byte != UInt8(ascii: "&"),
                    byte != UInt8(ascii: "]")
                else { break }
                ascii = ascii && byte < 0x80
                index += 1
            }
            if index > run {
                if !ascii { try checkUTF8(run..<index) }
                appendText(run..<index)
            }
            guard index < bytes.count else { return }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "<"):
                return
            case UInt8(ascii: "&"):
                // A scalar is a small string, kept inline: no allocation per reference.
                var character = String(try reference())
                character.withUTF8 { appendDecodedText($0) }
            case UInt8(ascii: "\r"):
                var lineEnd = UInt8(ascii: "\n")
                withUnsafePointer(to: &lineEnd) { appendDecodedText(UnsafeBufferPointer(start: $0, count: 1)) }
                index += index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
            case UInt8(ascii: "]"):
                if matches("]]>") { throw failure("']]>' outside a CDATA section") }
                appendText(index..<index + 1)
                index += 1
            default:
                throw failure("a control character (0x\(String(byte, radix: 16)))")
            }
        }
    }

    private mutating func cdata() throws(Failure) {
        let start = index + 9
        guard let end = find("]]>", from: start) else { throw failure("unterminated CDATA section") }
        for byte in bytes[start..<end] where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
            throw failure("a control character (0x\(String(byte, radix: 16))) in a CDATA section")
        }
        try checkUTF8(start..<end)
        if bytes[start..<end].contains(UInt8(ascii: "\r")) {
            // Line ends are normalised inside CDATA too.
            var normalized: [UInt8] = []
            var position = start
            while position < end {
                if bytes[position] == UInt8(ascii: "\r") {
                    normalized.append(UInt8(ascii: "\n"))
                    if position + 1 < end && bytes[position + 1] == UInt8(ascii: "\n") { position += 1 }
                } else {
                    normalized.append(bytes[position])
                }
                position += 1
            }
            normalized.withUnsafeBufferPointer { appendDecodedText($0) }
        } else {
            appendText(start..<end)
        }
        index = end + 3
    }

    /// Adds document bytes to the innermost element's text: as a span while it is the first piece, else copied.
    private mutating func appendText(_ range: Range<Int>) {
        guard let level = open.indices.last else { return }
        if open[level].isBuffered {
            textBuffers[level].append(contentsOf: bytes[range])
        } else if let first = open[level].text {
            if Int(first.start + first.count) == range.lowerBound {
                open[level].text = span(Int(first.start)..<range.upperBound)
            } else {
                textBuffers[level].append(contentsOf: bytes[Int(first.start)..<Int(first.start + first.count)])
                textBuffers[level].append(contentsOf: bytes[range])
                open[level].isBuffered = true
            }
        } else {
            open[level].text = span(range)
        }
    }

    /// Adds decoded bytes (a character reference, a normalised line end) to the innermost element's text.
    private mutating func appendDecodedText(_ decodedBytes: UnsafeBufferPointer<UInt8>) {
        guard let level = open.indices.last else { return }
        if !open[level].isBuffered {
            if let first = open[level].text {
                textBuffers[level].append(contentsOf: bytes[Int(first.start)..<Int(first.start + first.count)])
            }
            open[level].isBuffered = true
        }
        textBuffers[level].append(contentsOf: decodedBytes)
    }

    /// A quoted attribute value, normalised as XML requires: references decoded, whitespace characters become spaces.
    private mutating func attributeValue() throws(Failure) -> XMLTree.Span {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw failure("expected a quoted attribute value")
        }
        let quote = bytes[index]
        index += 1
        let start = index
        // Most values need no decoding: they stay a span of the document.
        var ascii = true
        index = plainASCII(from: index, other: quote, UInt8(ascii: "&"), UInt8(ascii: "<"))
        while index < bytes.count {
            let byte: UInt8 = bytes[index]
            if byte == quote || byte < 0x20 || byte == 0x26 || byte == 0x3C { break }  // '&', '<'
            ascii = ascii && byte < 0x80
            index += 1
        }
        if !ascii { try checkUTF8(start..<index) }
        if index < bytes.count, bytes[index] == quote {
            index += 1
            return span(start..<index - 1)
        }
        let valueStart = decoded.count
        decoded.append(contentsOf: bytes[start..<index])
        while true {
            guard index < bytes.count else { throw failure("unterminated attribute value") }
            let byte = bytes[index]
            switch byte {
            case quote:
                index += 1
                return XMLTree.Span(start: Int32(valueStart), count: Int32(decoded.count - valueStart), isDecoded: true)
            case UInt8(ascii: "<"):
                throw failure("'<' in an attribute value")
            case UInt8(ascii: "&"):
                UTF8.encode(try reference()) { decoded.append($0) }
            case UInt8(ascii: "\r"):
                decoded.append(UInt8(ascii: " "))
                index += index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
            case 0x09, 0x0A:
                decoded.append(UInt8(ascii: " "))
                index += 1
            default:
                guard byte >= 0x20 else { throw failure("a control character (0x\(String(byte, radix: 16)))") }
                let run = index
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] != quote,
                    bytes[index] != UInt8(ascii: "&"),
                    bytes[index] != UInt8(ascii: "<")
                {
                    index += 1
                }
                try checkUTF8(run..<index)
                decoded.append(contentsOf: bytes[run..<index])
            }
        }
    }

    /// The character of `&lt;` `&gt;` `&amp;` `&apos;` `&quot;` `&#NN;` or `&#xHH;`.
    private mutating func reference() throws(Failure) -> Unicode.Scalar {
        let start = index
        // The five predefined entities, which are most references, without making a string.
        if matches("&lt;") {
            index += 4
            return "<"
        }
        if matches("&gt;") {
            index += 4
            return ">"
        }
        if matches("&amp;") {
            index += 5
            return "&"
        }
        if matches("&apos;") {
            index += 6
            return "'"
        }
        if matches("&quot;") {
            index += 6
            return "\""
        }
        // References are short; looking no further than that keeps a stray '&' from scanning the whole document.
        guard
            let semicolon = (index + 1..<min(index + 13, bytes.count)).first(where: { bytes[$0] == UInt8(ascii: ";") })
        else {
            throw failure("an unterminated reference")
        }
        let body = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
        index = semicolon + 1
        switch body {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "apos": return "'"
        case "quot": return "\""
        case let reference where reference.hasPrefix("#"):
            let digits = reference.dropFirst()
            guard !digits.contains("+") else {
                throw Failure(reason: "&\(reference); is not a character reference", offset: start)
            }
            let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            guard let value, let scalar = Unicode.Scalar(value), Self.isCharacter(value) else {
                throw Failure(reason: "&\(reference); is not a character XML allows", offset: start)
            }
            return scalar
        default:
            throw Failure(reason: "the entity &\(body); is not defined", offset: start)
        }
    }

    /// XML 1.0's `Char` production.
    private static func isCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    // MARK: - Comments and processing instructions

    private mutating func comment() throws(Failure) {
        guard let end = find("--", from: index + 4) else { throw failure("unterminated comment") }
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else { throw failure("'--' inside a comment") }
        // Checked like all other text, so that any element's content is valid UTF-8 (see XMLElementView.innerXML).
        try checkUTF8(index + 4..<end)
        index = end + 3
    }

    private mutating func processingInstruction() throws(Failure) {
        let target = index + 2
        guard let end = find("?>", from: target) else { throw failure("unterminated processing instruction") }
        let name = bytes[target..<min(target + 4, end)].prefix { !isSpace($0) }
        if name.count == 3, String(decoding: name, as: UTF8.self).lowercased() == "xml" {
            throw failure("an XML declaration that is not at the start of the document")
        }
        try checkUTF8(target..<end)
        index = end + 2
    }

    // MARK: - Bytes

    /// The position of the first byte from `start` on, in whole words of eight bytes, that may not be plain: a control
    /// character, a byte from 0x80, or `a`, `b` or `c`. The caller reads on byte by byte from there, so a word with a
    /// special byte anywhere is left whole to it.
    @inline(__always)
    private func plainASCII(from start: Int, other a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // Whether some byte of `word` is zero, or below 0x20: exact as a yes or no (SWAR, "Bit Twiddling Hacks").
        @inline(__always) func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        let (wordA, wordB, wordC) = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c))
        var position = start
        while position &+ 8 <= bytes.count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: position, as: UInt64.self)
            if word & highs != 0 || (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ wordA)
                || hasZero(word ^ wordB) || hasZero(word ^ wordC)
            {
                break
            }
            position &+= 8
        }
        return position
    }

    /// Succeeds when `range` is valid UTF-8: exactly then does decoding it give back the same bytes.
    private func checkUTF8(_ range: Range<Int>) throws(Failure) {
        let slice = bytes[range]
        if String(decoding: slice, as: UTF8.self).utf8.elementsEqual(slice) { return }
        throw Failure(reason: "bytes that are not UTF-8", offset: range.lowerBound)
    }

    @inline(__always)
    private func span(_ range: Range<Int>) -> XMLTree.Span {
        XMLTree.Span(start: Int32(range.lowerBound), count: Int32(range.count), isDecoded: false)
    }

    /// The text of a span this reader made (of the document or of `decoded`).
    @inline(__always)
    private func string(_ span: XMLTree.Span) -> String {
        let start = Int(span.start)
        let end = Int(span.start + span.count)
        return span.isDecoded ? String(decoding: decoded[start..<end], as: UTF8.self) : text(start..<end)
    }

    /// Bytes of the document already checked to be UTF-8, as a string.
    @inline(__always)
    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    @inline(__always)
    private func sameBytes(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        WireText.equal(UnsafeBufferPointer(rebasing: bytes[first]), UnsafeBufferPointer(rebasing: bytes[second]))
    }

    /// Whether two attribute names (always spans of the document) are the same.
    @inline(__always)
    private func sameBytes(_ first: XMLTree.Span, _ second: XMLTree.Span) -> Bool {
        sameBytes(
            Int(first.start)..<Int(first.start + first.count), Int(second.start)..<Int(second.start + second.count))
    }

    @inline(__always)
    private func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: index) }

    /// Whether the document continues with `literal`, compared byte by byte in line: the literals are a few bytes
    /// long, and this is asked at every tag.
    @inline(__always)
    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let expected = literal.utf8Start
        for offset in 0..<count where bytes[index &+ offset] != expected[offset] { return false }
        return true
    }

    private func find(_ literal: StaticString, from start: Int) -> Int? {
        literal.withUTF8Buffer { literalBytes -> Int? in
            guard let first = literalBytes.first else { return nil }
            var position = start
            while position + literalBytes.count <= bytes.count {
                if bytes[position] == first,
                    (1..<literalBytes.count).allSatisfy({ bytes[position + $0] == literalBytes[$0] })
                {
                    return position
                }
                position += 1
            }
            return nil
        }
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index > start
    }

    @inline(__always)
    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Letters, `_`, `:` and any non-ASCII byte (checked as UTF-8 with the rest of the name).
    /// Whether `byte` may start a name: an ASCII letter, `_`, `:`, or any byte of a non-ASCII character (checked
    /// as UTF-8 afterwards).
    @inline(__always)
    private func isNameStart(_ byte: UInt8) -> Bool {
        Self.isMember(byte, below64: Self.nameStartBelow64, below128: Self.nameStartBelow128)
    }

    /// Whether `byte` may continue a name: a name start, an ASCII digit, `-` or `.`. One load from a table that is a
    /// string literal (so a constant, never a lazily made global): name scanning is the reader's hottest loop.
    @inline(__always)
    private func isNameCharacter(_ byte: UInt8) -> Bool {
        Self.nameCharacters.utf8Start[Int(byte)] == UInt8(ascii: "1")
    }

    /// For each byte value, `1` where it may continue a name (a name start, an ASCII digit, `-` or `.`, and every byte
    /// from 0x80, checked as UTF-8 with the rest of the name), `0` elsewhere.
    static let nameCharacters: StaticString = """
        0000000000000000000000000000000000000000000001101111111111100000\
        0111111111111111111111111110000101111111111111111111111111100000\
        1111111111111111111111111111111111111111111111111111111111111111\
        1111111111111111111111111111111111111111111111111111111111111111
        """

    /// Membership in a set of bytes given as two 64-bit masks of its ASCII members; every byte from 0x80 is a member.
    /// One shift and test instead of a chain of comparisons: name scanning is the reader's hottest loop.
    @inline(__always)
    private static func isMember(_ byte: UInt8, below64: UInt64, below128: UInt64) -> Bool {
        byte >= 0x80 || ((byte < 64 ? below64 : below128) >> UInt64(byte & 63)) & 1 != 0
    }

    // The masks are literals, so that reading them in the hottest loop is a constant rather than a lazily made
    // global's check; `XMLReaderTests` computes them from their characters.
    /// `:` (bit 58).
    static let nameStartBelow64: UInt64 = 0x0400_0000_0000_0000
    /// `A`–`Z` (bits 1–26), `_` (bit 31) and `a`–`z` (bits 33–58).
    static let nameStartBelow128: UInt64 = 0x07FF_FFFE_87FF_FFFE
}
