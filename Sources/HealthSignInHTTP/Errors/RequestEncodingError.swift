/// A request could not be put on the wire.
public enum RequestEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value holds a control character that XML 1.0 cannot carry in any form.
    case invalidXMLCharacter(codePoint: Int)
    /// A value the schema binds from the call's context (for example a signing time) was not supplied.
    case missingContextValue(String)
    /// A signed region was requested, but the call's context has no signer.
    case missingSigner
    /// A path parameter or server URL produced an invalid URL.
    case invalidURL(String)
    /// A credential cannot be used as given, e.g. a shared secret that is not Base64 (the value is never included).
    case invalidCredential(String)
    /// A header field's name is not an RFC 9110 token, or its value holds CR, LF, NUL or another control character
    /// but tab: sent, it could end the header and smuggle in others. The field's name (never its value).
    case invalidHeaderField(String)

    /// A one-line explanation naming what was wrong.
    public var description: String {
        switch self {
        case .invalidXMLCharacter(let codePoint):
            return
                "A value holds the control character U+\(String(codePoint, radix: 16, uppercase: true)), which XML cannot carry"
        case .missingContextValue(let name):
            return "The request needs the context value '\(name)', which the client did not supply"
        case .missingSigner:
            return "The request has a signed region, but no signing key was supplied"
        case .invalidURL(let detail):
            return "Could not build the request URL: \(detail)"
        case .invalidCredential(let detail):
            return "Invalid credential: \(detail)"
        case .invalidHeaderField(let name):
            return "The header field '\(name)' has a name or value HTTP cannot carry (RFC 9110 §5); nothing was sent"
        }
    }
}

extension RequestEncodingError: SDKError {
    /// ``ErrorRecovery/reconfigure`` for an unusable credential, ``ErrorRecovery/fixRequest`` for the rest.
    public var recovery: ErrorRecovery {
        if case .invalidCredential = self { return .reconfigure }
        return .fixRequest
    }
}
