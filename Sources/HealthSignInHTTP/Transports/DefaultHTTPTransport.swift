import Foundation

/// The transport the SDK uses when none is given: ``CurlHTTPTransport`` on Linux and ``URLSessionHTTPTransport`` on
/// Apple platforms.
///
/// Both bound every exchange by its timeout and its size limit, refuse redirects, keep no cookies or credentials,
/// and return a 401 as a response. Each platform gets the one that can keep those promises there: Apple's
/// `URLSession` stops a response as soon as it is cancelled, while `URLSession` on Linux decodes a compressed body to
/// its end whatever happens to the task, so there the SDK drives libcurl itself.
///
/// `DefaultHTTPTransport()` shares one transport within the process, so its connections and TLS settings are made
/// once, and its connections are reused.
public struct DefaultHTTPTransport: HTTPTransport {
    private let base: any HTTPTransport

    /// The process's shared default transport: a 30-second timeout and
    /// `ClientOptions.defaultMaximumResponseSize`, for requests that do not set their own.
    public init() { base = Self.shared }

    /// A transport of its own with these defaults for requests that do not set their own.
    ///
    /// - Parameters:
    ///   - timeout: The whole exchange's timeout, from name resolution to the body's last byte; `.infinity` means
    ///     none. A NaN or a value that is not positive fails each request with ``ConfigurationError/invalidTimeout(_:)``.
    ///   - maximumResponseSize: The most bytes of body a response may have.
    ///   - additionalCertificateAuthorities: A PEM file of certificate authorities trusted besides the system's, such
    ///     as a company's own. When it cannot be read, every `https` request fails with
    ///     ``TransportError/Kind/insecureConnection``.
    public init(
        timeout: TimeInterval, maximumResponseSize: Int = HTTPResponseMessage.defaultMaximumBodySize,
        additionalCertificateAuthorities: URL? = nil
    ) {
        base = Self.make(
            timeout: timeout, maximumResponseSize: maximumResponseSize, authorities: additionalCertificateAuthorities)
    }

    /// Sends `request` with the platform's transport.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        try await base.send(request)
    }

    private static let shared = make(
        timeout: 30, maximumResponseSize: HTTPResponseMessage.defaultMaximumBodySize, authorities: nil)

    private static func make(timeout: TimeInterval, maximumResponseSize: Int, authorities: URL?) -> any HTTPTransport {
        #if canImport(HealthSignInLibcurl)
            CurlHTTPTransport(
                configuration: .init(
                    timeout: timeout, maximumResponseSize: maximumResponseSize,
                    additionalCertificateAuthorities: authorities))
        #else
            let configuration = URLSessionHTTPTransport.Configuration(
                timeout: timeout, maximumResponseSize: maximumResponseSize)
            #if canImport(Security)
                if let authorities {
                    return URLSessionHTTPTransport(
                        configuration: configuration, delegate: AuthorityTrustingDelegate(authorities: authorities))
                }
            #endif
            return URLSessionHTTPTransport(configuration: configuration)
        #endif
    }
}
