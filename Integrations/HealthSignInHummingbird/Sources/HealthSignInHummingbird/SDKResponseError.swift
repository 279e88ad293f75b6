import Foundation
import HealthSignInHTTP
import Hummingbird

/// An SDK error as Hummingbird answers it: the status, `Retry-After` and sentence of its `SDKErrorResponse`, in a
/// JSON body `{"error": <sentence>, "recovery": <recovery>}`. The error's own description names hosts and operations,
/// so it goes to the server's log (``HealthSignInMiddleware`` writes it there), never to the caller.
public struct SDKResponseError: HTTPResponseError {
    /// The response chosen for the error.
    public let response: SDKErrorResponse
    /// What the SDK threw.
    public let underlying: any Error

    /// The response for `error`, or nil for an error that is not the SDK's.
    ///
    /// - Parameters:
    ///   - error: what an SDK call threw.
    ///   - retryAfter: the seconds a 503 asks the caller to wait.
    public init?(_ error: any Error, retryAfter: Int = 5) {
        guard let response = SDKErrorResponse(error, retryAfter: retryAfter) else { return nil }
        self.response = response
        underlying = error
    }

    /// The response's status.
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: response.status) }

    /// The JSON body, with `Retry-After` for a 503.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let retryAfter = response.retryAfter { headers[.retryAfter] = String(retryAfter) }
        let body = try JSONEncoder().encode(["error": response.message, "recovery": response.recovery.rawValue])
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
