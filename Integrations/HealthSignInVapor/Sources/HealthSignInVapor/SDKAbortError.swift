import HealthSignInHTTP
import Vapor

/// An SDK error as Vapor's answer: the status, `Retry-After` and message of its `SDKErrorResponse`, chosen by the
/// error's recovery (503 with `Retry-After` for an upstream that is down for now, 504 for one that did not answer in
/// time, 500 for this server's configuration, 502 for what the upstream refused).
///
/// The ``reason`` Vapor's `ErrorMiddleware` puts in the body is the SDK's sentence for the status, never the error's
/// description, which names hosts and operations: that belongs in the server's log, where ``HealthSignInMiddleware``
/// writes it. Handlers behind the middleware throw the SDK's errors as they are; make one of these only to answer an
/// SDK error without the middleware.
public struct SDKAbortError: AbortError, CustomStringConvertible {
    /// The SDK's error.
    public let error: any SDKError
    /// The answer the SDK chose for it.
    public let response: SDKErrorResponse

    /// The answer to `error`, or nil for an error that is not the SDK's (Vapor answers it as usual).
    ///
    /// - Parameters:
    ///   - error: what an SDK call threw.
    ///   - retryAfter: the seconds a 503 asks the caller to wait.
    public init?(_ error: any Error, retryAfter: Int = 5) {
        guard let sdkError = error as? any SDKError, let response = SDKErrorResponse(sdkError, retryAfter: retryAfter)
        else {
            return nil
        }
        self.error = sdkError
        self.response = response
    }

    /// The response's status: 500, 502, 503 or 504.
    public var status: HTTPResponseStatus { HTTPResponseStatus(statusCode: response.status) }

    /// `Retry-After` for a 503, none otherwise.
    public var headers: HTTPHeaders {
        guard let seconds = response.retryAfter else { return [:] }
        return ["Retry-After": String(seconds)]
    }

    /// The SDK's sentence for the status, which tells the caller nothing of the upstream.
    public var reason: String { response.message }

    /// The status and the SDK error's description, for the server's log.
    public var description: String { "HTTP \(response.status) for \(error)" }
}
