/// A model that generated code can read from an XML element.
@_spi(Generated) public protocol XMLDecodable {
    /// Reads the model from `element`'s attributes, children and text; attributes and children the model does not
    /// name are skipped.
    init(xml element: XMLElementView) throws
}

/// A model that generated code can write as the content of an XML element.
@_spi(Generated) public protocol XMLEncodable {
    /// Writes the model's attributes, then its children or text, into the element the caller has just opened.
    func writeXML(_ writer: inout XMLWriter, context: EncodingContext) throws
}

/// A model with both XML directions.
@_spi(Generated) public typealias XMLCodable = XMLDecodable & XMLEncodable

extension XMLElementView {
    /// The element's text read as `T`.
    @inlinable
    public func scalar<T: WireScalar>(_ type: T.Type = T.self) throws -> T {
        let span = textSpan
        guard let value = tree.withBytes(span, T.init(wireUTF8:)) else {
            throw mismatch(T.wireTypeName, found: span, at: path)
        }
        return value
    }

    /// The element's `value` attribute read as `T` (FHIR's XML spelling of primitives: `<code value="expired"/>`).
    public func valueAttribute<T: WireScalar>(_ type: T.Type = T.self) throws -> T {
        try requiredAttribute("value", T.self)
    }

    /// The attribute `name` read as `T`, or nil when the element does not have it.
    public func attribute<T: WireScalar>(_ name: String, _ type: T.Type) throws -> T? {
        guard let span = attributeValue(name) else { return nil }
        guard let value = tree.withBytes(span, T.init(wireUTF8:)) else {
            throw mismatch(T.wireTypeName, found: span, at: attributePath(name))
        }
        return value
    }

    /// The attribute `name` read as `T`.
    public func requiredAttribute<T: WireScalar>(_ name: String, _ type: T.Type) throws -> T {
        guard let value = try attribute(name, T.self) else {
            throw ResponseDecodingError(path: attributePath(name), reason: "missing required attribute")
        }
        return value
    }

    /// `value`, or an error saying the required child element `name` is missing.
    @inlinable
    public func required<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw missingElement(name) }
        return value
    }

    /// The error for a required child element `name` that is missing.
    @usableFromInline
    func missingElement(_ name: String) -> ResponseDecodingError {
        ResponseDecodingError(path: (path.isEmpty ? "" : path + "/") + name, reason: "missing required element")
    }

    /// Succeeds when the element is named `name`; decoders call it on the document element they start from.
    public func expectName(_ name: String) throws {
        guard self.name == name else {
            throw ResponseDecodingError(path: path, reason: "expected element <\(name)>, found <\(self.name)>")
        }
    }

    private func attributePath(_ name: String) -> String { path + "@" + name }

    /// The error for text at `span` that does not spell a `typeName`.
    @usableFromInline
    func mismatch(_ typeName: String, found span: XMLTree.Span, at path: String) -> ResponseDecodingError {
        ResponseDecodingError(
            path: path, reason: "expected \(typeName), found \(ResponseDecodingError.quote(tree.string(span)))")
    }
}
