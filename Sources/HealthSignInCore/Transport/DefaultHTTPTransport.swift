import Foundation

/// The transport the SDK uses when none is given: ``SocketHTTPTransport`` on Linux and ``URLSessionHTTPTransport``
/// on Apple platforms.
///
/// Both bound every exchange by its timeout and its size limit, refuse redirects, keep no cookies or credentials,
/// and return a 401 as a response. Each platform gets the one that can keep those promises there: Apple's
/// `URLSession` stops a response as soon as it is cancelled, while libcurl, under `URLSession` on Linux, decodes a
/// compressed body to its end whatever happens to the task.
///
/// `DefaultHTTPTransport()` shares one transport within the process, so its connections and TLS settings are made
/// once.
public struct DefaultHTTPTransport: HTTPTransport {
    private let base: any HTTPTransport

    /// The process's shared default transport: a 30-second timeout and
    /// ``ClientOptions/defaultMaximumResponseSize``, for requests that do not set their own.
    public init() { base = Self.shared }

    /// A transport of its own with these defaults for requests that do not set their own.
    public init(timeout: TimeInterval, maximumResponseSize: Int = ClientOptions.defaultMaximumResponseSize) {
        base = Self.make(timeout: timeout, maximumResponseSize: maximumResponseSize)
    }

    /// Sends `request` with the platform's transport.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        try await base.send(request)
    }

    private static let shared = make(timeout: 30, maximumResponseSize: ClientOptions.defaultMaximumResponseSize)

    private static func make(timeout: TimeInterval, maximumResponseSize: Int) -> any HTTPTransport {
        #if canImport(HealthSignInLibcurl)
            CurlHTTPTransport(configuration: .init(timeout: timeout, maximumResponseSize: maximumResponseSize))
        #else
            URLSessionHTTPTransport(configuration: .init(timeout: timeout, maximumResponseSize: maximumResponseSize))
        #endif
    }
}
