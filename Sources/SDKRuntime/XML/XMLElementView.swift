/// One element of an ``XMLTree``, as generated decoders see it.
///
/// A view remembers the element decoding started from (its *base*), so errors name a path relative to it, such as
/// `response-results/person-info[3]/record@rel-type`.
public struct XMLElementView {
    let tree: XMLTree
    let index: Int
    let base: Int

    /// The element's local name (without prefix).
    public var name: String { tree.string(tree.nodes[index].name) }

    /// The element's namespace URI, or nil when it has none.
    public var namespaceURI: String? {
        let namespace = tree.nodes[index].namespace
        return namespace < 0 ? nil : tree.namespaces[Int(namespace)]
    }

    /// The character data directly inside the element, unmodified (whitespace is kept).
    public var text: String { tree.string(tree.nodes[index].text) }

    /// The value of the attribute called `name` (as written, with any prefix), or nil.
    public func attribute(_ name: String) -> String? {
        let node = tree.nodes[index]
        var position = Int(node.firstAttribute)
        let end = position + Int(node.attributeCount)
        while position < end {
            let attribute = tree.attributes[position]
            if tree.span(attribute.name, equals: name) { return tree.string(attribute.value) }
            position += 1
        }
        return nil
    }

    /// The element's content exactly as received: every byte between the end of its start tag and the start of its
    /// end tag (empty for `<a/>`), with whitespace, comments, CDATA sections, references and prefixes unchanged.
    ///
    /// Writing it back with ``XMLWriter/innerXML(_:)`` inside an element reproduces the same bytes, so content that
    /// is signed or hashed as received can be kept without re-serializing it.
    public var innerXML: XMLFragment {
        let node = tree.nodes[index]
        // The reader checked every byte of an element's content to be UTF-8, so this decoding keeps them all.
        let content = tree.source[Int(node.contentStart)..<Int(node.contentEnd)]
        return XMLFragment(verbatim: String(decoding: content, as: UTF8.self))
    }

    /// Whether the element's local name is `name`, without making a string of it.
    public func isNamed(_ name: String) -> Bool { tree.span(tree.nodes[index].name, equals: name) }

    /// The element's child elements, in document order.
    public var children: Children { Children(tree: tree, first: Int(tree.nodes[index].firstChild), base: base) }

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
        var components: [String] = []
        var cursor = index
        while cursor != base, cursor >= 0 {
            components.append(component(for: cursor))
            cursor = Int(tree.nodes[cursor].parent)
        }
        return components.reversed().joined(separator: "/")
    }

    private func component(for index: Int) -> String {
        let node = tree.nodes[index]
        let name = tree.string(node.name)
        guard node.parent >= 0 else { return name }
        var position = 0
        var count = 0
        var sibling = Int(tree.nodes[Int(node.parent)].firstChild)
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
}
