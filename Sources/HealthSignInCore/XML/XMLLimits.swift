/// Bounds on the XML documents the SDK reads, so that a hostile or broken server cannot make the reader use
/// unbounded memory or time. A document beyond one is refused with a ``ResponseDecodingError`` whose
/// ``ResponseDecodingError/exceededLimit`` names it.
///
/// The defaults leave ample room for every response of the protocols, including a HealthVault `GetThings` of many
/// things.
public struct XMLLimits: Sendable, Hashable {
    /// One of the bounds.
    public enum Limit: String, Sendable, Hashable, CaseIterable {
        /// The document's size in bytes.
        case documentSize
        /// How deeply elements nest.
        case depth
        /// How many attributes one start tag has (namespace declarations not counted).
        case attributesPerElement
        /// How many namespace declarations (`xmlns`, `xmlns:prefix`) the whole document has.
        case namespaceDeclarations
    }

    /// The largest document read, in bytes (default 32 MiB).
    public var maximumDocumentBytes: Int
    /// The deepest nesting of elements (default 512).
    public var maximumDepth: Int
    /// The most attributes on one element (default 1,024).
    public var maximumAttributesPerElement: Int
    /// The most namespace declarations in one document (default 1,024).
    public var maximumNamespaceDeclarations: Int

    /// Limits with the given bounds; each defaults to the value of ``default``.
    public init(
        maximumDocumentBytes: Int = 32 << 20, maximumDepth: Int = 512, maximumAttributesPerElement: Int = 1024,
        maximumNamespaceDeclarations: Int = 1024
    ) {
        self.maximumDocumentBytes = maximumDocumentBytes
        self.maximumDepth = maximumDepth
        self.maximumAttributesPerElement = maximumAttributesPerElement
        self.maximumNamespaceDeclarations = maximumNamespaceDeclarations
    }

    /// The limits every generated client and flow reads responses with.
    public static let `default` = XMLLimits()

    /// The bound for `limit`.
    public subscript(limit: Limit) -> Int {
        switch limit {
        case .documentSize: return maximumDocumentBytes
        case .depth: return maximumDepth
        case .attributesPerElement: return maximumAttributesPerElement
        case .namespaceDeclarations: return maximumNamespaceDeclarations
        }
    }
}
