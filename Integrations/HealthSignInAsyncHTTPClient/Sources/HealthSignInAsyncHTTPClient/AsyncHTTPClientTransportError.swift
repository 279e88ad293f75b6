import HealthSignInHTTP

/// Once thrown when an `HTTPClient` followed redirects or decompressed bodies; ``AsyncHTTPClientTransport`` now keeps
/// its contract over any client, and never throws it.
@available(*, deprecated, message: "AsyncHTTPClientTransport takes any HTTPClient and never throws this")
public enum AsyncHTTPClientTransportError: Error, Hashable, SDKError {
    /// The client follows redirects, which could carry credentials to a host the SDK did not choose.
    case clientFollowsRedirects
    /// The client decompresses bodies, so a small compressed body could grow past the response size limit.
    case clientDecompresses
    /// The client's settings could not be read, so neither could be ruled out.
    case clientSettingsUnreadable

    /// A one-line explanation with the fix.
    public var description: String {
        let fix =
            "make the client with configuration: AsyncHTTPClientTransport.clientConfiguration(), "
            + "which sets redirectConfiguration .disallow and decompression .disabled"
        switch self {
        case .clientFollowsRedirects:
            return "The HTTPClient follows redirects, which could carry credentials to another host; \(fix)"
        case .clientDecompresses:
            return "The HTTPClient decompresses bodies, past the response size limit; \(fix)"
        case .clientSettingsUnreadable:
            return "The HTTPClient's redirect and decompression settings could not be read; \(fix)"
        }
    }

    /// `ErrorRecovery.reconfigure`: a client made differently works.
    public var recovery: ErrorRecovery { .reconfigure }
}
