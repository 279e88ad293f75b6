import HealthSignInHTTP
import HealthSignInLogging
import Logging
import Vapor

/// Runs each request's handling with the SDK in Vapor's terms: the SDK's log lines go to the request's logger, and an
/// SDK error a handler throws is answered by its recovery.
///
/// - The rest of the chain runs within `SwiftLogSink.withRequestLogger(_:_:)`, so every line a `SwiftLogSink` writes
///   meanwhile goes to `request.logger`: with its level, and its metadata, Vapor's `request-id` among them. It is the
///   logger as the middleware finds it: use the middleware after those that add metadata of their own to it.
/// - An error that is the SDK's is thrown on as an ``SDKAbortError`` (500, 502, 503 with `Retry-After`, or 504, with
///   the SDK's sentence for the status as the reason), after its whole description is logged once on
///   `request.logger`: as a warning for a 503 or a 504, which pass, as an error otherwise. Any other error, an
///   ``SDKAbortError`` a handler made itself among them, is thrown on unchanged.
///
/// Use it after Vapor's `ErrorMiddleware` (as `app.middleware.use` places it), which turns the abort error into the
/// response; the handlers then throw the SDK's errors as they are:
///
/// ```swift
/// app.middleware.use(HealthSignInMiddleware())
/// app.post("sign-in-token") { request async throws -> [String: String] in
///     let user = try request.auth.require(AppUser.self)
///     let grant = try await vital.signInToken(forClientUserID: user.id)
///     return ["sign_in_token": grant.signInToken]
/// }
/// ```
///
/// The line logged for an SDK error carries `healthsignin.status` and `healthsignin.recovery` as metadata.
public struct HealthSignInMiddleware: AsyncMiddleware {
    /// The seconds a 503 asks the caller to wait.
    public let retryAfter: Int

    /// A middleware whose 503 answers ask the caller to wait `retryAfter` seconds.
    public init(retryAfter: Int = 5) {
        self.retryAfter = retryAfter
    }

    /// Runs the rest of the chain with the request's logger as the SDK's, and answers an SDK error it throws.
    ///
    /// - Throws: an ``SDKAbortError`` for an SDK error; any other error unchanged.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await SwiftLogSink.withRequestLogger(request.logger) {
                try await next.respond(to: request)
            }
        } catch {
            guard let abort = SDKAbortError(error, retryAfter: retryAfter) else { throw error }
            let level: Logger.Level = [503, 504].contains(abort.response.status) ? .warning : .error
            request.logger.log(
                level: level, "\(abort)",
                metadata: [
                    "healthsignin.status": .stringConvertible(abort.response.status),
                    "healthsignin.recovery": .string(abort.response.recovery.rawValue),
                ])
            throw abort
        }
    }
}
