/// One element of an ``XMLTree``, as generated decoders see it.
///
/// A view remembers the element decoding started from (its *base*), so errors name a path relative to it, such as
/// `response-results/person-info[3]/record@rel-type`.
public struct XMLElementView {
    @usableFromInline let tree: XMLTree
    @usableFromInline let index: Int
    let base: Int

    /// The element's local name (without prefix).
    public var name: String { tree.string(tree.nodes[index].name) }

    /// The element's local name, to match against string literals in a `switch` without making a string:
    /// `switch child.localName { case "person-info": … }`.
    public var localName: Name { Name(tree: tree, span: tree.nodes[index].name) }

    /// The element's namespace URI, or nil when it has none.
    public var namespaceURI: String? {
        let namespace = tree.nodes[index].namespace
        return namespace < 0 ? nil : tree.namespaces[Int(namespace)]
    }

    /// The character data directly inside the element, unmodified (whitespace is kept).
    public var text: String { tree.string(tree.nodes[index].text) }

    /// Where the element's character data is.
    @usableFromInline
    var textSpan: XMLTree.Span { tree.nodes[index].text }

    /// Whether the element directly contains any character data.
    public var hasText: Bool { tree.nodes[index].text.count > 0 }

    /// The value of the attribute called `name` (as written, with any prefix), or nil.
    public func attribute(_ name: String) -> String? {
        attributeValue(name).map(tree.string)
    }

    /// Where the value of the attribute called `name` is, or nil.
    func attributeValue(_ name: String) -> XMLTree.Span? {
        for position in tree.attributeRange(of: index)
        where tree.span(tree.attributes[position].name, equals: name) {
            return tree.attributes[position].value
        }
        return nil
    }

    /// The element's child elements, for reading by name (see ``Elements``).
    public var elements: Elements { Elements(parent: self) }

    /// The element's attributes, for reading by name (see ``Attributes``).
    public var attributes: Attributes { Attributes(element: self) }

    /// The element's content exactly as received: every byte between the end of its start tag and the start of its
    /// end tag (empty for `<a/>`), with whitespace, comments, CDATA sections, references and prefixes unchanged.
    ///
    /// Writing it back with `XMLWriter.innerXML(_:)` inside an element reproduces the same bytes, so content that
    /// is signed or hashed as received can be kept without re-serializing it.
    public var innerXML: XMLFragment {
        // The reader checked every byte of an element's content to be UTF-8, so this decoding keeps them all.
        let content = tree.source[tree.contentRange(of: index)]
        return XMLFragment(verbatim: String(decoding: content, as: UTF8.self))
    }

    /// Whether the element's local name is `name`, without making a string of it.
    public func isNamed(_ name: String) -> Bool { tree.span(tree.nodes[index].name, equals: name) }

    /// The element's child elements, in document order.
    public var children: Children { Children(tree: tree, first: Int(tree.nodes[index].firstChild), base: base) }

    /// The child elements called `name`, in document order.
    public func children(named name: StaticString) -> [XMLElementView] {
        var elements = elements
        return elements.children(named: name)
    }

    /// The first child element called `name`, or nil; a decoder that reads many children uses ``elements``.
    public func first(_ name: StaticString) -> XMLElementView? {
        var elements = elements
        return elements.first(name)
    }

    /// The first child element called `name`.
    ///
    /// - Throws: ``ResponseDecodingError`` naming the missing element when there is none.
    public func required(_ name: StaticString) throws -> XMLElementView {
        guard let child = first(name) else { throw missingElement("\(name)") }
        return child
    }

    /// The first child element called `name`, or nil.
    public func child(_ name: String) -> XMLElementView? {
        children.first { $0.isNamed(name) }
    }

    /// This element as the base of decoding paths (used when a decoder starts at a nested element).
    public var asDecodingRoot: XMLElementView { XMLElementView(tree: tree, index: index, base: index) }

    /// The path from the base element to this one, e.g. `response-results/person-info[3]`.
    ///
    /// Positions appear for elements that have siblings of the same name, counted from zero like Swift arrays.
    public var path: String {
        let chain = tree.chain(to: index)
        let below = chain.firstIndex(of: base).map { $0 + 1 } ?? 0
        return chain.indices[below...].map { component(for: chain[$0], parent: $0 > 0 ? chain[$0 - 1] : nil) }
            .joined(separator: "/")
    }

    private func component(for index: Int, parent: Int?) -> String {
        let name = tree.string(tree.nodes[index].name)
        guard let parent else { return name }
        var position = 0
        var count = 0
        var sibling = Int(tree.nodes[parent].firstChild)
        while sibling >= 0 {
            if tree.span(tree.nodes[sibling].name, equals: name) {
                if sibling == index { position = count }
                count += 1
            }
            sibling = Int(tree.nodes[sibling].nextSibling)
        }
        return count > 1 ? "\(name)[\(position)]" : name
    }

    /// The child elements of one element, in document order.
    public struct Children: Sequence {
        let tree: XMLTree
        let first: Int
        let base: Int

        /// Iterates over the children.
        public func makeIterator() -> Iterator { Iterator(tree: tree, cursor: first, base: base) }

        /// Walks the sibling chain.
        public struct Iterator: IteratorProtocol {
            let tree: XMLTree
            var cursor: Int
            let base: Int

            /// The next child, or nil after the last.
            public mutating func next() -> XMLElementView? {
                guard cursor >= 0 else { return nil }
                let view = XMLElementView(tree: tree, index: cursor, base: base)
                cursor = Int(tree.nodes[cursor].nextSibling)
                return view
            }
        }
    }

    /// An element's local name, compared with string literals without making a string.
    public struct Name: CustomStringConvertible {
        let tree: XMLTree
        let span: XMLTree.Span

        /// Whether `name` is `pattern`; this is what a `case "person-info":` label calls.
        public static func ~= (pattern: StaticString, name: Name) -> Bool {
            name.tree.span(name.span, equals: pattern)
        }

        /// The name as a string.
        public var description: String { tree.string(span) }
    }

    /// Reads an element's attributes by name, each read converted straight from the document's bytes.
    ///
    /// Each lookup starts just after the attribute the previous one found, so a decoder that asks for attributes in
    /// the order the document has them finds each at the first place it looks, while any other order still works.
    public struct Attributes {
        @usableFromInline let element: XMLElementView
        private let first: Int
        private let count: Int
        private var next = 0

        init(element: XMLElementView) {
            self.element = element
            let range = element.tree.attributeRange(of: element.index)
            first = range.lowerBound
            count = range.count
        }

        /// The attribute `name` (as written, with any prefix) read as `T`, or nil when the element does not have it.
        @inlinable
        public mutating func value<T: WireScalar>(_ name: StaticString, _ type: T.Type) throws -> T? {
            guard let span = find(name) else { return nil }
            guard let value = element.tree.withBytes(span, T.init(wireUTF8:)) else {
                throw element.mismatch(T.wireTypeName, found: span, at: element.path + "@\(name)")
            }
            return value
        }

        /// Where the value of the attribute `name` is, or nil when the element does not have it.
        @usableFromInline
        mutating func find(_ name: StaticString) -> XMLTree.Span? {
            let tree = element.tree
            var position = first + (next < count ? next : 0)
            for _ in 0..<count {
                let attribute = tree.attributes[position]
                if tree.span(attribute.name, equals: name) {
                    next = position - first + 1
                    return attribute.value
                }
                position = position + 1 == first + count ? first : position + 1
            }
            return nil
        }

        /// The attribute `name` read as `T`.
        @inlinable
        public mutating func required<T: WireScalar>(_ name: StaticString, _ type: T.Type) throws -> T {
            guard let value = try value(name, T.self) else {
                throw ResponseDecodingError(path: element.path + "@\(name)", reason: "missing required attribute")
            }
            return value
        }
    }

    /// Reads an element's child elements by name, as generated decoders do: one lookup per property.
    ///
    /// Each lookup starts just after the child the previous one found, so a decoder that asks for children in the
    /// order the document has them finds each at the first place it looks, while any other order still works.
    /// Children no lookup asks for are skipped.
    public struct Elements {
        @usableFromInline let parent: XMLElementView
        /// The node a lookup starts from, or -1 to start from the first child.
        private var next = -1

        init(parent: XMLElementView) { self.parent = parent }

        /// The first child called `name`, or nil.
        public mutating func first(_ name: StaticString) -> XMLElementView? {
            let tree = parent.tree
            let firstChild = Int(tree.nodes[parent.index].firstChild)
            let start = next >= 0 ? next : firstChild
            var cursor = start
            while cursor >= 0 {
                if tree.span(tree.nodes[cursor].name, equals: name) { return found(cursor) }
                cursor = Int(tree.nodes[cursor].nextSibling)
            }
            cursor = firstChild
            while cursor >= 0, cursor != start {
                if tree.span(tree.nodes[cursor].name, equals: name) { return found(cursor) }
                cursor = Int(tree.nodes[cursor].nextSibling)
            }
            return nil
        }

        /// The child called `name`.
        ///
        /// - Throws: ``ResponseDecodingError`` naming the missing element when there is none.
        public mutating func required(_ name: StaticString) throws -> XMLElementView {
            guard let child = first(name) else { throw parent.missingElement("\(name)") }
            return child
        }

        /// Every child called `name`, in document order.
        public mutating func children(named name: StaticString) -> [XMLElementView] {
            let tree = parent.tree
            var result: [XMLElementView] = []
            var cursor = Int(tree.nodes[parent.index].firstChild)
            while cursor >= 0 {
                if tree.span(tree.nodes[cursor].name, equals: name) { result.append(found(cursor)) }
                cursor = Int(tree.nodes[cursor].nextSibling)
            }
            return result
        }

        private mutating func found(_ node: Int) -> XMLElementView {
            next = Int(parent.tree.nodes[node].nextSibling)
            return XMLElementView(tree: parent.tree, index: node, base: parent.base)
        }
    }
}
