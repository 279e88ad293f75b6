import HealthSignInHTTP
import HealthSignInLogging
import Hummingbird
import Logging

/// A router middleware for the routes that call the SDK:
/// - the SDK's log lines written while a request is handled go to the request's logger (`context.logger`), so they
///   carry its `hb.request.id` (see `SwiftLogSink.withRequestLogger(_:_:)`);
/// - an SDK error a handler throws becomes an ``SDKResponseError`` (503 with `Retry-After` when the upstream is down
///   for now, 504 for a timeout, 502 when it refused, 500 for the server's own configuration), and its description
///   is logged once on the request's logger. Other errors pass through as they are.
///
/// ```swift
/// let router = Router()
/// router.add(middleware: HealthSignInMiddleware())
/// ```
public struct HealthSignInMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The seconds a 503 asks the caller to wait.
    public let retryAfter: Int

    /// A middleware whose 503 responses ask the caller to wait `retryAfter` seconds.
    public init(retryAfter: Int = 5) {
        self.retryAfter = retryAfter
    }

    /// Handles the request with its logger as the SDK's, answering an SDK error with its response.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await SwiftLogSink.withRequestLogger(context.logger) { try await next(request, context) }
        } catch {
            guard let answer = SDKResponseError(error, retryAfter: retryAfter) else { throw error }
            let level: Logger.Level = answer.response.status >= 503 ? .warning : .error
            context.logger.log(level: level, "\(error)", metadata: ["hb.response.status": "\(answer.response.status)"])
            throw answer
        }
    }
}
