/// What a server built on the SDK answers its own caller when an SDK call fails, chosen by the error's
/// ``ErrorRecovery``: the one mapping that the server adapters (Hummingbird's `HTTPResponseError`, Vapor's
/// `AbortError`) share.
///
/// | Recovery | Status | Why |
/// |---|---|---|
/// | `retryLater` | 503 with `Retry-After` (504 for a timeout) | the upstream, or the server's store, is down for now |
/// | `reconfigure`, `fixRequest` | 500 | this server's configuration or code is wrong; its caller can do nothing |
/// | any other | 502 | the upstream refused what this server holds (a grant, a key) |
///
/// The ``message`` is the SDK's wording for the status, never the error's description: that names hosts and
/// operations, and belongs in the server's log.
public struct SDKErrorResponse: Sendable, Hashable {
    /// The HTTP status.
    public let status: Int
    /// The seconds for `Retry-After`, for a 503.
    public let retryAfter: Int?
    /// What the error asks of whoever handles it.
    public let recovery: ErrorRecovery
    /// A sentence for the caller.
    public let message: String

    /// The response for `error`, or nil for an error that is not the SDK's (the framework answers it as usual).
    ///
    /// - Parameters:
    ///   - error: what an SDK call threw.
    ///   - retryAfter: the seconds a 503 asks the caller to wait.
    public init?(_ error: any Error, retryAfter: Int = 5) {
        guard let error = error as? any SDKError else { return nil }
        recovery = error.recovery
        switch recovery {
        case .retryLater where (error as? TransportError)?.kind == .timedOut:
            (status, self.retryAfter) = (504, nil)
            message = "The upstream service did not answer in time."
        case .retryLater:
            (status, self.retryAfter) = (503, max(0, retryAfter))
            message = "The upstream service is unavailable; try again later."
        case .reconfigure, .fixRequest:
            (status, self.retryAfter) = (500, nil)
            message = "The server could not make its request to the upstream service."
        case .none, .refreshCredential, .reauthorize, .reprovision, .discardGrant:
            (status, self.retryAfter) = (502, nil)
            message = "The upstream service refused the server's request."
        }
    }
}
