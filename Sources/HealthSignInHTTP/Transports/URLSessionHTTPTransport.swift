import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport on `URLSession`: the default on Apple platforms (see ``DefaultHTTPTransport``), and on Linux the one
/// to choose for a proxy.
///
/// It never follows redirects: a 3xx comes back as a response, so credentials are never replayed to another host
/// and protocols that must see the redirect (OAuth) can. It never answers an HTTP authentication challenge (the SDK
/// sends its credentials itself), so a 401 comes back as a response at once. Cancelling the calling task cancels the
/// request.
///
/// The timeout is enforced by the transport itself, to the millisecond, because `URLSession` on Linux rounds it
/// down to whole seconds (and fails at once for anything under one second). So is the size of a response: the body
/// is received as it streams, and a response whose `Content-Length` or bytes go beyond the request's
/// ``HTTPRequestMessage/maximumResponseSize`` (or `Configuration.maximumResponseSize`) is cancelled there and ends
/// with a ``TransportError`` of kind ``TransportError/Kind/responseTooLarge``, however much more the server sends.
/// The call returns as soon as the timeout or the limit is reached.
///
/// Requests ask for `Accept-Encoding: identity` (unless they set the field themselves), which replaces the
/// `gzip, deflate, br` that `URLSession` would send, and a response in another content coding is refused with
/// ``TransportError/Kind/unrequestedEncoding``. On Apple platforms `URLSession` decodes a body as it streams, so a
/// refused or cancelled response costs no more work. On Linux, libcurl decodes whatever coding a server sends
/// before the SDK sees a byte, and goes on decoding after the call has returned: use ``CurlHTTPTransport`` (the
/// default there) when the servers are not all trusted.
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
            maximumResponseSize: Int = HTTPResponseMessage.defaultMaximumBodySize
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
        // A timeout that is not valid fails each request; the session's own is only a backstop.
        let deadline = try? TransportDeadline(configuration.timeout)
        sessionConfiguration.timeoutIntervalForRequest = deadline?.seconds ?? TransportDeadline.never
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
    ///
    /// - Throws: ``ConfigurationError/invalidTimeout(_:)`` for a timeout that is NaN or not positive,
    ///   ``RequestEncodingError`` for a URL with userinfo (nothing is sent), ``TransportError`` for what happened on
    ///   the way, `CancellationError` when the task is cancelled.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        let timeout = try TransportDeadline(request.timeout ?? configuration.timeout).seconds
        try request.checkNoUserinfo()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own timeout is only a backstop, set past the transport's deadline in whole seconds.
        urlRequest.timeoutInterval = ((timeout ?? TransportDeadline.never) + 1).rounded(.up)
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if request.headers["Accept-Encoding"] == nil {
            urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
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
                if let timeout {
                    // Weak: a call that has ended leaves nothing of its own to the timer.
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout * 1000))) {
                        [weak receiver] in receiver?.timeOut()
                    }
                }
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
/// Subclass it to answer TLS challenges (certificate pinning, client certificates) by overriding
/// ``urlSession(_:didReceive:completionHandler:)``; the redirect refusal, the refusal of HTTP authentication
/// challenges and the body's reception cannot be overridden.
open class URLSessionHTTPTransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: its one piece of state is a LockedValue; subclasses that add some make it safe themselves.
    private let receivers = LockedValue<[ObjectIdentifier: ResponseReceiver]>([:])

    /// Creates a delegate.
    public override init() { super.init() }

    /// Sends what `task` receives to `receiver` until the task completes.
    func register(_ receiver: ResponseReceiver, for task: URLSessionTask) {
        receivers.withValue { $0[ObjectIdentifier(task)] = receiver }
    }

    /// Stops a response whose announced length is over its limit, or whose body is in a content coding that was not
    /// asked for, before any of its body arrives.
    public final func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = receivers.current[ObjectIdentifier(dataTask)]?.accepts(response) ?? true
        completionHandler(accepted ? .allow : .cancel)
    }

    /// Answers a TLS challenge (the server's trust, a client certificate) with the system's default handling.
    ///
    /// Override it to pin certificates or present a client certificate. On Linux, `URLSession` asks no TLS
    /// challenges.
    open func urlSession(
        _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.performDefaultHandling, nil)
    }

    /// Passes TLS challenges to ``urlSession(_:didReceive:completionHandler:)`` and refuses every HTTP
    /// authentication challenge: the SDK sends its credentials itself, so a 401 is the server's answer, returned
    /// at once (left unanswered, `URLSession` on Linux would hold the request until it timed out).
    public final func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            return urlSession(session, didReceive: challenge, completionHandler: completionHandler)
        }
        receivers.current[ObjectIdentifier(task)]?.refusedChallenge()
        completionHandler(.rejectProtectionSpace, nil)
    }

    /// The challenges of HTTP authentication, as opposed to TLS's.
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodHTMLForm, NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

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
/// response, the transport's own timeout or size limit, or the caller's cancellation). The first ending answers the
/// caller at once and cancels the request.
final class ResponseReceiver: @unchecked Sendable {
    // @unchecked: every mutable property is read and written only while `lock` is held.
    private let lock = Lock()
    private let url: URL
    private let limit: Int
    private var body = Data()
    private var task: URLSessionTask?
    private var continuation: CheckedContinuation<HTTPResponseMessage, any Error>?
    /// Whether the exchange has ended (answered, or about to be).
    private var ended = false
    /// Whether an HTTP authentication challenge was refused, which `URLSession` on Linux reports as a cancellation
    /// although the response is complete.
    private var challengeRefused = false

    init(url: URL, limit: Int) {
        self.url = url
        self.limit = max(limit, 0)
    }

    func start(_ task: URLSessionTask, continuation: CheckedContinuation<HTTPResponseMessage, any Error>) {
        let ended = lock.withLock {
            self.task = task
            if !self.ended { self.continuation = continuation }
            return self.ended
        }
        if ended { continuation.resume(throwing: CancellationError()) }
    }

    /// Whether `response` may go on: one whose body is in a content coding other than `identity`, or that announces
    /// more bytes than the limit, ends the exchange.
    func accepts(_ response: URLResponse) -> Bool {
        let fields = (response as? HTTPURLResponse)?.allHeaderFields ?? [:]
        let encoding = fields.first { ($0.key as? String)?.caseInsensitiveEquals("Content-Encoding") == true }
        let codings = "\(encoding?.value ?? "")".split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        if let coding = codings.first {
            end(.unrequestedEncoding, "the body is in the content coding '\(coding)', and identity was asked for")
            return false
        }
        let length = response.expectedContentLength
        guard length > Int64(limit) else { return true }
        end(.responseTooLarge, "the response announces \(length) bytes, over the limit of \(limit)")
        return false
    }

    /// A piece of the body.
    func received(_ data: Data) {
        let over = lock.withLock { () -> Bool in
            guard !ended else { return false }
            guard body.count + data.count <= limit else { return true }
            body.append(data)
            return false
        }
        if over { end(.responseTooLarge, "the response went over the limit of \(limit) bytes") }
    }

    func timeOut() { end(.timedOut, "no response within the timeout") }

    /// The caller's task was cancelled.
    func cancel() { end(with: CancellationError()) }

    /// An HTTP authentication challenge was refused.
    func refusedChallenge() { lock.withLock { challengeRefused = true } }

    /// Ends the exchange for `kind`, unless it has already ended.
    private func end(_ kind: TransportError.Kind, _ detail: String) {
        end(with: TransportError(kind, url: url, detail: detail))
    }

    /// Answers the caller with `error` and stops the request, unless the exchange has already ended.
    private func end(with error: any Error) {
        let (continuation, task) = lock.withLock {
            () -> (CheckedContinuation<HTTPResponseMessage, any Error>?, URLSessionTask?) in
            guard !ended else { return (nil, nil) }
            ended = true
            body = Data()
            defer { self.continuation = nil }
            return (self.continuation, self.task)
        }
        continuation?.resume(throwing: error)
        if let task { DispatchQueue.global().async { task.cancel() } }
    }

    func complete(response: URLResponse?, error: (any Error)?) {
        let (continuation, body, challengeRefused) = lock.withLock {
            defer {
                self.continuation = nil
                ended = true
            }
            return (ended ? nil : self.continuation, self.body, self.challengeRefused)
        }
        guard let continuation else { return }
        // A refused challenge ends the task as cancelled on Linux, with the 401 and its body already received.
        let cancelled = (error as? URLError)?.code == .cancelled
        let error = challengeRefused && cancelled && response is HTTPURLResponse ? nil : error
        continuation.resume(
            with: URLSessionHTTPTransport.result(for: url, data: body, response: response, error: error))
    }
}
