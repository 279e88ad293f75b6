import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// `XMLFragment`: inner XML kept byte for byte from a parsed document, checked when made from text, read as a tree
/// and written back verbatim through `XMLWriter`.
final class XMLFragmentTests: XCTestCase {
    // MARK: - Checking text

    func testWellFormedContentIsKeptExactly() throws {
        let texts = [
            "", "plain text", "  \n\t  ", "\r\n", "grüße ✓ 😀", "<a/>", "<a />",
            #"<a x='1' y="2" >t&amp;u&#65;&#x42;&lt;&gt;&quot;&apos;</a>  <b/>tail"#,
            "<!-- comment --><![CDATA[<raw & stuff>]]><?pi some data?>",
            "lead <a><b><c>deep</c></b></a> mid <d/> end",
            "<p:a xmlns:p='urn:p'><p:b/></p:a>",
            "<q:a q:attr='1'><q:b/></q:a>",
            "a ]] > b",
        ]
        for text in texts {
            XCTAssertEqual(try XMLFragment(wellFormed: text).text, text)
        }
    }

    func testMalformedContentIsRefusedWithItsPosition() {
        let cases: [(String, String)] = [
            ("<a>", "line 1, column 4: unexpected end of the fragment inside <a>"),
            ("</a>", "line 1, column 1: </a> has no start tag"),
            ("<a></a></a>", "line 1, column 8: </a> has no start tag"),
            ("<a></b>", "line 1, column 4: </b> does not match, expected </a>"),
            ("x\n<a>\n<b></a>", "line 3, column 4: </a> does not match, expected </b>"),
            ("a & b", "line 1, column 3: an unterminated reference"),
            ("a < b", "line 1, column 4: expected a name"),
            ("&nbsp;", "line 1, column 1: the entity &nbsp; is not defined"),
            ("&#0;", "line 1, column 1: &#0; is not a character XML allows"),
            ("<a x=1/>", "line 1, column 6: expected a quoted attribute value"),
            ("<a x='1' x='2'/>", "line 1, column 10: the attribute x appears twice"),
            ("bell \u{07}", "line 1, column 6: a control character (0x7)"),
            ("]]>", "line 1, column 1: ']]>' outside a CDATA section"),
            ("<!-- a -- b -->", "line 1, column 1: '--' inside a comment"),
            ("<![CDATA[x", "line 1, column 1: unterminated CDATA section"),
            ("<?xml version='1.0'?>", "line 1, column 1: an XML declaration that is not at the start of the document"),
            ("<!DOCTYPE a>", "line 1, column 1: a DOCTYPE declaration inside the document element"),
            ("<a xmlns:p=''/>", "line 1, column 4: the prefix p is bound to an empty namespace"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try XMLFragment(wellFormed: text), text) { error in
                XCTAssertEqual(String(describing: error), "malformed XML fragment at " + expected, text)
                XCTAssertTrue(error is XMLFragmentError, text)
            }
        }
        XCTAssertThrowsError(try XMLFragment(wellFormed: "ab<a></b>")) { error in
            XCTAssertEqual(
                error as? XMLFragmentError,
                XMLFragmentError(
                    reason: "</b> does not match, expected </a>", offset: 5, line: 1, column: 6
                ))
        }
    }

    func testNestingIsBounded() {
        let deep = String(repeating: "<a>", count: 600) + String(repeating: "</a>", count: 600)
        XCTAssertThrowsError(try XMLFragment(wellFormed: deep)) { error in
            XCTAssertTrue(
                String(describing: error).hasSuffix("elements nest deeper than the limit of 512 levels"), "\(error)")
        }
    }

    func testFragmentsAgreeWithTheDocumentReader() throws {
        // Whatever the fragment check accepts reads as an element's content, and the reverse; the element's inner
        // XML is then the fragment's exact text.
        let seeds = [
            "a <b c='1'>t&amp;u&#x41;<d/></b><!-- c --><![CDATA[<x>]]><?p i?> z",
            "<e>\r\n<f g=\"h\">&lt;&gt;</f></e>",
        ]
        var random = SplitMix64(seed: 0xF7A6)
        let alphabet = Array("<>/&;!-[]?'=\" a#x".utf8)
        var accepted = 0
        for round in 0..<3_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...random.next(in: 0...2) {
                let position = random.next(in: 0...bytes.count)
                switch random.next(in: 0...2) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(alphabet[random.next(in: 0...alphabet.count - 1)], at: position)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard !text.contains(":") else { continue }
            let fragment = try? XMLFragment(wellFormed: text)
            let document = try? XMLTree.parse(Data(("<r>" + text + "</r>").utf8))
            XCTAssertEqual(fragment != nil, document != nil, text)
            if let fragment, let document {
                accepted += 1
                XCTAssertEqual(document.root.innerXML, fragment, text)
                XCTAssertEqual(try fragment.tree().map(\.name), document.root.children.map(\.name), text)
            }
        }
        XCTAssertGreaterThan(accepted, 200, "some mutations are still well-formed")
    }

    // MARK: - Reading as a tree

    func testTreeReadsTheTopLevelElements() throws {
        let fragment = try XMLFragment(wellFormed: "lead <a x='1'>t&amp;u<b/><b>2</b></a> mid <c/> end")
        let elements = try fragment.tree()
        XCTAssertEqual(elements.map(\.name), ["a", "c"])
        XCTAssertEqual(elements[0].attribute("x"), "1")
        XCTAssertEqual(elements[0].text, "t&u")
        XCTAssertEqual(elements[0].children.map(\.path), ["a/b[0]", "a/b[1]"])
        XCTAssertEqual(elements[1].path, "c")
        XCTAssertEqual(try XMLFragment(wellFormed: "only text").tree().count, 0)
    }

    func testTreeNamespaces() throws {
        let fragment = try XMLFragment(wellFormed: "<p:a/><b/><q:c xmlns:q='urn:q'/>")
        XCTAssertEqual(try fragment.tree().map(\.namespaceURI), [nil, nil, "urn:q"], "unbound prefixes: no namespace")
        XCTAssertEqual(
            try fragment.tree(namespaces: ["p": "urn:p", "": "urn:d"]).map(\.namespaceURI),
            ["urn:p", "urn:d", "urn:q"],
            "bindings from where the fragment came from"
        )
        XCTAssertEqual(try fragment.tree().map(\.name), ["a", "b", "c"])
    }

    // MARK: - Inner XML of a parsed document

    private let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <root xmlns:p="urn:p" xmlns="urn:d"><info kind="x">\r
          <p:item n="1">t&amp;u &#x41;</p:item><!-- a note --><![CDATA[ <raw> & ]]><?pi data?>
          <empty/><p:empty />grüße ✓\r\n</info><after/><blank></blank></root>
        """

    private func source(between start: String, and end: String) throws -> String {
        let lower = try XCTUnwrap(document.range(of: start)).upperBound
        let upper = try XCTUnwrap(document.range(of: end, range: lower..<document.endIndex)).lowerBound
        return String(document[lower..<upper])
    }

    func testInnerXMLIsTheExactBytesBetweenTheTags() throws {
        let root = try XMLTree.parse(Data(document.utf8)).root
        let info = try XCTUnwrap(root.child("info"))
        let inner = info.innerXML
        XCTAssertEqual(inner.text, try source(between: #"<info kind="x">"#, and: "</info>"))
        XCTAssertTrue(inner.text.hasPrefix("\r\n  <p:item"), "line ends are not normalised")
        XCTAssertTrue(inner.text.contains("t&amp;u &#x41;</p:item><!-- a note --><![CDATA[ <raw> & ]]><?pi data?>"))
        XCTAssertEqual(root.innerXML.text, try source(between: #"xmlns="urn:d">"#, and: "</root>"))
        XCTAssertEqual(info.child("item")?.innerXML.text, "t&amp;u &#x41;")
        XCTAssertEqual(info.child("empty")?.innerXML.text, "", "an empty-element tag has no content")
        XCTAssertEqual(root.child("blank")?.innerXML.text, "")
        XCTAssertEqual(try XMLFragment(xml: info), inner, "decoding a fragment takes the element's inner XML")
        XCTAssertEqual(try XMLFragment(wellFormed: inner.text), inner, "inner XML is well-formed content")

        let items = try inner.tree(namespaces: ["p": "urn:p", "": "urn:d"])
        XCTAssertEqual(items.map(\.name), ["item", "empty", "empty"])
        XCTAssertEqual(items.map(\.namespaceURI), ["urn:p", "urn:d", "urn:p"])
        XCTAssertEqual(items.first?.text, "t&u A")
    }

    func testContentThatIsNotUTF8IsRefusedEverywhere() {
        // Comments and processing instructions are checked too, so inner XML always decodes to the same bytes.
        for (open, close) in [("<r><!--", "--></r>"), ("<r><?pi ", "?></r>")] {
            let bytes = Data(open.utf8) + Data([0xC3, 0x28]) + Data(close.utf8)
            XCTAssertThrowsError(try XMLTree.parse(bytes)) { error in
                XCTAssertTrue(String(describing: error).hasSuffix("bytes that are not UTF-8"), "\(error)")
            }
        }
    }

    // MARK: - Writing back

    func testWritingInnerXMLBackReproducesTheDocument() throws {
        let inner = "\r\n <p:x a=\"1\">t&amp;u&#x41;</p:x><!-- c --><![CDATA[<raw>]]><?pi d?>\ttail <y/>"
        let original = #"<root xmlns:p="urn:p"><info id="7">"# + inner + "</info><empty /><blank /></root>"
        let root = try XMLTree.parse(Data(original.utf8)).root
        let info = try XCTUnwrap(root.child("info"))
        let blank = try XCTUnwrap(root.child("blank"))

        var writer = XMLWriter()
        writer.startElement("root")
        try writer.attribute("xmlns:p", "urn:p")
        writer.startElement("info")
        try writer.attribute("id", "7")
        writer.innerXML(info.innerXML)
        writer.endElement()
        try writer.element("empty", writing: XMLFragment(), context: .empty)
        try writer.element("blank", writing: XMLFragment(xml: blank), context: .empty)
        writer.endElement()
        XCTAssertEqual(writer.bytes, Array(original.utf8))

        var whole = XMLWriter()
        whole.startElement("root")
        try whole.attribute("xmlns:p", "urn:p")
        whole.innerXML(root.innerXML)
        whole.endElement()
        XCTAssertEqual(String(decoding: whole.bytes, as: UTF8.self), original)
    }

    func testFragmentsAreWrittenVerbatimAndCompareByText() throws {
        let fragment = try XMLFragment(wellFormed: "a &amp; <b>c</b>")
        var writer = XMLWriter()
        writer.startElement("x")
        try writer.text("<")
        writer.innerXML(fragment)
        writer.endElement()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "<x>&lt;a &amp; <b>c</b></x>")
        XCTAssertEqual(fragment.description, "a &amp; <b>c</b>")
        XCTAssertEqual(fragment, try XMLFragment(wellFormed: "a &amp; <b>c</b>"))
        XCTAssertNotEqual(fragment, try XMLFragment(wellFormed: "a &#38; <b>c</b>"))
        XCTAssertEqual(XMLFragment().text, "")
    }
}
