import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport, on `URLSession`, for Apple platforms and Linux alike.
///
/// It never follows redirects: a 3xx comes back as a response, so credentials are never replayed to another host
/// and protocols that must see the redirect (OAuth) can. Cancelling the calling task cancels the request.
///
/// The timeout is enforced by the transport itself, to the millisecond, because `URLSession` on Linux rounds it
/// down to whole seconds (and fails at once for anything under one second).
public final class URLSessionTransport: HTTPTransport, Sendable {
    /// How the transport is set up.
    public struct Configuration: Sendable {
        /// The timeout for requests that do not set their own.
        public var timeout: TimeInterval
        /// Whether responses may be served from or stored in `URLCache`. Off by default: token responses must not
        /// be cached.
        public var allowsCaching: Bool

        /// Creates a configuration.
        public init(timeout: TimeInterval = 30, allowsCaching: Bool = false) {
            self.timeout = timeout
            self.allowsCaching = allowsCaching
        }
    }

    private let session: URLSession
    private let configuration: Configuration
    /// Whether the transport made the session, and so invalidates it.
    private let ownsSession: Bool

    /// Creates a transport with its own `URLSession`, made from `sessionConfiguration` (an ephemeral one by
    /// default) and `delegate`.
    ///
    /// Whatever configuration is given, the session stores no cookies and no credentials, and caches nothing unless
    /// `configuration.allowsCaching`; everything else it sets (proxies, `waitsForConnectivity`, TLS versions,
    /// headers) is kept. A `delegate` subclass can answer authentication challenges, e.g. to pin certificates; it
    /// refuses redirects like its base class.
    public init(
        configuration: Configuration = .init(), sessionConfiguration: URLSessionConfiguration = .ephemeral,
        delegate: URLSessionTransportDelegate = URLSessionTransportDelegate()
    ) {
        self.configuration = configuration
        // A copy, so that the caller's configuration object is not changed.
        let sessionConfiguration = sessionConfiguration.copy() as? URLSessionConfiguration ?? .ephemeral
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCredentialStorage = nil
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        if !configuration.allowsCaching {
            sessionConfiguration.urlCache = nil
            sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        }
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
        ownsSession = true
    }

    /// Creates a transport that sends with `session`, which the caller keeps and invalidates.
    ///
    /// - Throws: ``ConfigurationError/redirectsFollowed`` unless the session's delegate is a
    ///   ``URLSessionTransportDelegate`` (or a subclass), which refuses redirects: a session that follows them would
    ///   replay credentials to whatever host a response names.
    public init(session: URLSession, configuration: Configuration = .init()) throws(ConfigurationError) {
        guard session.delegate is URLSessionTransportDelegate else { throw .redirectsFollowed }
        self.configuration = configuration
        self.session = session
        ownsSession = false
    }

    deinit {
        if ownsSession { session.finishTasksAndInvalidate() }
    }

    /// Sends `request`; see ``HTTPTransport`` for the contract.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        let timeout = request.timeout ?? configuration.timeout
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own timeout is only a backstop, set past the transport's deadline in whole seconds.
        urlRequest.timeoutInterval = (timeout + 1).rounded(.up)
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        if !configuration.allowsCaching { urlRequest.cachePolicy = .reloadIgnoringLocalCacheData }

        let taskBox = LockedValue<URLSessionDataTask?>(nil)
        // Whether the deadline passed before the response: then the cancellation it caused is a timeout.
        let timedOut = LockedValue(false)
        let finished = LockedValue(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPResponseMessage, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    finished.withValue { $0 = true }
                    continuation.resume(
                        with: Self.result(
                            for: request.url, data: data, response: response, error: error, timedOut: timedOut.current
                        ))
                }
                taskBox.withValue { $0 = task }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    guard !finished.current else { return }
                    timedOut.withValue { $0 = true }
                    taskBox.withValue { $0?.cancel() }
                }
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            taskBox.withValue { $0?.cancel() }
        }
    }

    private static func result(
        for url: URL, data: Data?, response: URLResponse?, error: (any Error)?, timedOut: Bool
    ) -> Result<HTTPResponseMessage, any Error> {
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled {
                return .failure(
                    timedOut
                        ? TransportError(.timedOut, url: url, detail: "no response within the timeout")
                        : CancellationError())
            }
            return .failure(transportError(for: url, error: error))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(TransportError(.other, url: url, detail: "the response was not an HTTP response"))
        }
        var headers = HTTPHeaderFields()
        // Sorted so that the header order of a response does not depend on dictionary iteration.
        let fields = http.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        for (name, value) in fields.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) { headers.add(name, value) }
        return .success(HTTPResponseMessage(status: http.statusCode, headers: headers, body: data ?? Data()))
    }

    private static func transportError(for url: URL, error: any Error) -> TransportError {
        guard let urlError = error as? URLError else {
            return TransportError(.other, url: url, detail: String(describing: type(of: error)))
        }
        let kind: TransportError.Kind
        switch urlError.code {
        case .timedOut: kind = .timedOut
        case .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .notConnectedToInternet, .internationalRoamingOff,
            .dataNotAllowed:
            kind = .cannotConnect
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            kind = .connectionLost
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            kind = .insecureConnection
        default: kind = .other
        }
        // The URLError's own description embeds the full URL (query included), so only its code is kept.
        return TransportError(kind, url: url, detail: "URLError code \(urlError.code.rawValue)")
    }
}

/// The delegate of a ``URLSessionTransport``'s session: it turns every redirect into a plain response, so
/// credentials never follow a redirect to another host.
///
/// Subclass it to answer authentication challenges (certificate pinning, client certificates); the redirect
/// refusal cannot be overridden.
open class URLSessionTransportDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // @unchecked: the class holds no state; subclasses that add some make it safe themselves.

    /// Creates a delegate.
    public override init() { super.init() }

    /// Refuses the redirect: the 3xx response is returned as it is.
    public final func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
