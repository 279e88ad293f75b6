/// Writes compact UTF-8 XML with one fixed spelling, and remembers the byte ranges of regions it is asked to mark.
///
/// The spelling never varies, because signatures are computed over these exact bytes:
/// - no XML declaration, no indentation, no whitespace between tags;
/// - attributes in the order written, values in double quotes;
/// - an element with no content is written `<name />` (with a space before the slash);
/// - text escapes `&`, `<`, `>` and carriage return; attribute values also escape `"`, tab and line feed.
///
/// ```swift
/// var writer = XMLWriter()
/// writer.startElement("info")
/// writer.startElement("parameters")
/// writer.endElement()
/// writer.endElement()
/// // writer.bytes == Array("<info><parameters /></info>".utf8)
/// ```
@_spi(Generated) public struct XMLWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// Regions marked with ``mark(_:_:)``, by name, as ranges into ``bytes``.
    public private(set) var regions: [String: Range<Int>] = [:]
    private var openElements: [String] = []
    private var startTagIsOpen = false

    /// Creates an empty writer.
    public init() {
        bytes.reserveCapacity(512)
    }

    /// Opens `<name`; attributes may follow until the first content is written.
    public mutating func startElement(_ name: String) {
        closeStartTag()
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        openElements.append(name)
        startTagIsOpen = true
    }

    /// Adds `name="value"` to the element just opened.
    ///
    /// - Throws: `RequestEncodingError` when `value` holds a character XML 1.0 cannot carry.
    public mutating func attribute(_ name: String, _ value: String) throws {
        precondition(startTagIsOpen, "XMLWriter: attribute '\(name)' written after the element's content")
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: #"=""#.utf8)
        try appendEscaped(value, inAttribute: true)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes escaped character data inside the current element.
    ///
    /// - Throws: `RequestEncodingError` when `value` holds a character XML 1.0 cannot carry.
    public mutating func text(_ value: String) throws {
        guard !value.isEmpty else { return }
        closeStartTag()
        try appendEscaped(value, inAttribute: false)
    }

    /// Closes the innermost open element, as `<name />` when it has no content.
    public mutating func endElement() {
        guard let name = openElements.popLast() else {
            preconditionFailure("XMLWriter: endElement() without a matching startElement")
        }
        if startTagIsOpen {
            bytes.append(contentsOf: " />".utf8)
            startTagIsOpen = false
        } else {
            bytes.append(contentsOf: "</".utf8)
            bytes.append(contentsOf: name.utf8)
            bytes.append(UInt8(ascii: ">"))
        }
    }

    /// Writes `<name>text</name>` (or `<name />` for empty text).
    public mutating func element(_ name: String, text: String) throws {
        startElement(name)
        try self.text(text)
        endElement()
    }

    /// Appends bytes that are already well-formed XML, unchanged (used to embed a signed region verbatim).
    public mutating func raw(_ content: [UInt8]) {
        closeStartTag()
        bytes.append(contentsOf: content)
    }

    /// Writes `fragment`'s text verbatim, without escaping, as (part of) the current element's content.
    ///
    /// The fragment was checked to be well-formed content when it was made, so the output stays well-formed. An
    /// empty fragment writes nothing, so an element with no other content is still written `<name />`. Namespace
    /// prefixes the fragment uses without declaring them (because an element around it in the document it came
    /// from did) must be declared on an element the writer has open, as the original document did.
    public mutating func innerXML(_ fragment: XMLFragment) {
        guard !fragment.text.isEmpty else { return }
        closeStartTag()
        bytes.append(contentsOf: fragment.text.utf8)
    }

    /// Runs `body` and records the bytes it wrote under `name` in ``regions``.
    @discardableResult
    public mutating func mark(_ name: String, _ body: (inout XMLWriter) throws -> Void) rethrows -> Range<Int> {
        closeStartTag()
        let start = bytes.count
        try body(&self)
        closeStartTag()
        let range = start..<bytes.count
        regions[name] = range
        return range
    }

    /// The bytes of `body` written into a fresh writer: a fragment to sign before it is embedded with ``raw(_:)``.
    public static func fragment(_ body: (inout XMLWriter) throws -> Void) rethrows -> [UInt8] {
        var writer = XMLWriter()
        try body(&writer)
        precondition(writer.openElements.isEmpty, "XMLWriter.fragment: an element was left open")
        return writer.bytes
    }

    private mutating func closeStartTag() {
        guard startTagIsOpen else { return }
        bytes.append(UInt8(ascii: ">"))
        startTagIsOpen = false
    }

    private mutating func appendEscaped(_ value: String, inAttribute: Bool) throws {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""):
                if inAttribute { bytes.append(contentsOf: "&quot;".utf8) } else { bytes.append(byte) }
            case 0x0D: bytes.append(contentsOf: "&#xD;".utf8)
            case 0x09: if inAttribute { bytes.append(contentsOf: "&#x9;".utf8) } else { bytes.append(byte) }
            case 0x0A: if inAttribute { bytes.append(contentsOf: "&#xA;".utf8) } else { bytes.append(byte) }
            case 0x00..<0x20:
                throw RequestEncodingError.invalidXMLCharacter(codePoint: Int(byte))
            default: bytes.append(byte)
            }
        }
    }
}

extension XMLWriter {
    /// Writes `<name …>` with `value`'s content.
    public mutating func element(_ name: String, writing value: some XMLEncodable, context: EncodingContext) throws {
        startElement(name)
        try value.writeXML(&self, context: context)
        endElement()
    }

    /// Writes `<name value="…" />`, FHIR's XML spelling of a primitive.
    public mutating func valueElement(_ name: String, value: String) throws {
        startElement(name)
        try attribute("value", value)
        endElement()
    }
}
