/// Values a generated encoder takes from the call rather than from the request model.
///
/// Schemas bind some fields to the call's context (`"bind": "signingTime"`) and mark some elements as signatures
/// over a sibling (`"signs": "content"`). The generated client fills this context from the credentials its auth
/// policy requires and from its clock; the generated writer reads it.
@_spi(Generated) public struct EncodingContext: Sendable {
    /// Bound values by name, already in their wire spelling.
    public var values: [String: String]
    /// Computes the text of a signature element from the exact bytes of the region it signs.
    public var signer: (@Sendable ([UInt8]) -> String)?

    /// Creates a context.
    public init(values: [String: String] = [:], signer: (@Sendable ([UInt8]) -> String)? = nil) {
        self.values = values
        self.signer = signer
    }

    /// An empty context, for requests that bind nothing.
    public static let empty = EncodingContext()

    /// The bound value called `name`.
    ///
    /// - Throws: `RequestEncodingError.missingContextValue(_:)` when the client did not supply it.
    public func value(_ name: String) throws -> String {
        guard let value = values[name] else { throw RequestEncodingError.missingContextValue(name) }
        return value
    }

    /// The signature over `region`.
    ///
    /// - Throws: `RequestEncodingError.missingSigner` when the client supplied no signer.
    public func signature(of region: [UInt8]) throws -> String {
        guard let signer else { throw RequestEncodingError.missingSigner }
        return signer(region)
    }

    /// A copy with `value` bound to `name`.
    public func binding(_ name: String, to value: String) -> EncodingContext {
        var copy = self
        copy.values[name] = value
        return copy
    }
}
