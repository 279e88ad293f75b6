#if canImport(Glibc) && canImport(HealthSignInLibcrypto)
    import Foundation

    /// The default transport on Linux: HTTP/1.1 over the operating system's sockets, with OpenSSL for TLS.
    ///
    /// It exists because `URLSession` on Linux (libcurl) cannot bound its work for every response: it decodes
    /// whatever content coding a server sends, so a 13 KB body can hold a call for many seconds of CPU after its
    /// timeout, and a 401 with a `WWW-Authenticate` challenge can leave a request suspended until it times out. Here
    /// every exchange runs on its own thread and ends by its deadline, its size limit or the caller's cancellation,
    /// and nothing more is done for it afterwards:
    /// - it asks for `Accept-Encoding: identity` and refuses a body in any content coding (or any transfer coding
    ///   but `chunked`) with ``TransportError/Kind/unrequestedEncoding``, so the size limit counts exactly the bytes
    ///   the caller receives;
    /// - it never answers authentication challenges: a 401 is returned at once, like any status;
    /// - it never follows redirects, sends `Connection: close`, and keeps no cookies, credentials or cache.
    ///
    /// TLS is 1.2 or later, with the server's certificate checked against the system's certificate authorities
    /// (OpenSSL's default paths) and any in ``Configuration/additionalCertificateAuthorities``, and its name against
    /// the URL's host. Proxies are not used; for a proxy, use ``URLSessionHTTPTransport``.
    public final class SocketHTTPTransport: HTTPTransport, Sendable {
        /// How the transport is set up.
        public struct Configuration: Sendable {
            /// The timeout for requests that do not set their own: the whole exchange, from name resolution to the
            /// last byte of the body.
            public var timeout: TimeInterval
            /// The most bytes of body a response may have, for requests that do not set their own.
            public var maximumResponseSize: Int
            /// A PEM file of certificate authorities trusted besides the system's, e.g. a company's own.
            public var additionalCertificateAuthorities: URL?

            /// Creates a configuration.
            public init(
                timeout: TimeInterval = 30, maximumResponseSize: Int = ClientOptions.defaultMaximumResponseSize,
                additionalCertificateAuthorities: URL? = nil
            ) {
                self.timeout = timeout
                self.maximumResponseSize = maximumResponseSize
                self.additionalCertificateAuthorities = additionalCertificateAuthorities
            }
        }

        private let configuration: Configuration
        private let tls: Result<TLSContext, TLSSetupError>

        /// Creates a transport. When its TLS settings cannot be made (an unreadable authorities file), every `https`
        /// request fails with ``TransportError/Kind/insecureConnection`` saying why.
        public init(configuration: Configuration = .init()) {
            self.configuration = configuration
            tls = Result { () throws(TLSSetupError) in
                try TLSContext(authoritiesFile: configuration.additionalCertificateAuthorities?.path)
            }
        }

        /// Sends `request`; see ``HTTPTransport`` for the contract.
        public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
            let bytes = try HTTP1Request.bytes(for: request)
            let timeout = request.timeout ?? configuration.timeout
            let limit = request.maximumResponseSize ?? configuration.maximumResponseSize
            let exchange = try SocketExchange()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    exchange.start(continuation)
                    let deadline = Deadline(after: timeout)
                    let thread = Thread { [self] in
                        exchange.finish(
                            Result {
                                try self.exchange(request, bytes: bytes, limit: limit, deadline: deadline, exchange)
                            })
                    }
                    thread.start()
                    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                        exchange.finish(
                            .failure(
                                TransportError(.timedOut, url: request.url, detail: "no response within the timeout")))
                    }
                }
            } onCancel: {
                exchange.finish(.failure(CancellationError()))
            }
        }

        /// Runs one exchange on the calling thread.
        private func exchange(
            _ request: HTTPRequestMessage, bytes: Data, limit: Int, deadline: Deadline, _ exchange: SocketExchange
        ) throws -> HTTPResponseMessage {
            let url = request.url
            let scheme = url.scheme?.lowercased()
            guard scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
                throw TransportError(.other, url: url, detail: "only http and https URLs with a host can be sent")
            }
            let bareHost = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            let connection = try TCPConnection.open(
                host: bareHost, port: port, url: url, deadline: deadline, signal: exchange.signal)
            let channel: any ByteChannel
            if scheme == "https" {
                let context = try tls.mapError { TransportError(.insecureConnection, url: url, detail: $0.description) }
                    .get()
                channel = try TLSChannel(connection: connection, context: context, host: bareHost, url: url)
            } else {
                channel = connection
            }
            try channel.write(bytes)
            var parser = HTTP1ResponseParser(bodyLimit: limit, expectsBody: request.method.rawValue != "HEAD")
            var buffer = [UInt8](repeating: 0, count: 65_536)
            do {
                while !parser.isComplete {
                    let count = try channel.read(into: &buffer)
                    if count == 0 {
                        try parser.finish()
                    } else {
                        try parser.consume(buffer[..<count])
                    }
                }
            } catch let failure as HTTP1ResponseParser.Failure {
                throw TransportError(failure, url: url)
            }
            guard let response = parser.response else {
                throw TransportError(.connectionLost, url: url, detail: "the response was not complete")
            }
            return response
        }
    }

    /// One exchange of a ``SocketHTTPTransport``: the first ending (the response, an error, the timeout or the
    /// caller's cancellation) answers the caller, and stops the exchange's thread.
    final class SocketExchange: @unchecked Sendable {
        // @unchecked: `continuation` and `outcome` are read and written only under `lock`.
        private let lock = Lock()
        private var continuation: CheckedContinuation<HTTPResponseMessage, any Error>?
        private var outcome: Result<HTTPResponseMessage, any Error>?
        /// Wakes the exchange's thread when it ends early.
        let signal: ExchangeSignal

        init() throws {
            signal = try ExchangeSignal()
        }

        /// Waits with `continuation`; an exchange that has already ended answers at once.
        func start(_ continuation: CheckedContinuation<HTTPResponseMessage, any Error>) {
            let ended = lock.withLock { () -> Result<HTTPResponseMessage, any Error>? in
                if outcome == nil { self.continuation = continuation }
                return outcome
            }
            if let ended { continuation.resume(with: ended) }
        }

        /// Ends the exchange with `outcome` unless it has already ended.
        func finish(_ outcome: Result<HTTPResponseMessage, any Error>) {
            if case .failure(let error) = outcome, error is ExchangeStopped { return }
            let continuation = lock.withLock { () -> CheckedContinuation<HTTPResponseMessage, any Error>? in
                guard self.outcome == nil else { return nil }
                self.outcome = outcome
                defer { self.continuation = nil }
                return self.continuation
            }
            signal.stop()
            continuation?.resume(with: outcome)
        }
    }

    extension TransportError {
        /// The transport error for a response that could not be read.
        init(_ failure: HTTP1ResponseParser.Failure, url: URL) {
            switch failure {
            case .malformed(let detail): self.init(.connectionLost, url: url, detail: detail)
            case .tooLarge(let detail): self.init(.responseTooLarge, url: url, detail: detail)
            case .unrequestedEncoding(let detail): self.init(.unrequestedEncoding, url: url, detail: detail)
            }
        }
    }
#endif
