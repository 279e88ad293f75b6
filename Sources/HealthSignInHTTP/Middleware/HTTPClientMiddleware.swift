import Foundation

/// Which protocol method a request is for: its family and method, e.g. `Vital.RefreshToken`.
///
/// Middlewares use it to tell calls apart, for example a token refresh from a data call.
public struct OperationID: Sendable, Hashable, CustomStringConvertible {
    /// The family, e.g. `Vital`.
    public let family: String
    /// The method, e.g. `RefreshToken`.
    public let method: String

    /// The operation `method` of `family`.
    public init(family: String, method: String) {
        self.family = family
        self.method = method
    }

    /// `Family.Method`
    public var description: String { family + "." + method }
}

/// A step every request of a client passes through on its way to the transport: logging, custom headers, metrics,
/// retries. Set the steps in `ClientOptions.middlewares`; the first one sees the request first and the response
/// last.
///
/// ```swift
/// struct Tagging: HTTPClientMiddleware {
///     func intercept(
///         _ request: HTTPRequestMessage, operation: OperationID,
///         next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
///     ) async throws -> HTTPResponseMessage {
///         var request = request
///         request.headers["X-Request-Source"] = "MyApp"
///         return try await next(request)
///     }
/// }
/// ```
///
/// A middleware sees requests with their credentials: their `description` redacts them, but a middleware that
/// copies headers or bodies elsewhere must not copy those. The ``URLPolicy`` is checked again after the last
/// middleware, so none can send a request to a URL the policy refuses.
public protocol HTTPClientMiddleware: Sendable {
    /// Handles `request` for `operation`: calls `next` to send it on (any number of times, for a retry) or answers
    /// by itself.
    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage
}
