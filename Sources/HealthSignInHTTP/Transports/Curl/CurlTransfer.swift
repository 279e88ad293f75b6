#if canImport(HealthSignInLibcurl)
    import Foundation
    import HealthSignInLibcurl

    /// One exchange of a ``CurlHTTPTransport``: its easy handle, what it sends, and what it has received.
    ///
    /// libcurl calls its callbacks on the engine's I/O thread, which alone touches the handle; the caller's
    /// continuation is answered once, under `lock`, by whichever comes first: the response, an error, or the caller's
    /// cancellation.
    final class CurlTransfer: @unchecked Sendable {
        // @unchecked: `continuation` and `outcome` are guarded by `lock`; the received state belongs to the I/O
        // thread; the rest is set up before the transfer is shared and never changed.
        private let lock = Lock()
        private var continuation: CheckedContinuation<HTTPResponseMessage, any Error>?
        private var outcome: Result<HTTPResponseMessage, any Error>?

        let url: URL
        private(set) var easy: UnsafeMutableRawPointer?
        private var headerList: UnsafeMutablePointer<curl_slist>?
        /// The looked-up addresses of the host connected to, as `CURLOPT_RESOLVE` takes them.
        private var resolveList: UnsafeMutablePointer<curl_slist>?
        private let tls: UnsafeMutablePointer<healthsignin_tls_settings>
        /// Kept so that the store the TLS hook trusts outlives the transfer's handshake.
        private let authorities: CertificateAuthorities
        private let body: Data?
        private let limit: Int
        private let expectsBody: Bool
        private let isHTTPS: Bool

        // What the I/O thread has received.
        private var status = 0
        private var headers = HTTPHeaderFields()
        private var received = Data()
        private var refusal: TransportError?
        /// Whether the final response's head has ended: lines after it are a chunked body's trailer, not its fields.
        private var headEnded = false
        /// The bytes of every header line so far: status lines, fields, trailers.
        private var headerBytes = 0
        /// For an `https` body framed by the connection's end: whether its connection saw the server's
        /// `close_notify`, the one sign that the end is the server's.
        private var closeSignal: UnsafeMutablePointer<healthsignin_tls_close>?
        /// Whether the body ends where the connection does, rather than at a length or a last chunk.
        private var endsWithConnection = false

        init(
            request: HTTPRequestMessage, target: RequestTarget, deadline: TransportDeadline, limit: Int,
            authorities: CertificateAuthorities, proxy: ProxyRoute, addresses: String?, reusesConnection: Bool
        ) throws {
            url = request.url
            body = request.body
            self.limit = max(0, limit)
            expectsBody = request.method.rawValue != "HEAD"
            isHTTPS = target.isHTTPS
            tls = .allocate(capacity: 1)
            let proxyHost = proxy.tlsHost
            tls.initialize(
                to: healthsignin_tls_settings(
                    host: strdup(target.host), hostIsAddress: target.isAddress ? 1 : 0,
                    hostIsTLS: target.isHTTPS ? 1 : 0, proxyHost: proxyHost.flatMap { strdup($0) },
                    proxyHostIsAddress: proxyHost.map(RequestTarget.isAddressLiteral) == true ? 1 : 0, handshakes: 0,
                    authorities: authorities.store))
            self.authorities = authorities
            guard let handle = curl_easy_init() else {
                throw TransportError(.other, url: url, detail: "libcurl could not make a handle")
            }
            easy = handle
            try configure(handle, request: request, target: target, deadline: deadline, proxy: proxy)
            if let addresses {
                guard let list = curl_slist_append(nil, addresses) else {
                    throw TransportError(.other, url: url, detail: "libcurl could not hold the addresses")
                }
                resolveList = list
                try CurlOptions(handle: handle, url: url).check(
                    healthsignin_easy_setopt_pointer(handle, CURLOPT_RESOLVE, list), "the addresses")
            }
            // libcurl reads a pool of size 0 as its default size, so a transport without a pool says so per transfer.
            if !reusesConnection { try CurlOptions(handle: handle, url: url).set(CURLOPT_FORBID_REUSE, 1) }
        }

        deinit {
            if let easy { curl_easy_cleanup(easy) }
            curl_slist_free_all(headerList)
            curl_slist_free_all(resolveList)
            healthsignin_tls_close_release(closeSignal)
            free(UnsafeMutableRawPointer(mutating: tls.pointee.host))
            free(UnsafeMutableRawPointer(mutating: tls.pointee.proxyHost))
            tls.deallocate()
        }

        // MARK: - Setting up

        private func configure(
            _ handle: UnsafeMutableRawPointer, request: HTTPRequestMessage, target: RequestTarget,
            deadline: TransportDeadline,
            proxy: ProxyRoute
        ) throws {
            let options = CurlOptions(handle: handle, url: url)
            try options.set(CURLOPT_URL, target.url)
            try options.set(CURLOPT_PROTOCOLS_STR, "http,https")
            try options.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            try options.set(CURLOPT_FOLLOWLOCATION, 0)
            try options.set(CURLOPT_NOSIGNAL, 1)
            try options.set(CURLOPT_NOPROGRESS, 1)
            // No content decoding: the size limit counts the bytes the caller gets.
            try options.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
            try options.set(CURLOPT_TIMEOUT_MS, deadline.milliseconds)
            try options.set(CURLOPT_CONNECTTIMEOUT_MS, deadline.milliseconds)
            try options.set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
            try options.set(CURLOPT_SSL_VERIFYPEER, 1)
            try options.set(CURLOPT_SSL_VERIFYHOST, 2)
            // The TLS hook gives every handshake the transport's store, so libcurl's own is not read.
            try options.check(healthsignin_easy_setopt_pointer(handle, CURLOPT_CAINFO, nil), "the TLS checks")
            try options.check(healthsignin_easy_setopt_pointer(handle, CURLOPT_CAPATH, nil), "the TLS checks")
            try options.check(healthsignin_easy_set_tls_hook(handle, tls), "the TLS checks")
            try options.set(CURLOPT_PROXY, proxy.url ?? "")
            // The routes decided which hosts bypass the proxy; an empty list keeps libcurl from reading NO_PROXY too.
            try options.set(CURLOPT_NOPROXY, "")
            try options.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            if proxy.url != nil {
                try options.set(CURLOPT_PROXY_SSL_VERIFYPEER, 1)
                try options.set(CURLOPT_PROXY_SSL_VERIFYHOST, 2)
                try options.set(CURLOPT_HTTPPROXYTUNNEL, target.isHTTPS ? 1 : 0)
            }
            try setMethod(request, options)
            try setHeaders(request, options)
            let context = Unmanaged.passUnretained(self).toOpaque()
            try options.check(
                healthsignin_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderReceived), "headers")
            try options.check(healthsignin_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "headers")
            try options.check(
                healthsignin_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlBodyReceived), "the body")
            try options.check(healthsignin_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "the body")
        }

        private func setMethod(_ request: HTTPRequestMessage, _ options: CurlOptions) throws {
            let method = request.method.rawValue
            switch method {
            case "GET" where body == nil: try options.set(CURLOPT_HTTPGET, 1)
            case "HEAD": try options.set(CURLOPT_NOBODY, 1)
            default:
                try options.set(CURLOPT_CUSTOMREQUEST, method)
                if let body {
                    try options.set(CURLOPT_POSTFIELDSIZE_LARGE, size: body.count)
                    try body.withUnsafeBytes { bytes in
                        // COPYPOSTFIELDS copies, so the body's buffer need not outlive this call.
                        try options.check(
                            healthsignin_easy_setopt_pointer(
                                options.handle, CURLOPT_COPYPOSTFIELDS,
                                bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)),
                            "the body")
                    }
                } else if !["GET", "DELETE", "OPTIONS", "TRACE"].contains(method) {
                    try options.set(CURLOPT_POSTFIELDSIZE_LARGE, size: 0)
                    try options.set(CURLOPT_POSTFIELDS, "")
                }
            }
        }

        /// The request's own fields in order, then `Accept-Encoding: identity` and a `User-Agent` unless it has its
        /// own; the framing fields are libcurl's, and its defaults it would add (`Expect`, `Accept`) are left out.
        private func setHeaders(_ request: HTTPRequestMessage, _ options: CurlOptions) throws {
            let transportOwned: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "expect"]
            var lines = request.headers.fields.filter { !transportOwned.contains($0.name.lowercased()) }
                .map { $0.value.isEmpty ? "\($0.name);" : "\($0.name): \($0.value)" }
            if request.headers["Accept-Encoding"] == nil { lines.append("Accept-Encoding: identity") }
            if request.headers["User-Agent"] == nil { lines.append("User-Agent: HealthSignInSDK") }
            if request.headers["Accept"] == nil { lines.append("Accept:") }
            lines.append("Expect:")
            for line in lines {
                guard let next = curl_slist_append(headerList, line) else {
                    throw TransportError(.other, url: url, detail: "libcurl could not hold the header fields")
                }
                headerList = next
            }
            try options.check(
                healthsignin_easy_setopt_pointer(options.handle, CURLOPT_HTTPHEADER, headerList), "headers")
        }

        // MARK: - Receiving (on the I/O thread)

        /// One header line, the status line of each response included; returns false to stop the transfer.
        fileprivate func headerLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
            // Every line counts, trailers too: libcurl keeps them all, outside the body's limit.
            headerBytes += bytes.count
            guard headerBytes <= HTTPResponseMessage.maximumHeaderSectionSize else {
                return refuse(
                    "the header section is over the limit of \(HTTPResponseMessage.maximumHeaderSectionSize) bytes",
                    kind: .responseTooLarge)
            }
            var line = bytes[...]
            // HTTP/1.1 ends every line with CRLF (RFC 9112 §2.2); a bare LF is where parsers disagree on the framing.
            guard line.count >= 2, line[line.endIndex - 2] == 0x0D, line[line.endIndex - 1] == 0x0A else {
                return refuse("a header line does not end with CRLF")
            }
            guard !headEnded else { return true }
            while let last = line.last, last == 0x0A || last == 0x0D { line = line.dropLast() }
            if line.starts(with: Array("HTTP/".utf8)) {
                // A new response (after a 100 Continue, say): only the last one's fields count.
                headers = HTTPHeaderFields()
                status = 0
                return true
            }
            guard !line.isEmpty else { return checkHead() }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return refuse("a header line without a colon")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let rawValue = line[line.index(after: colon)...]
            guard rawValue.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return refuse("the header field \(name) holds a control character")
            }
            let value = String(decoding: rawValue, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            headers.add(name, value)
            return true
        }

        /// At the end of a response's head: refuses codings the caller did not ask for, and a length over the limit.
        private func checkHead() -> Bool {
            guard let handle = easy else { return false }
            var code = 0
            healthsignin_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
            status = code
            if (100..<200).contains(code) { return true }
            headEnded = true
            let codings = headers.values("Content-Encoding").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty && $0 != "identity" }
            if !codings.isEmpty {
                return refuse(
                    "the body is in the content coding \(codings.joined(separator: ", "))", kind: .unrequestedEncoding)
            }
            let transfer = headers.values("Transfer-Encoding").flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            if transfer.contains(where: { $0 != "chunked" }) {
                return refuse(
                    "the body is in the transfer coding \(transfer.joined(separator: ", "))", kind: .unrequestedEncoding
                )
            }
            // One framing, said once (RFC 9112 §6.1, §6.3): a length beside chunking, chunking twice, or a length in
            // another form than digits is read differently by different parsers on the way.
            guard transfer.count <= 1 else { return refuse("the body is chunked more than once") }
            let lengths = headers.values("Content-Length")
            guard lengths.isEmpty || transfer.isEmpty else {
                return refuse("the response has both a Content-Length and a Transfer-Encoding")
            }
            if !lengths.isEmpty {
                guard lengths.count == 1, !lengths[0].isEmpty, lengths[0].allSatisfy({ ("0"..."9").contains($0) }),
                    let length = Int(lengths[0])
                else { return refuse("the Content-Length is not one length in digits") }
                if length > limit {
                    return refuse("the body of \(length) bytes is over the limit of \(limit)", kind: .responseTooLarge)
                }
            }
            // HTTP/2 frames every body itself; only HTTP/1 has bodies that end with the connection.
            var version = 0
            healthsignin_easy_getinfo_long(handle, CURLINFO_HTTP_VERSION, &version)
            let isHTTP1 = version == CURL_HTTP_VERSION_1_0 || version == CURL_HTTP_VERSION_1_1
            endsWithConnection =
                isHTTP1 && lengths.isEmpty && transfer.isEmpty && expectsBody && code != 204 && code != 304
            if endsWithConnection, isHTTPS, closeSignal == nil { closeSignal = healthsignin_tls_close_of(handle) }
            return true
        }

        /// Body bytes; returns false to stop the transfer when they pass the limit.
        fileprivate func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard received.count + bytes.count <= limit else {
                return refuse("the body is over the limit of \(limit) bytes", kind: .responseTooLarge)
            }
            received.append(contentsOf: bytes)
            return true
        }

        private func refuse(_ detail: String, kind: TransportError.Kind = .other) -> Bool {
            refusal = TransportError(kind, url: url, detail: detail)
            return false
        }

        /// The transfer's end as libcurl reports it.
        func complete(_ code: CURLcode) {
            if let refusal { return finish(.failure(refusal)) }
            guard code == CURLE_OK else { return finish(.failure(CurlError.transportError(code, url: url))) }
            // libcurl takes a TLS connection's unannounced end for a clean one; a body framed by it is whole only when
            // the server said so.
            if endsWithConnection, isHTTPS, closeSignal.map({ healthsignin_tls_close_notified($0) == 1 }) != true {
                return finish(
                    .failure(
                        TransportError(
                            .connectionLost, url: url,
                            detail: "the connection ended without TLS's close_notify, so the body may be cut short")))
            }
            finish(.success(HTTPResponseMessage(status: status, headers: headers, body: received)))
        }

        // MARK: - Answering the caller

        var isFinished: Bool { lock.withLock { outcome != nil } }

        /// Waits with `continuation`; a transfer that has already ended answers at once.
        func start(_ continuation: CheckedContinuation<HTTPResponseMessage, any Error>) {
            let ended = lock.withLock { () -> Result<HTTPResponseMessage, any Error>? in
                if outcome == nil { self.continuation = continuation }
                return outcome
            }
            if let ended { continuation.resume(with: ended) }
        }

        /// Ends the transfer with `result`, unless it has ended.
        func finish(_ result: Result<HTTPResponseMessage, any Error>) {
            let waiting = lock.withLock { () -> CheckedContinuation<HTTPResponseMessage, any Error>? in
                guard outcome == nil else { return nil }
                outcome = result
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(with: result)
        }
    }

    private func curlHeaderReceived(
        _ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return transfer.headerLine(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
    }

    private func curlBodyReceived(
        _ bytes: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int {
        guard let context else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return transfer.bodyBytes(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : 0
    }
#endif
