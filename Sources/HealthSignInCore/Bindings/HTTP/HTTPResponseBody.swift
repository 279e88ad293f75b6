import Foundation

/// Reads a successful response body as the method's schema declares it.
@_spi(Generated) public enum HTTPResponseBody {
    /// Decodes a JSON body.
    ///
    /// - Throws: ``UnexpectedResponseError`` when the body is not JSON at all (an HTML page, say), or
    ///   ``ResponseDecodingError`` when it is JSON of the wrong shape.
    public static func json<T: Decodable>(_ type: T.Type, from response: HTTPResponseMessage, operation: String) throws
        -> T
    {
        guard looksLikeJSON(response.body) else {
            throw UnexpectedResponseError(operation: operation, response: response, reason: "the body is not JSON")
        }
        return try JSONCoding.decode(T.self, from: response.body)
    }

    /// Decodes a body that may be JSON or XML, choosing by `Content-Type` and, when that is missing or generic, by
    /// the first character of the body.
    ///
    /// - Parameters:
    ///   - type: the model to decode.
    ///   - response: the response whose body it is.
    ///   - rootElements: the local names the XML document element may have.
    ///   - operation: the method's name, for errors.
    public static func jsonOrXML<T: Decodable & XMLDecodable>(
        _ type: T.Type, from response: HTTPResponseMessage, rootElements: [String], operation: String
    ) throws -> T {
        if isXML(response) { return try xml(T.self, from: response, rootElements: rootElements) }
        return try json(T.self, from: response, operation: operation)
    }

    /// Decodes an XML body whose document element has one of the local names `rootElements`.
    public static func xml<T: XMLDecodable>(_ type: T.Type, from response: HTTPResponseMessage, rootElements: [String])
        throws
        -> T
    {
        let root = try XMLTree.parse(response.body).root
        guard rootElements.contains(where: root.isNamed) else {
            let expected = rootElements.map { "<\($0)>" }.joined(separator: " or ")
            throw ResponseDecodingError(path: root.path, reason: "expected element \(expected), found <\(root.name)>")
        }
        return try T(xml: root)
    }

    /// Whether the body is XML: an XML media type, or a body that starts with `<` under a generic or missing one
    /// (an HTML page is not XML).
    public static func isXML(_ response: HTTPResponseMessage) -> Bool {
        if let type = response.mediaType {
            if type.hasSuffix("xml") || type.contains("xml+") { return true }
            if type == "text/html" || type.contains("json") { return false }
        }
        return firstSignificantByte(response.body) == UInt8(ascii: "<")
    }

    /// Whether the body starts like JSON (`{` or `[` after whitespace).
    public static func looksLikeJSON(_ body: Data) -> Bool {
        let first = firstSignificantByte(body)
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    private static func firstSignificantByte(_ body: Data) -> UInt8? {
        var bytes = body.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        // A UTF-8 byte order mark is not significant either.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first
    }
}
