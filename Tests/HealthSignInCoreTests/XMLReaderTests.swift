import Foundation
import XCTest

@testable import HealthSignInCore

/// The XML reader: what well-formed documents read as, and the exact error for each way a document can be broken.
final class XMLReaderTests: XCTestCase {
    private func root(_ xml: String) throws -> XMLElementView { try XMLTree.parse(Data(xml.utf8)).root }

    func testTheNameTablesHoldExactlyTheNameCharactersOfXML() {
        func mask(_ characters: String, from low: UInt8) -> UInt64 {
            characters.utf8.filter { $0 >= low && $0 < low + 64 }.reduce(0) { $0 | 1 << UInt64($1 - low) }
        }
        let letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        let starts = letters + "_:"
        let names = starts + "0123456789-."
        XCTAssertEqual(XMLReader.nameStartBelow64, mask(starts, from: 0))
        XCTAssertEqual(XMLReader.nameStartBelow128, mask(starts, from: 64))
        let table = XMLReader.nameCharacters
        XCTAssertEqual(table.utf8CodeUnitCount, 256)
        for byte in 0...255 {
            let continues = byte >= 0x80 || names.utf8.contains(UInt8(byte))
            XCTAssertEqual(table.utf8Start[byte], UInt8(ascii: continues ? "1" : "0"), "byte \(byte)")
        }
    }

    func testCharacterDataAndReferences() throws {
        let element = try root("<r>a &lt;&gt;&amp;&apos;&quot; &#65;&#x42;&#x1F600; <![CDATA[<&>]]>z</r>")
        XCTAssertEqual(element.text, "a <>&'\" AB😀 <&>z")
        XCTAssertEqual(try root("<r>\r\nx\ry\n</r>").text, "\nx\ny\n", "line ends become \\n")
        XCTAssertEqual(
            try root("<r><!-- note --><?pi data?>t<a/>u</r>").text, "tu",
            "comments and PIs are dropped; direct text joins")
        XCTAssertEqual(try root("<r>grüße ✓</r>").text, "grüße ✓")
    }

    func testAttributesAreNormalised() throws {
        let element = try root("<r a='1' b=\"x&amp;y\" c=\"t\tab\nline\r\nend\" d=\"\" e='&#x20AC;'/>")
        XCTAssertEqual(element.attribute("a"), "1")
        XCTAssertEqual(element.attribute("b"), "x&y")
        XCTAssertEqual(element.attribute("c"), "t ab line end")
        XCTAssertEqual(element.attribute("d"), "")
        XCTAssertEqual(element.attribute("e"), "€")
        XCTAssertNil(element.attribute("z"))
    }

    func testNamespaces() throws {
        let tree = try root(#"<r xmlns="urn:d"><a/><p:b xmlns:p="urn:p"><c xmlns=""/></p:b><p:d xmlns:p="urn:q"/></r>"#)
        let children = Array(tree.children)
        XCTAssertEqual(tree.namespaceURI, "urn:d")
        XCTAssertEqual(children.map(\.name), ["a", "b", "d"])
        XCTAssertEqual(children.map(\.namespaceURI), ["urn:d", "urn:p", "urn:q"])
        XCTAssertNil(children[1].child("c")?.namespaceURI, "xmlns=\"\" undeclares the default namespace")
        XCTAssertNil(children[1].attribute("xmlns:p"), "namespace declarations are not attributes")
    }

    func testPrologAndEpilog() throws {
        XCTAssertEqual(
            try root("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c -->\n<r/>\n<!-- after -->\n").name, "r"
        )
        XCTAssertEqual(try root("<?xml version='1.0' encoding='utf-8' standalone='yes'?><r/>").name, "r")
        XCTAssertEqual(try root("<?xml version=\"1.0\"?><?style x?><r/><?tail?>").name, "r")
    }

    func testMalformedDocumentsSayWhereAndWhy() {
        let cases: [(String, String)] = [
            ("", "line 1, column 1: no document element"),
            ("   ", "line 1, column 4: no document element"),
            ("text", "line 1, column 1: expected the document element"),
            ("<r>", "line 1, column 4: unexpected end of the document inside <r>"),
            ("<r></s>", "line 1, column 4: </s> does not match, expected </r>"),
            ("<r>\n<a></r>", "line 2, column 4: </r> does not match, expected </a>"),
            ("<r/><s/>", "line 1, column 5: more than one root element"),
            ("<r/>x", "line 1, column 5: content after the document element"),
            ("<r a=1/>", "line 1, column 6: expected a quoted attribute value"),
            ("<r a='1' a='2'/>", "line 1, column 10: the attribute a appears twice"),
            ("<r a='1'b='2'/>", "line 1, column 9: expected whitespace, '>' or '/>' in <r>"),
            ("<r a='<'/>", "line 1, column 7: '<' in an attribute value"),
            ("<r a='x", "line 1, column 8: unterminated attribute value"),
            ("<r>&nbsp;</r>", "line 1, column 4: the entity &nbsp; is not defined"),
            ("<r>&#0;</r>", "line 1, column 4: &#0; is not a character XML allows"),
            ("<r>&#xD800;</r>", "line 1, column 4: &#xD800; is not a character XML allows"),
            ("<r>& x</r>", "line 1, column 4: an unterminated reference"),
            ("<r>\u{01}</r>", "line 1, column 4: a control character (0x1)"),
            ("<r>]]></r>", "line 1, column 4: ']]>' outside a CDATA section"),
            ("<r><![CDATA[x</r>", "line 1, column 4: unterminated CDATA section"),
            ("<r><!-- a -- b --></r>", "line 1, column 4: '--' inside a comment"),
            (
                "<r><?xml version='1.0'?></r>",
                "line 1, column 4: an XML declaration that is not at the start of the document"
            ),
            ("<p:r/>", "line 1, column 1: the prefix p of <p:r> is not bound to a namespace"),
            ("<r xmlns:p=''/>", "line 1, column 4: the prefix p is bound to an empty namespace"),
            ("<!DOCTYPE r><r/>", "line 1, column 1: the document has a DOCTYPE declaration, which is not accepted"),
            ("<r><!DOCTYPE x></r>", "line 1, column 4: a DOCTYPE declaration inside the document element"),
            (
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>",
                "line 1, column 1: the document is encoded as iso-8859-1; only UTF-8 is accepted"
            ),
            ("<1r/>", "line 1, column 1: expected the document element"),
            ("<r></ r>", "line 1, column 6: expected a name"),
        ]
        for (xml, expected) in cases {
            XCTAssertThrowsError(try XMLTree.parse(Data(xml.utf8)), xml) { error in
                XCTAssertEqual(String(describing: error), "malformed XML at " + expected, xml)
            }
        }
    }

    func testEncodingErrors() {
        XCTAssertThrowsError(try XMLTree.parse(Data([0xFF, 0xFE, 0x3C, 0x00]))) { error in
            XCTAssertEqual(
                String(describing: error),
                "malformed XML at line 1, column 1: the document is UTF-16; only UTF-8 is accepted")
        }
        XCTAssertThrowsError(try XMLTree.parse(Data("<r>".utf8) + Data([0xC3, 0x28]) + Data("</r>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("bytes that are not UTF-8"), String(describing: error))
        }
        XCTAssertThrowsError(try XMLTree.parse(Data("<r a='".utf8) + Data([0xE2, 0x82]) + Data("'/>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("bytes that are not UTF-8"), String(describing: error))
        }
    }

    func testNestingIsBounded() throws {
        let depth = XMLLimits.default.maximumDepth
        let deep = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        XCTAssertEqual(try root(deep).name, "a")
        assertExceeds(
            .depth, String(repeating: "<a>", count: depth + 1), "elements nest deeper than the limit of 512 levels")
    }

    private func assertExceeds(
        _ limit: XMLLimits.Limit, _ xml: String, limits: XMLLimits = .default, _ reason: String, line: UInt = #line
    ) {
        XCTAssertThrowsError(try XMLTree.parse(Data(xml.utf8), limits: limits), line: line) { error in
            guard let error = error as? ResponseDecodingError else { return XCTFail("\(error)", line: line) }
            XCTAssertEqual(error.exceededLimit, limit, line: line)
            XCTAssertTrue(error.reason.hasSuffix(reason), error.reason, line: line)
        }
    }

    func testEachLimitIsATypedError() throws {
        let attributes = (0..<1_025).map { " a\($0)='v'" }.joined()
        assertExceeds(.attributesPerElement, "<r\(attributes)/>", "<r> has more attributes than the limit of 1024")
        XCTAssertEqual(try root("<r\(attributes.dropLast(" a1024='v'".count))/>").attribute("a1023"), "v")
        let declarations = (0..<1_025).map { " xmlns:p\($0)='urn:\($0)'" }.joined()
        assertExceeds(
            .namespaceDeclarations, "<r\(declarations)/>",
            "the document declares more namespaces than the limit of 1024")
        let spread = String(repeating: "<a xmlns='urn:x'/>", count: 1_025)
        assertExceeds(
            .namespaceDeclarations, "<r>\(spread)</r>", "the document declares more namespaces than the limit of 1024")
        let small = XMLLimits(maximumDocumentBytes: 10)
        assertExceeds(
            .documentSize, "<r>0123456789</r>", limits: small,
            "the XML document has 17 bytes, more than the limit of 10")
        XCTAssertEqual(try XMLTree.parse(Data("<r>01</r>".utf8), limits: small).root.text, "01")
        // Malformed documents name no limit.
        XCTAssertThrowsError(try XMLTree.parse(Data("<r>".utf8))) { error in
            XCTAssertNil((error as? ResponseDecodingError)?.exceededLimit)
        }
    }

    func testDuplicatesAreFoundAmongManyAttributesAndDeclarations() throws {
        let many = (0..<500).map { " a\($0)='v'" }.joined()
        let limits = XMLLimits(maximumAttributesPerElement: 100_000)
        XCTAssertThrowsError(try XMLTree.parse(Data("<r\(many) a250='w'/>".utf8), limits: limits)) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("the attribute a250 appears twice"), "\(error)")
        }
        XCTAssertThrowsError(try XMLTree.parse(Data("<r xmlns:p='urn:a' xmlns:p='urn:b'/>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("the attribute xmlns:p appears twice"), "\(error)")
        }
        XCTAssertThrowsError(try XMLTree.parse(Data("<r xmlns='urn:a' xmlns='urn:b'/>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("the attribute xmlns appears twice"), "\(error)")
        }
        // The same prefix on nested or sibling elements is a new binding, and an inner one ends with its element.
        let tree = try XMLTree.parse(
            Data("<r xmlns:p='urn:a'><p:x xmlns:p='urn:b'/><p:y xmlns:p='urn:c'/><p:z/></r>".utf8))
        XCTAssertEqual(tree.root.children.map(\.namespaceURI), ["urn:b", "urn:c", "urn:a"])
    }

    func testLargeDocumentsAreRead() throws {
        // Over 10 MB: the size Linux's XMLParser refuses when given a whole document.
        let item = "<item id=\"1\">" + String(repeating: "x", count: 1_000) + "</item>"
        let xml = "<r>" + String(repeating: item, count: 10_500) + "</r>"
        XCTAssertGreaterThan(xml.utf8.count, 10_000_000)
        XCTAssertEqual(Array(try root(xml).children).count, 10_500)
    }

    /// The tree's copy of a document is made a stretch at a time as it is read: every element's exact content, text
    /// and attributes come out the same on both sides of each stretch's end, and nothing of a document that fails
    /// late is kept.
    func testALargeDocumentReadsTheSameAcrossTheStretchesOfItsCopy() throws {
        let items = (0..<20_000).map { number in
            "<item n='\(number)' note=\"a&amp;b\">text \(number)<!-- \(number) --><b>x</b></item>"
        }
        let xml = "<r>" + items.joined() + "</r>"
        XCTAssertGreaterThan(xml.utf8.count, 1_000_000)
        let children = Array(try root(xml).children)
        XCTAssertEqual(children.count, items.count)
        for (number, child) in children.enumerated() {
            XCTAssertEqual(child.attribute("n"), "\(number)")
            XCTAssertEqual(child.attribute("note"), "a&b")
            XCTAssertEqual(child.text, "text \(number)")
            XCTAssertEqual(
                child.innerXML.description, "text \(number)<!-- \(number) --><b>x</b>", "item \(number)")
        }
        XCTAssertThrowsError(try root(xml.replacingOccurrences(of: "</r>", with: "</s>"))) { error in
            XCTAssertTrue("\(error)".contains("does not match"), "\(error)")
        }
    }

    /// An element's exact content is found from the document when asked: `>` and `/>` in quoted values, `</…>` in a
    /// comment, a CDATA section or a processing instruction, and nested elements of the same name do not end it.
    func testInnerXMLEndsAtTheElementsOwnEndTag() throws {
        let content = "t<!-- </a> --><![CDATA[</a>]]><?p </a>?><b q='/>'/><a>n</a>"
        let document = try root("<r><p:a xmlns:p='urn:p' x='>' y=\"/>\">\(content)</p:a><a/><c></c></r>")
        let children = Array(document.children)
        XCTAssertEqual(children.map(\.name), ["a", "a", "c"])
        XCTAssertEqual(children[0].innerXML.description, content)
        XCTAssertEqual(children[1].innerXML.description, "")
        XCTAssertEqual(children[2].innerXML.description, "")
        XCTAssertEqual(document.innerXML.description, "<p:a xmlns:p='urn:p' x='>' y=\"/>\">\(content)</p:a><a/><c></c>")
        let nested = try XCTUnwrap(children[0].children.first { $0.name == "a" })
        XCTAssertEqual(nested.innerXML.description, "n")
        XCTAssertEqual(nested.path, "a[0]/a")
        XCTAssertEqual(nested.asDecodingRoot.path, "")
    }
}
