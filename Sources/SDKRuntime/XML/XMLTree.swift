import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed XML document, stored flat for fast reading by generated decoders.
///
/// Built in one pass of Foundation's `XMLParser` with namespace processing on. Elements keep their local name,
/// namespace URI, attributes and directly contained text; comments and processing instructions are dropped.
/// Documents with a document type declaration are refused before parsing, so entity expansion and external
/// entities never reach the parser; no protocol the SDK speaks uses one.
public final class XMLTree {
    struct Node {
        var name: String
        var namespaceURI: String?
        var attributes: [String: String]
        var text: String = ""
        var parent: Int32
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var nextSibling: Int32 = -1
    }

    var nodes: [Node] = []

    private init() {}

    /// Parses `data`.
    ///
    /// - Throws: ``ResponseDecodingError`` naming the line and column when `data` is not well-formed XML or
    ///   declares entities.
    public static func parse(_ data: Data) throws -> XMLTree {
        if declaresDocumentType(data) {
            throw ResponseDecodingError(path: "", reason: "the document has a DOCTYPE declaration, which is not accepted")
        }
        let tree = XMLTree()
        let builder = TreeBuilder(tree: tree)
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        // Linux's XMLParser can report success after an error, so the error is checked as well.
        let succeeded = parser.parse() && parser.parserError == nil
        if let refusal = builder.refusal {
            throw ResponseDecodingError(path: "", reason: refusal)
        }
        guard succeeded, !tree.nodes.isEmpty else {
            let reason = (parser.parserError as NSError?).map { "code \($0.code)" } ?? "no root element"
            throw ResponseDecodingError(
                path: "",
                reason: "malformed XML at line \(parser.lineNumber), column \(parser.columnNumber) (\(reason))"
            )
        }
        return tree
    }

    /// The document element, as the root of decoding paths.
    public var root: XMLElementView { XMLElementView(tree: self, index: 0, base: 0) }

    /// Whether the prolog (everything before the document element) contains `<!DOCTYPE`.
    static func declaresDocumentType(_ data: Data) -> Bool {
        let marker = Array("<!DOCTYPE".utf8)
        return data.withUnsafeBytes { buffer -> Bool in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var index = 0
            while index < bytes.count {
                guard bytes[index] == UInt8(ascii: "<"), index + 1 < bytes.count else {
                    index += 1
                    continue
                }
                let next = bytes[index + 1]
                // A letter, `_` or `:` after `<` starts the document element: the prolog is over.
                if next != UInt8(ascii: "?"), next != UInt8(ascii: "!") { return false }
                if bytes.count - index >= marker.count, zip(marker.indices, marker).allSatisfy({ bytes[index + $0] == $1 }) {
                    return true
                }
                index += 1
            }
            return false
        }
    }
}

/// The `XMLParser` delegate that appends nodes to an ``XMLTree``.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    let tree: XMLTree
    var current: Int32 = -1
    var refusal: String?

    init(tree: XMLTree) { self.tree = tree }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        let index = Int32(tree.nodes.count)
        tree.nodes.append(XMLTree.Node(
            name: elementName,
            namespaceURI: namespaceURI.flatMap { $0.isEmpty ? nil : $0 },
            attributes: attributeDict,
            parent: current
        ))
        if current >= 0 {
            let parent = Int(current)
            if tree.nodes[parent].lastChild >= 0 {
                tree.nodes[Int(tree.nodes[parent].lastChild)].nextSibling = index
            } else {
                tree.nodes[parent].firstChild = index
            }
            tree.nodes[parent].lastChild = index
        } else if index > 0 {
            refuse("more than one root element", parser)
        }
        current = index
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        if current >= 0 { current = tree.nodes[Int(current)].parent }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if current >= 0 { tree.nodes[Int(current)].text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard current >= 0 else { return }
        guard let string = String(data: CDATABlock, encoding: .utf8) else {
            return refuse("a CDATA section is not valid UTF-8", parser)
        }
        tree.nodes[Int(current)].text += string
    }

    private func refuse(_ reason: String, _ parser: XMLParser) {
        if refusal == nil { refusal = reason }
        parser.abortParsing()
    }
}
