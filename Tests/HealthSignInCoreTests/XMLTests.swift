import Foundation
@_spi(Generated) import HealthSignInCore
import XCTest

final class XMLTests: XCTestCase {
    func testWriterSpellingAndEscaping() throws {
        var writer = XMLWriter()
        writer.startElement("a")
        try writer.attribute("x", "1 & \"2\" <3>\t\n")
        writer.startElement("empty")
        writer.endElement()
        try writer.element("t", text: "a&b <c> \"d\" \r")
        try writer.element("none", text: "")
        writer.endElement()
        XCTAssertEqual(
            String(decoding: writer.bytes, as: UTF8.self),
            #"<a x="1 &amp; &quot;2&quot; &lt;3&gt;&#x9;&#xA;"><empty /><t>a&amp;b &lt;c&gt; "d" &#xD;</t><none /></a>"#
        )
    }

    func testControlCharactersCannotBeWritten() {
        var writer = XMLWriter()
        writer.startElement("a")
        XCTAssertThrowsError(try writer.text("bell\u{07}")) { error in
            XCTAssertEqual(error as? RequestEncodingError, .invalidXMLCharacter(codePoint: 7))
        }
    }

    func testRegionsAndFragments() throws {
        let fragment = try XMLWriter.fragment { try $0.element("content", text: "x") }
        var writer = XMLWriter()
        writer.startElement("root")
        let range = writer.mark("content") { $0.raw(fragment) }
        writer.endElement()
        XCTAssertEqual(String(decoding: writer.bytes[range], as: UTF8.self), "<content>x</content>")
        XCTAssertEqual(writer.regions["content"], range)
    }

    func testReaderMatchesLocalNamesAndKeepsNamespaces() throws {
        let tree = try XMLTree.parse(
            Data(
                #"<?xml version="1.0"?><r><wc:info xmlns:wc="urn:x"><a b="1">t &amp; u<![CDATA[<v>]]></a><a/></wc:info></r>"#
                    .utf8))
        let info = try XCTUnwrap(tree.root.child("info"))
        XCTAssertEqual(info.namespaceURI, "urn:x")
        let items = Array(info.children)
        XCTAssertEqual(items.map(\.name), ["a", "a"])
        XCTAssertEqual(items[0].attribute("b"), "1")
        XCTAssertEqual(items[0].text, "t & u<v>")
        XCTAssertEqual(items[1].path, "info/a[1]")
    }

    func testMalformedXMLNamesTheLine() {
        XCTAssertThrowsError(try XMLTree.parse(Data("<a>\n<b></a>".utf8))) { error in
            XCTAssertTrue(String(describing: error).hasPrefix("malformed XML at line 2"), String(describing: error))
        }
        XCTAssertThrowsError(try XMLTree.parse(Data()))
    }

    func testEntityDeclarationsAreRefused() {
        let bomb =
            #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><r>&b;</r>"#
        XCTAssertThrowsError(try XMLTree.parse(Data(bomb.utf8))) { error in
            XCTAssertEqual(
                String(describing: error),
                "malformed XML at line 1, column 22: the document has a DOCTYPE declaration, which is not accepted")
        }
        let external = #"<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
        XCTAssertThrowsError(try XMLTree.parse(Data(external.utf8)))
    }

    func testScalarsAndAttributeErrors() throws {
        let root = try XMLTree.parse(
            Data(#"<r n="x" ok="1"><d>2017-08-10T12:34:56Z</d><g>CC5E5771-4DA7-4961-A758-D7714223D9AB</g></r>"#.utf8)
        ).root
        XCTAssertEqual(try root.attribute("ok", Bool.self), true)
        XCTAssertEqual(try root.child("d")?.scalar(Date.self), Date(timeIntervalSince1970: 1_502_368_496))
        XCTAssertEqual(
            try root.child("g")?.scalar(UUID.self).wireText, "cc5e5771-4da7-4961-a758-d7714223d9ab",
            "GUIDs are written lowercase")
        XCTAssertThrowsError(try root.attribute("n", Int.self)) {
            XCTAssertEqual(String(describing: $0), #"@n: expected Int, found "x""#)
        }
        XCTAssertThrowsError(try root.requiredAttribute("missing", Int.self)) {
            XCTAssertEqual(String(describing: $0), "@missing: missing required attribute")
        }
    }

    func testAttributesAreFoundInAnyOrderAndNamesMatchWithoutStrings() throws {
        let document = #"<r a="1" b="2" c="&amp;3" d="x"><item-name/><other/><item-name/></r>"#
        let root = try XMLTree.parse(Data(document.utf8)).root
        var attributes = root.attributes
        XCTAssertEqual(try attributes.value("c", String.self), "&3")
        XCTAssertEqual(
            try attributes.value("a", Int.self), 1, "a lookup wraps around to attributes before the last one found")
        XCTAssertNil(try attributes.value("e", Int.self))
        XCTAssertEqual(try attributes.required("b", Int.self), 2)
        XCTAssertThrowsError(try attributes.value("d", Int.self)) {
            XCTAssertEqual(String(describing: $0), #"@d: expected Int, found "x""#)
        }
        XCTAssertThrowsError(try attributes.required("z", Int.self)) {
            XCTAssertEqual(String(describing: $0), "@z: missing required attribute")
        }
        var names: [String] = []
        for child in root.children {
            switch child.localName {
            case "item": names.append("prefix only")
            case "item-name": names.append("item-name")
            default: names.append("other: \(child.localName)")
            }
        }
        XCTAssertEqual(names, ["item-name", "other: other", "item-name"])
        XCTAssertEqual(root.children(named: "item-name").count, 2)
        XCTAssertFalse(root.hasText)
    }
}
