/// A response arrived but did not have the shape its schema describes.
///
/// The path points at the offending value: `response-results/person-info[3]/record@rel-type` for XML (`@` marks
/// an attribute), `issue[0]/type/code` for JSON.
public struct ResponseDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the document the problem is; empty for the document as a whole.
    public let path: String
    /// What was expected and what was found.
    public let reason: String
    /// The bound of ``XMLLimits`` the document went beyond, or nil when it is malformed or of the wrong shape.
    public let exceededLimit: XMLLimits.Limit?

    /// Creates an error.
    public init(path: String, reason: String, exceededLimit: XMLLimits.Limit? = nil) {
        self.path = path
        self.reason = reason
        self.exceededLimit = exceededLimit
    }

    /// `path: reason`, or just the reason for the whole document.
    public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }

    /// `found` quoted and shortened for a message, so a long or sensitive value is never echoed whole.
    static func quote(_ found: String) -> String {
        let limit = 40
        let shown = found.count > limit ? String(found.prefix(limit)) + "…" : found
        return "\"" + shown + "\""
    }
}

extension ResponseDecodingError: SDKError {
    /// `ErrorRecovery.none`: the server's answer could not be read, which no retry or new sign-in fixes.
    public var recovery: ErrorRecovery { .none }
}
