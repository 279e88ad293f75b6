import Foundation

/// A parsed HealthVault response: `<response><status><code>…</code>…</status><wc:info …>…</wc:info></response>`.
///
/// Elements are matched by local name, never by prefix, since the server chooses prefixes.
@_spi(Generated) public struct HealthVaultResponseEnvelope {
    /// The `<status>` element.
    public let status: XMLElementView
    /// The number in `<status><code>`; 0 means success.
    public let statusCode: Int
    private let root: XMLElementView

    /// Parses a response body.
    ///
    /// - Throws: ``ResponseDecodingError`` when the body is not XML, its root is not `<response>`, or the status
    ///   code is missing or not a number.
    public init(body: Data) throws {
        let root = try XMLTree.parse(body).root
        try root.expectName("response")
        let status = try root.required(root.child("status"), "status")
        let code = try status.required(status.child("code"), "code")
        self.root = root
        self.status = status.asDecodingRoot
        self.statusCode = try code.scalar(Int.self)
    }

    /// The `info` element as the root of further decoding, after checking its namespace.
    ///
    /// - Parameter namespace: the method's response namespace, e.g.
    ///   `urn:com.microsoft.wc.methods.response.CreateAuthenticatedSessionToken2`.
    /// - Throws: ``ResponseDecodingError`` when the element is missing or in another namespace (a version mismatch).
    public func info(namespace: String) throws -> XMLElementView {
        let info = try root.required(root.child("info"), "info")
        guard info.namespaceURI == namespace else {
            let found = info.namespaceURI.map { "'\($0)'" } ?? "no namespace"
            throw ResponseDecodingError(path: "info", reason: "expected namespace '\(namespace)', found \(found)")
        }
        return info.asDecodingRoot
    }
}
