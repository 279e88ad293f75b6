/// Any XML content, for schema properties that hold "any value": an element's inner XML exactly as received.
///
/// The text is the bytes between the end of an element's start tag and the start of its end tag, unchanged:
/// whitespace, comments, CDATA sections, entity and character references, prefixes and line ends all stay as they
/// came, so content that is signed or hashed over its exact bytes can be kept and sent back. Read one from a parsed
/// document with ``XMLElementView/innerXML``, write it back with `XMLWriter.innerXML(_:)`, and read it as a tree
/// with ``tree(namespaces:)``.
///
/// ```swift
/// let document = try XMLTree.parse(Data("<r><info> <a x='1'>t&amp;u</a><!-- c --> </info></r>".utf8))
/// let info = document.root.child("info")?.innerXML
/// let text = info?.text                        // " <a x='1'>t&amp;u</a><!-- c --> "
/// let decoded = try info?.tree().first?.text    // "t&u"
///
/// var writer = XMLWriter()
/// writer.startElement("info")
/// if let info { writer.innerXML(info) }
/// writer.endElement()                // writer.bytes: "<info> <a x='1'>t&amp;u</a><!-- c --> </info>"
/// ```
///
/// A fragment is XML *content*: it may hold several elements and text around them, but no XML declaration or
/// document type declaration. As a model it is `XMLCodable`: decoding takes an element's inner XML and encoding
/// writes it verbatim into the element the caller opened (the element's own attributes are not part of it).
///
/// Fragments compare by their text, as Swift strings compare.
public struct XMLFragment: Sendable, Hashable {
    /// The content, exactly as received or given.
    public let text: String

    /// An empty fragment.
    public init() { text = "" }

    /// `text`, after checking that it is well-formed XML content.
    ///
    /// Elements must be balanced and properly nested, attributes quoted and unique, character data free of a bare
    /// `&` or `<` and of control characters, references only the five predefined entities or character references
    /// to characters XML allows; comments, CDATA sections and processing instructions must be closed. Text outside
    /// elements is allowed. A prefix that the fragment uses without declaring is accepted, since an element around
    /// the fragment may declare it.
    ///
    /// - Throws: ``XMLFragmentError`` with the line, column and byte offset of the first problem.
    public init(wellFormed text: String) throws(XMLFragmentError) {
        _ = try Self.read(text, namespaces: [:])
        self.text = text
    }

    /// `text`, trusted to be well-formed content because an XML reader already checked it (see
    /// ``XMLElementView/innerXML``).
    init(verbatim text: String) {
        self.text = text
    }

    /// The fragment read as XML: its top-level elements, in order, with their attributes, text and children.
    ///
    /// Paths of these elements (``XMLElementView/path``) start at the fragment. Text between the top-level
    /// elements is not part of the result.
    ///
    /// - Parameter namespaces: namespace URIs by prefix (the empty prefix is the default namespace) that were in
    ///   scope where the fragment came from, so that its elements report their ``XMLElementView/namespaceURI``. A
    ///   prefix bound neither here nor inside the fragment gives no namespace.
    /// - Throws: ``XMLFragmentError`` when the text is not well-formed content, which cannot happen for a fragment
    ///   made by ``init(wellFormed:)`` or read from a document.
    public func tree(namespaces: [String: String] = [:]) throws(XMLFragmentError) -> [XMLElementView] {
        Array(try Self.read(text, namespaces: namespaces).root.children)
    }

    /// Reads `text` as content under a synthetic root element.
    private static func read(_ text: String, namespaces: [String: String]) throws(XMLFragmentError) -> XMLTree {
        let source = Array(text.utf8)
        guard source.count < Int32.max else {
            throw XMLFragmentError(reason: "the fragment is larger than 2 GB", offset: 0, line: 1, column: 1)
        }
        // Sorted, so that the bindings are pushed in the same order in every process.
        let bindings = namespaces.sorted { $0.key < $1.key }.map { (prefix: $0.key, uri: $0.value) }
        let result = source.withUnsafeBufferPointer { bytes -> Result<XMLTree, XMLFragmentError> in
            do throws(XMLReader.Failure) {
                return .success(try XMLReader.readFragment(source, bytes, namespaces: bindings))
            } catch {
                let position = XMLReader.position(of: error.offset, in: bytes)
                return .failure(
                    XMLFragmentError(
                        reason: error.reason, offset: error.offset, line: position.line, column: position.column
                    ))
            }
        }
        return try result.get()
    }
}

extension XMLFragment: CustomStringConvertible {
    /// The fragment's text.
    public var description: String { text }
}

@_spi(Generated) extension XMLFragment: XMLCodable {
    /// The inner XML of `element`, exactly as received (``XMLElementView/innerXML``). It never fails; it is
    /// declared `throws` like every reader of generated models, which call it with `try`.
    public init(xml element: XMLElementView) throws {
        self = element.innerXML
    }

    /// Writes the fragment verbatim into the element the caller has just opened (`XMLWriter.innerXML(_:)`).
    public func writeXML(_ writer: inout XMLWriter, context: EncodingContext) {
        writer.innerXML(self)
    }
}

/// Why some text is not well-formed XML content, and where.
public struct XMLFragmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `</b> does not match, expected </a>`.
    public let reason: String
    /// Where, in UTF-8 bytes from the start of the text.
    public let offset: Int
    /// The line of ``offset``, from 1.
    public let line: Int
    /// The column of ``offset`` in characters, from 1.
    public let column: Int

    /// An error for `reason` at `offset`, which is on `line` and `column`.
    public init(reason: String, offset: Int, line: Int, column: Int) {
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// For example `malformed XML fragment at line 1, column 4: </b> does not match, expected </a>`.
    public var description: String { "malformed XML fragment at line \(line), column \(column): \(reason)" }
}

extension XMLFragmentError: SDKError {
    /// `ErrorRecovery.fixRequest`: the fragment was built from text that is not XML.
    public var recovery: ErrorRecovery { .fixRequest }
}
