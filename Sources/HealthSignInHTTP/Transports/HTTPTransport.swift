/// Sends one HTTP request and returns the complete response.
///
/// This is the only thing the generated clients need from the network, so it is the place to plug in a different
/// HTTP stack, a proxy for tests, or instrumentation.
///
/// Choose an implementation:
/// - ``DefaultHTTPTransport`` for apps and servers (the default): ``CurlHTTPTransport`` on Linux,
///   ``URLSessionHTTPTransport`` on Apple platforms.
/// - `RecordingTransport` (in `HealthSignInTesting`) for tests: it records each request and answers from a closure.
/// - `AsyncHTTPClientTransport` (the `HealthSignInAsyncHTTPClient` package) for servers that run AsyncHTTPClient.
///
/// Implementations must (`HTTPTransportConformance`, in `HealthSignInTesting`, checks a transport of your own):
/// - return every HTTP status as a response (a 401 or 503 is not an error at this layer), never answering an
///   authentication challenge themselves;
/// - end each exchange by the request's timeout and size limit, leaving no work for it behind; treat an infinite
///   timeout as none and refuse a NaN, zero or negative one with ``ConfigurationError/invalidTimeout(_:)``;
/// - throw ``TransportError`` for failures below HTTP (no connection, timeout, reset), and `CancellationError`
///   when the calling task is cancelled;
/// - not follow redirects, so credentials never travel to a host the SDK did not choose.
///
/// ```swift
/// struct LoggingTransport: HTTPTransport {
///     let base: any HTTPTransport
///     func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
///         print(request)                       // credentials are redacted by HTTPRequestMessage.description
///         return try await base.send(request)
///     }
/// }
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage
}
