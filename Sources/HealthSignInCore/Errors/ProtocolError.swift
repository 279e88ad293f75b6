/// An error answer that a protocol defines: an HTTP status and what a caller should do about it.
///
/// Every generated error type conforms (`OAuthError`, `HealthVaultError`, `VitalError`, …), and so does
/// ``UnexpectedResponseError``. The credential lifecycle classifies failures by ``recovery`` rather than by raw
/// codes, so a code added to a family's schema table teaches every flow how to react to it.
public protocol ProtocolError: SDKError {
    /// The HTTP status of the response that carried the error.
    var httpStatus: Int { get }
    /// What a caller should do about the error.
    var recovery: ErrorRecovery { get }
}

extension ProtocolError {
    /// Whether the status itself says the server refused the request (4xx). An OAuth error code that would end a
    /// grant proves it dead only then: the same body behind a 5xx comes from a server or proxy in trouble.
    public var isClientErrorStatus: Bool { (400..<500).contains(httpStatus) }
}

extension UnexpectedResponseError: ProtocolError {
    /// The HTTP status.
    public var httpStatus: Int { response.status }

    /// What the status alone says: a 401 without a `Bearer` challenge naming another error is an expired or
    /// refused access token (RFC 6750 §3.1); 408, 425, 429 and 5xx are temporary; anything else needs a person.
    public var recovery: ErrorRecovery {
        if status == 401, [nil, "invalid_token"].contains(response.bearerError) { return .refreshCredential }
        return isTransient ? .retryLater : .none
    }
}
