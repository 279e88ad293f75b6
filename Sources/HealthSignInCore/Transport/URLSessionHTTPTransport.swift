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
/// down to whole seconds (and fails at once for anything under one second). So is the size of a response: the body
/// is received as it streams, and a response whose `Content-Length` or bytes go beyond the request's
/// ``HTTPRequestMessage/maximumResponseSize`` (or ``Configuration/maximumResponseSize``) is cancelled there and ends
/// with a ``TransportError`` of kind ``TransportError/Kind/responseTooLarge``, however much more the server sends.
public final class URLSessionHTTPTransport: HTTPTransport, Sendable {
    /// How the transport is set up.
    public struct Configuration: Sendable {
        /// The timeout for requests that do not set their own.
        public var timeout: TimeInterval
        /// Whether responses may be served from or stored in `URLCache`. Off by default: token responses must not
        /// be cached.
        public var allowsCaching: Bool
        /// The most bytes of body a response may have, for requests that do not set their own.
        public var maximumResponseSize: Int

        /// Creates a configuration.
        public init(
            timeout: TimeInterval = 30, allowsCaching: Bool = false,
            maximumResponseSize: Int = ClientOptions.defaultMaximumResponseSize
        ) {
            self.timeout = timeout
            self.allowsCaching = allowsCaching
            self.maximumResponseSize = maximumResponseSize
        }
    }

    private let session: URLSession
    private let delegate: URLSessionHTTPTransportDelegate
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
        delegate: URLSessionHTTPTransportDelegate = URLSessionHTTPTransportDelegate()
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
        self.delegate = delegate
        ownsSession = true
    }

    /// Creates a transport that sends with `session`, which the caller keeps and invalidates.
    ///
    /// - Throws: ``ConfigurationError/redirectsFollowed`` unless the session's delegate is a
    ///   ``URLSessionHTTPTransportDelegate`` (or a subclass), which refuses redirects: a session that follows them would
    ///   replay credentials to whatever host a response names.
    public init(session: URLSession, configuration: Configuration = .init()) throws(ConfigurationError) {
        guard let delegate = session.delegate as? URLSessionHTTPTransportDelegate else { throw .redirectsFollowed }
        self.configuration = configuration
        self.session = session
        self.delegate = delegate
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

        let receiver = ResponseReceiver(
            url: request.url, limit: request.maximumResponseSize ?? configuration.maximumResponseSize)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPResponseMessage, any Error>) in
                let task = session.dataTask(with: urlRequest)
                receiver.start(task, continuation: continuation)
                delegate.register(receiver, for: task)
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { receiver.timeOut() }
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            receiver.cancel()
        }
    }

    static func result(for url: URL, data: Data, response: URLResponse?, error: (any Error)?)
        -> Result<HTTPResponseMessage, any Error>
    {
        if let error {
            if let urlError = error as? URLError, urlError.code == .cancelled { return .failure(CancellationError()) }
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
        return .success(HTTPResponseMessage(status: http.statusCode, headers: headers, body: data))
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

/// The delegate of a ``URLSessionHTTPTransport``'s session: it turns every redirect into a plain response, so
/// credentials never follow a redirect to another host, and receives each response's body as it streams, so a
/// response can be stopped at its size limit.
///
/// Subclass it to answer authentication challenges (certificate pinning, client certificates); the redirect
/// refusal and the body's reception cannot be overridden.
open class URLSessionHTTPTransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: its one piece of state is a LockedValue; subclasses that add some make it safe themselves.
    private let receivers = LockedValue<[ObjectIdentifier: ResponseReceiver]>([:])

    /// Creates a delegate.
    public override init() { super.init() }

    /// Sends what `task` receives to `receiver` until the task completes.
    func register(_ receiver: ResponseReceiver, for task: URLSessionTask) {
        receivers.withValue { $0[ObjectIdentifier(task)] = receiver }
    }

    /// Stops a response whose announced length is over its limit before any of its body arrives.
    public final func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = receivers.current[ObjectIdentifier(dataTask)]?.accepts(response.expectedContentLength) ?? true
        completionHandler(accepted ? .allow : .cancel)
    }

    /// Adds a piece of the body, or stops the response once it goes over its limit.
    public final func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        receivers.current[ObjectIdentifier(dataTask)]?.received(data)
    }

    /// Ends the exchange: the response, or why there is none.
    public final func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?)
    {
        let receiver = receivers.withValue { $0.removeValue(forKey: ObjectIdentifier(task)) }
        receiver?.complete(response: task.response, error: error)
    }

    /// Refuses the redirect: the 3xx response is returned as it is.
    public final func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// One exchange of a ``URLSessionHTTPTransport``: its body as it streams in, bounded by its limit, and how it ends (the
/// response, the transport's own timeout or size limit, or the caller's cancellation).
final class ResponseReceiver: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `lock` is held.
    private let lock = Lock()
    private let url: URL
    private let limit: Int
    private var body = Data()
    private var task: URLSessionTask?
    private var continuation: CheckedContinuation<HTTPResponseMessage, any Error>?
    /// Why the transport itself ended the exchange, once it did.
    private var ending: TransportError?

    init(url: URL, limit: Int) {
        self.url = url
        self.limit = max(limit, 0)
    }

    func start(_ task: URLSessionTask, continuation: CheckedContinuation<HTTPResponseMessage, any Error>) {
        lock.withLock {
            self.task = task
            self.continuation = continuation
        }
    }

    /// Whether a response that announced `length` bytes (-1 when it did not say) may go on; one over the limit
    /// ends the exchange.
    func accepts(_ length: Int64) -> Bool {
        guard length > Int64(limit) else { return true }
        end(.responseTooLarge, "the response announces \(length) bytes, over the limit of \(limit)")
        return false
    }

    /// A piece of the body.
    func received(_ data: Data) {
        let over = lock.withLock { () -> Bool in
            guard ending == nil else { return false }
            guard body.count + data.count <= limit else { return true }
            body.append(data)
            return false
        }
        if over { end(.responseTooLarge, "the response went over the limit of \(limit) bytes") }
    }

    func timeOut() { end(.timedOut, "no response within the timeout") }

    /// The caller's task was cancelled.
    func cancel() { lock.withLock { task }?.cancel() }

    /// Ends the exchange for `kind`, unless it has already ended, and stops the request.
    private func end(_ kind: TransportError.Kind, _ detail: String) {
        let task = lock.withLock { () -> URLSessionTask? in
            guard continuation != nil, ending == nil else { return nil }
            ending = TransportError(kind, url: url, detail: detail)
            body = Data()
            return self.task
        }
        if let task { DispatchQueue.global().async { task.cancel() } }
    }

    func complete(response: URLResponse?, error: (any Error)?) {
        let (continuation, ending, body) = lock.withLock {
            defer { self.continuation = nil }
            return (self.continuation, self.ending, self.body)
        }
        guard let continuation else { return }
        if let ending { return continuation.resume(throwing: ending) }
        continuation.resume(
            with: URLSessionHTTPTransport.result(for: url, data: body, response: response, error: error))
    }
}
