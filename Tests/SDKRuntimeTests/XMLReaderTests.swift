import Foundation
@testable import SDKRuntime
import XCTest

/// The XML reader: what well-formed documents read as, and the exact error for each way a document can be broken.
final class XMLReaderTests: XCTestCase {
    private func root(_ xml: String) throws -> XMLElementView { try XMLTree.parse(Data(xml.utf8)).root }

    func testCharacterDataAndReferences() throws {
        let element = try root("<r>a &lt;&gt;&amp;&apos;&quot; &#65;&#x42;&#x1F600; <![CDATA[<&>]]>z</r>")
        XCTAssertEqual(element.text, "a <>&'\" AB😀 <&>z")
        XCTAssertEqual(try root("<r>\r\nx\ry\n</r>").text, "\nx\ny\n", "line ends become \\n")
        XCTAssertEqual(try root("<r><!-- note --><?pi data?>t<a/>u</r>").text, "tu", "comments and PIs are dropped; direct text joins")
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
        XCTAssertEqual(try root("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c -->\n<r/>\n<!-- after -->\n").name, "r")
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
            ("<r><?xml version='1.0'?></r>", "line 1, column 4: an XML declaration that is not at the start of the document"),
            ("<p:r/>", "line 1, column 1: the prefix p of <p:r> is not bound to a namespace"),
            ("<r xmlns:p=''/>", "line 1, column 4: the prefix p is bound to an empty namespace"),
            ("<!DOCTYPE r><r/>", "line 1, column 1: the document has a DOCTYPE declaration, which is not accepted"),
            ("<r><!DOCTYPE x></r>", "line 1, column 4: a DOCTYPE declaration inside the document element"),
            ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r/>", "line 1, column 1: the document is encoded as iso-8859-1; only UTF-8 is accepted"),
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
            XCTAssertEqual(String(describing: error), "malformed XML at line 1, column 1: the document is UTF-16; only UTF-8 is accepted")
        }
        XCTAssertThrowsError(try XMLTree.parse(Data("<r>".utf8) + Data([0xC3, 0x28]) + Data("</r>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("bytes that are not UTF-8"), String(describing: error))
        }
        XCTAssertThrowsError(try XMLTree.parse(Data("<r a='".utf8) + Data([0xE2, 0x82]) + Data("'/>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("bytes that are not UTF-8"), String(describing: error))
        }
    }

    func testNestingIsBounded() throws {
        let deep = String(repeating: "<a>", count: XMLReader.maximumDepth) + String(repeating: "</a>", count: XMLReader.maximumDepth)
        XCTAssertEqual(try root(deep).name, "a")
        let tooDeep = String(repeating: "<a>", count: XMLReader.maximumDepth + 1)
        XCTAssertThrowsError(try XMLTree.parse(Data(tooDeep.utf8))) { error in
            XCTAssertTrue(String(describing: error).hasSuffix("elements nest deeper than \(XMLReader.maximumDepth) levels"))
        }
    }

    func testLargeDocumentsAreRead() throws {
        // Over 10 MB: the size Linux's XMLParser refuses when given a whole document.
        let item = "<item id=\"1\">" + String(repeating: "x", count: 1_000) + "</item>"
        let xml = "<r>" + String(repeating: item, count: 10_500) + "</r>"
        XCTAssertGreaterThan(xml.utf8.count, 10_000_000)
        XCTAssertEqual(Array(try root(xml).children).count, 10_500)
    }
}
