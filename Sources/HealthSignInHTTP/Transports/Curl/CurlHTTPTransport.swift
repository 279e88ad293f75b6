#if canImport(HealthSignInLibcurl)
    import Foundation
    import HealthSignInLibcurl

    /// The default transport on Linux: libcurl, driven by one I/O thread that transports with the same settings share.
    ///
    /// Every exchange ends by its deadline (name resolution, connecting, TLS, sending and receiving all count), by
    /// its size limit, or at once when the caller's task is cancelled, and leaves nothing behind but an idle
    /// connection in a bounded pool:
    /// - it asks for `Accept-Encoding: identity` and refuses a body in any content coding (or any transfer coding
    ///   but `chunked`) with ``TransportError/Kind/unrequestedEncoding``, so the size limit counts exactly the bytes
    ///   the caller receives;
    /// - it never answers authentication challenges: a 401 is returned at once, like any status;
    /// - it never follows redirects, and keeps no cookies, credentials or cache.
    ///
    /// TLS is 1.2 or later. The server's certificate is checked against the system's certificate authorities and any
    /// in `Configuration.additionalCertificateAuthorities`, and its name against the URL's host as RFC 9525 says:
    /// only subject alternative names count, and a wildcard is a whole left-most label.
    ///
    /// Names are looked up on a few threads shared by every transport (at most 4 lookups at once, each name's answer
    /// kept a minute): a lookup that hangs ends its call at the deadline and holds no other call. A host with
    /// addresses of both families is reached as RFC 8305 says: the second family is tried 200 ms after the first.
    ///
    /// Connections are kept alive and reused: at most `Configuration.maximumIdleConnections` wait in the pool, each
    /// for at most `Configuration.idleTimeout`; once the pool has been idle that long, its connections and its I/O
    /// thread are gone. Transports made with the same certificate authorities and pool limits share one I/O thread
    /// and one pool in the process (`Configuration.sharesConnectionPool`), so a transport made per call costs no
    /// thread; a connection is never reused under other trust settings or through another proxy. Proxies come from
    /// `Configuration.proxy`: by default the environment's `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (either case).
    /// An `https` proxy is checked as a server is, by its own name.
    public final class CurlHTTPTransport: HTTPTransport, Sendable {
        /// How the transport is set up.
        public struct Configuration: Sendable {
            /// The timeout for requests that do not set their own: the whole exchange, from name resolution to the
            /// last byte of the body. `.infinity` means none.
            public var timeout: TimeInterval
            /// The most bytes of body a response may have, for requests that do not set their own.
            public var maximumResponseSize: Int
            /// A PEM file of certificate authorities trusted besides the system's, e.g. a company's own.
            public var additionalCertificateAuthorities: URL?
            /// How many idle connections the pool keeps, across hosts; 0 closes every connection after its exchange.
            public var maximumIdleConnections: Int
            /// How many connections to one host may be open at once; more requests to it wait for one to be free
            /// (their timeout counts the wait).
            public var maximumConnectionsPerHost: Int
            /// How long an idle connection is kept for reuse.
            public var idleTimeout: TimeInterval
            /// Which proxy requests go through.
            public var proxy: ProxySetting
            /// Whether the transport shares its I/O thread and connection pool with the process's other transports
            /// of the same certificate authorities and pool limits (the default), or has its own.
            public var sharesConnectionPool: Bool

            /// Creates a configuration.
            public init(
                timeout: TimeInterval = 30, maximumResponseSize: Int = HTTPResponseMessage.defaultMaximumBodySize,
                additionalCertificateAuthorities: URL? = nil, maximumIdleConnections: Int = 16,
                maximumConnectionsPerHost: Int = 16, idleTimeout: TimeInterval = 60, proxy: ProxySetting = .environment,
                sharesConnectionPool: Bool = true
            ) {
                self.timeout = timeout
                self.maximumResponseSize = maximumResponseSize
                self.additionalCertificateAuthorities = additionalCertificateAuthorities
                self.maximumIdleConnections = maximumIdleConnections
                self.maximumConnectionsPerHost = maximumConnectionsPerHost
                self.idleTimeout = idleTimeout
                self.proxy = proxy
                self.sharesConnectionPool = sharesConnectionPool
            }
        }

        private let configuration: Configuration
        private let engine: CurlEngine
        private let proxies: ProxyRoutes

        /// Creates a transport; its I/O thread starts with the first request. When the authorities file cannot be
        /// read, every `https` request fails with ``TransportError/Kind/insecureConnection`` saying why.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
            let idleTimeout = configuration.idleTimeout
            let settings = CurlEngine.Settings(
                additionalCertificateAuthorities: configuration.additionalCertificateAuthorities?.standardizedFileURL
                    .path,
                maximumIdleConnections: max(0, configuration.maximumIdleConnections),
                maximumConnectionsPerHost: max(1, configuration.maximumConnectionsPerHost),
                idleTimeout: idleTimeout.isFinite ? max(0, idleTimeout) : 86_400)
            engine = configuration.sharesConnectionPool ? CurlEngine.shared(settings) : CurlEngine(settings)
            proxies = ProxyRoutes(configuration.proxy)
        }

        /// Whether the transport's I/O thread runs: from its first request until its pool has been idle for
        /// `Configuration.idleTimeout`, when its pooled connections are closed too.
        package var hasIOThread: Bool { engine.isRunning }

        /// Sends `request`; see ``HTTPTransport`` for the contract.
        ///
        /// - Throws: ``ConfigurationError`` for a timeout that is NaN or not positive, ``RequestEncodingError`` for a
        ///   URL or header field that cannot be sent as it is (nothing is sent then), ``TransportError`` for what
        ///   happened on the way, `CancellationError` when the task is cancelled.
        public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
            let deadline = try TransportDeadline(request.timeout ?? configuration.timeout)
            let target = try RequestTarget(request.url)
            try request.headers.checkSyntax()
            guard HTTPHeaderFields.isToken(request.method.rawValue) else {
                throw RequestEncodingError.invalidURL("the method '\(request.method.rawValue)' is not a token")
            }
            if target.isHTTPS, let problem = engine.authorities.problem {
                throw TransportError(.insecureConnection, url: request.url, detail: problem)
            }
            try Task.checkCancellation()
            let started = Date()
            let proxy = proxies.route(for: target)
            let addresses = try await lookUp(proxy.endpoint ?? (target.host, target.port), of: request, deadline)
            let transfer = try CurlTransfer(
                request: request, target: target, deadline: deadline.after(Date().timeIntervalSince(started)),
                limit: request.maximumResponseSize ?? configuration.maximumResponseSize,
                authorities: engine.authorities, proxy: proxy,
                addresses: addresses, reusesConnection: configuration.maximumIdleConnections > 0)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfer.start(continuation)
                    engine.add(transfer)
                }
            } onCancel: {
                engine.cancel(transfer)
            }
        }

        /// The addresses of the host the transfer connects to, as a `CURLOPT_RESOLVE` entry, looked up within the
        /// deadline by ``CurlNameResolver``; nil for an address literal or a `localhost` name, which libcurl maps
        /// itself without a lookup.
        private func lookUp(
            _ endpoint: (host: String, port: Int), of request: HTTPRequestMessage, _ deadline: TransportDeadline
        ) async throws -> String? {
            let host = endpoint.host.lowercased()
            guard !RequestTarget.isAddressLiteral(host), host != "localhost", !host.hasSuffix(".localhost") else {
                return nil
            }
            do {
                let addresses = try await CurlNameResolver.shared.addresses(of: host, timeout: deadline.seconds)
                return "\(host):\(endpoint.port):\(addresses.joined(separator: ","))"
            } catch let error as TransportError {
                throw TransportError(error.kind, url: request.url, detail: error.detail)
            }
        }
    }
#endif
