import Foundation
import HealthSignInCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on 127.0.0.1 that plays the answers `HTTPTransportConformance` checks a transport against.
///
/// One request per connection: every answer says `Connection: close` and the connection is closed after it, so no
/// check depends on how a transport pools connections. Each connection has a thread of its own. What a client sends is
/// untrusted: a head larger than `headLimit`, a malformed request line or header, or a body larger than
/// `bodyLimit` is answered with a 4xx and closed, and a client that sends nothing is dropped after `idleLimit`.
///
/// | path | answer |
/// |---|---|
/// | `/echo` (any query) | 200, the request as JSON: `method`, `path`, `headers`, `body` |
/// | `/redirect` | 302 to `/echo` |
/// | `/redirect-away` | 307 to `https://collector.example/steal` |
/// | `/status/N` | status N with `Retry-After: 7` |
/// | `/chunked` | 200 `hello, world` in the chunked coding, with a chunk extension |
/// | `/gzip` | 200 with a gzip body, whatever the request accepts |
/// | `/challenge` | 401 with `WWW-Authenticate: Basic realm="probe"` |
/// | `/interim` | 103 Early Hints, then 200 `final` |
/// | `/slow` | 200 `late` after `slowAnswerDelay` seconds, unless the client goes away first |
/// | `/cut-length` | `Content-Length: 63`, 30 bytes of body, then the end of the connection |
/// | `/trickle` | `Content-Length: 20` at once, then one byte of body every quarter second while the client stays |
/// | `/framing/both`, `/framing/chunked-twice`, `/framing/signed-length`, `/framing/bare-lf` | 200 framed two ways |
///   at once: `Content-Length` beside `Transfer-Encoding: chunked`; `chunked, chunked`; `Content-Length: +5`; |
///   header lines ending in a bare LF |
/// | `/large-head` | 200 `ok` after a header section of 160 KiB (160 fields of 1 KiB) |
/// | `/endless-trailers` | 200 `hello` in the chunked coding, then trailer fields of 1 KiB until the client goes away |
///   (or 64 MiB were sent) |
final class ProbeServer: Sendable {
    /// The largest request head read; a longer one is answered 431.
    static let headLimit = 16 << 10
    /// The largest request body read; a longer one is answered 413.
    static let bodyLimit = 1 << 20
    /// How long a connection may stay silent while its request is read.
    static let idleLimit: TimeInterval = 10
    /// How long `/slow` takes: longer than the timeout and cancellation checks wait.
    static let slowAnswerDelay: TimeInterval = 3

    /// The port the server listens on.
    let port: Int
    /// A port on 127.0.0.1 that is bound but never listens, so a connection there is refused at once; being bound, no
    /// other process can take it while the server runs.
    let refusingPort: Int

    private let listener: Int32
    private let refuser: Int32
    /// A pipe whose write end `stop()` writes to, to wake the accepting thread from `poll`.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = LockedValue(State())

    private struct State {
        var stopped = false
        var accepting = true
        /// The descriptors of the connections being served, for `stop()` to end them.
        var open: Set<Int32> = []
    }

    /// Listens on an ephemeral port of 127.0.0.1 and starts accepting.
    init() throws {
        let (listener, port) = try Self.boundSocket()
        guard listen(listener, 128) == 0 else {
            let error = StartError(call: "listen")
            _ = close(listener)
            throw error
        }
        let refuser: (Int32, Int)
        do { refuser = try Self.boundSocket() } catch {
            _ = close(listener)
            throw error
        }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            let error = StartError(call: "pipe")
            _ = close(listener)
            _ = close(refuser.0)
            throw error
        }
        pipeEnds.forEach(Self.closeOnExec)
        self.listener = listener
        self.port = port
        self.refuser = refuser.0
        self.refusingPort = refuser.1
        self.wakeRead = pipeEnds[0]
        self.wakeWrite = pipeEnds[1]
        Thread { [self] in acceptConnections() }.start()
    }

    /// Why the server could not start.
    struct StartError: Error, CustomStringConvertible {
        let call: String
        let code: Int32

        init(call: String) {
            self.call = call
            self.code = errno
        }

        var description: String {
            "the probe server could not start: \(call) failed (\(String(cString: strerror(code))))"
        }
    }

    /// `http://127.0.0.1:<port>`
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops accepting, ends every connection (a `/slow` answer included) and returns once every thread of the server
    /// has ended and its descriptors are closed. Calling it again does nothing.
    func stop() {
        let first = state.withValue { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            // Under the lock: a connection's thread removes its descriptor under the lock before closing it, so none
            // of these can be a descriptor reused by something else.
            for descriptor in state.open { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            let snapshot = state.current
            if !snapshot.accepting && snapshot.open.isEmpty { break }
            usleep(2_000)
        }
        // The accepting thread polls the pipe until it has ended; a pipe closed under it could be a reused descriptor.
        if !state.current.accepting {
            _ = close(wakeRead)
            _ = close(wakeWrite)
        }
        _ = close(refuser)
    }

    // MARK: - Sockets

    /// A TCP socket bound to an ephemeral port of 127.0.0.1, and the port.
    private static func boundSocket() throws -> (Int32, Int) {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw StartError(call: "socket") }
        closeOnExec(descriptor)
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let error = StartError(call: "bind")
            _ = close(descriptor)
            throw error
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Keeps `descriptor` from the processes a test starts, which would otherwise hold connections open.
    private static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// The accepting thread's loop, until `stop()`.
    private func acceptConnections() {
        defer {
            _ = close(listener)
            state.withValue { $0.accepting = false }
        }
        while true {
            var ready = [
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let count = poll(&ready, 2, -1)
            if count < 0 && errno != EINTR { return }
            if ready[1].revents != 0 { return }
            guard ready[0].revents != 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                // Out of descriptors, or the client left before being accepted: wait a little rather than spin.
                usleep(1_000)
                continue
            }
            Self.closeOnExec(connection)
            #if canImport(Darwin)
                var on: Int32 = 1
                _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let admitted = state.withValue { state -> Bool in
                guard !state.stopped else { return false }
                state.open.insert(connection)
                return true
            }
            guard admitted else {
                _ = close(connection)
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    /// Reads one request from `connection`, answers it and closes the connection.
    private func serve(_ connection: Int32) {
        defer {
            // Closed under the lock, so `stop()` never shuts down a descriptor number already given to another file.
            state.withValue {
                $0.open.remove(connection)
                _ = close(connection)
            }
        }
        switch Self.readRequest(from: connection) {
        case .gone:
            return
        case .refused(let status, let reason):
            let body = Array(reason.utf8)
            deliver(Self.response(status, body: body, headers: [("Content-Type", "text/plain")]), to: connection)
            Self.drain(connection)
        case .request(let request):
            answer(request, on: connection)
        }
    }

    /// Ends the sending side, then reads and drops what the client still sends, for a second at most: closing with
    /// unread bytes would reset the connection, and a client could lose the answer that explains the refusal.
    private static func drain(_ connection: Int32) {
        _ = shutdown(connection, Int32(SHUT_WR))
        let deadline = Date().addingTimeInterval(1)
        while deadline.timeIntervalSinceNow > 0 {
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
        }
    }

    /// Writes all of `bytes`, or as much as the client takes before it goes away.
    @discardableResult
    private func deliver(_ bytes: [UInt8], to connection: Int32) -> Bool {
        #if canImport(Darwin)
            let flags: Int32 = 0  // SO_NOSIGPIPE is set on the socket
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(connection, buffer.baseAddress! + offset, buffer.count - offset, flags)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    // MARK: - Requests

    /// A request as read off the wire.
    struct Request {
        var method: String
        var target: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]
    }

    enum ReadOutcome {
        case request(Request)
        /// The request is not one the server reads; answer `status` with `reason` and close.
        case refused(Int, String)
        /// The client went away or stayed silent.
        case gone
    }

    /// Reads one request from `connection`, within the server's limits.
    static func readRequest(from connection: Int32) -> ReadOutcome {
        var buffer: [UInt8] = []
        var headEnd: Int?
        while headEnd == nil {
            guard receive(from: connection, into: &buffer) else { return .gone }
            headEnd = endOfHead(in: buffer)
            if headEnd == nil && buffer.count > headLimit { return .refused(431, "request head too large") }
        }
        guard let headEnd, headEnd <= headLimit else { return .refused(431, "request head too large") }
        switch parseHead(buffer[..<headEnd]) {
        case .failure(let refusal):
            return .refused(refusal.status, refusal.reason)
        case .success(var request):
            let fields = request.headers.filter { $0.name.lowercased() == "content-length" }.map(\.value)
            if request.headers.contains(where: { $0.name.lowercased() == "transfer-encoding" }) {
                return .refused(501, "a request body in the chunked coding is not read")
            }
            guard Set(fields).count <= 1 else { return .refused(400, "conflicting Content-Length fields") }
            var length = 0
            if let field = fields.first {
                guard !field.isEmpty, field.count <= 9, field.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let value = Int(field)
                else { return .refused(400, "malformed Content-Length") }
                guard value <= bodyLimit else { return .refused(413, "request body too large") }
                length = value
            }
            var body = Array(buffer[(headEnd + 4)...])
            while body.count < length {
                guard receive(from: connection, into: &body) else { return .gone }
            }
            request.body = Array(body.prefix(length))
            return .request(request)
        }
    }

    /// Appends what `connection` sends next to `buffer`; false when the client closed, failed or stayed silent for
    /// `idleLimit`.
    private static func receive(from connection: Int32, into buffer: inout [UInt8]) -> Bool {
        var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        var polled: Int32
        repeat { polled = poll(&ready, 1, Int32(idleLimit * 1000)) } while polled < 0 && errno == EINTR
        guard polled > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    /// The offset of the blank line's CR LF CR LF that ends the head, if it has arrived.
    private static func endOfHead(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    struct Refusal: Error {
        let status: Int
        let reason: String
    }

    /// The request line and header fields of `head`, or why they are not a request.
    static func parseHead(_ head: ArraySlice<UInt8>) -> Result<Request, Refusal> {
        // Bytes that are not UTF-8 become U+FFFD, which no token allows, so they are refused below.
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0",
            isToken(requestLine[0]), requestLine[1].hasPrefix("/"),
            requestLine[1].unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return .failure(Refusal(status: 400, reason: "malformed request line")) }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), isToken(line[..<colon]) else {
                return .failure(Refusal(status: 400, reason: "malformed header field"))
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F || $0 == "\t" }) else {
                return .failure(Refusal(status: 400, reason: "control character in a header field"))
            }
            headers.append((String(line[..<colon]), value))
        }
        return .success(
            Request(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: []))
    }

    /// Whether `text` is an RFC 9110 token.
    private static func isToken(_ text: Substring) -> Bool {
        let punctuation = "!#$%&'*+-.^_`|~"
        return !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || punctuation.unicodeScalars.contains($0))
            }
    }

    // MARK: - Answers

    /// What the server's JSON echo holds.
    struct Echo: Codable {
        var method: String
        var path: String
        /// Each field by the name as sent; repeated fields joined with ", ".
        var headers: [String: String]
        var body: String
    }

    /// A gzip member holding `{"ok":true}`: a body any client could decode, so one that does is caught.
    static let gzipBody: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xAB, 0x56, 0xCA, 0xCF, 0x56, 0xB2, 0x2A, 0x29,
        0x2A, 0x4D, 0xAD, 0x05, 0x00, 0x90, 0x5F, 0xD4, 0xA7, 0x0B, 0x00, 0x00, 0x00,
    ]

    private func answer(_ request: Request, on connection: Int32) {
        let path = String(request.target.prefix { $0 != "?" })
        switch path {
        case "/echo":
            var headers: [String: String] = [:]
            for (name, value) in request.headers { headers[name] = headers[name].map { "\($0), \(value)" } ?? value }
            let echo = Echo(
                method: request.method, path: request.target, headers: headers,
                body: String(decoding: request.body, as: UTF8.self))
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let body = (try? encoder.encode(echo)).map(Array.init) ?? []
            deliver(Self.response(200, body: body, headers: [("Content-Type", "application/json")]), to: connection)
        case "/redirect":
            deliver(Self.response(302, headers: [("Location", "/echo")]), to: connection)
        case "/redirect-away":
            deliver(Self.response(307, headers: [("Location", "https://collector.example/steal")]), to: connection)
        case _ where path.hasPrefix("/status/"):
            guard let status = Int(path.dropFirst("/status/".count)), (200...599).contains(status) else {
                deliver(Self.response(404), to: connection)
                return
            }
            let headers = [("Content-Type", "text/html"), ("Retry-After", "7")]
            deliver(Self.response(status, body: Array("<html>down</html>".utf8), headers: headers), to: connection)
        case "/chunked":
            let head =
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n"
                + "Connection: close\r\n\r\n"
            deliver(Array((head + "5;note=first\r\nhello\r\n7\r\n, world\r\n0\r\n\r\n").utf8), to: connection)
        case "/gzip":
            deliver(Self.response(200, body: Self.gzipBody, headers: [("Content-Encoding", "gzip")]), to: connection)
        case "/challenge":
            let headers = [("WWW-Authenticate", "Basic realm=\"probe\"")]
            deliver(
                Self.response(401, body: Array(#"{"error":"unauthorized"}"#.utf8), headers: headers), to: connection)
        case "/interim":
            // Two writes, so a client reads the interim response on its own before the final one arrives.
            let interim = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
            guard deliver(Array(interim.utf8), to: connection) else { return }
            deliver(Self.response(200, body: Array("final".utf8)), to: connection)
        case "/slow":
            guard Self.waitWhileConnected(connection, for: Self.slowAnswerDelay) else { return }
            deliver(Self.response(200, body: Array("late".utf8)), to: connection)
        case "/cut-length":
            let body = #"{"access_token":"abcdefghijklmnopqrstuvwxyz","token_type":"Bearer"}"#.utf8.prefix(30)
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 63\r\n\r\n"
            deliver(Array(head.utf8) + body, to: connection)
            _ = shutdown(connection, Int32(SHUT_RDWR))
        case "/trickle":
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 20\r\nConnection: close\r\n\r\n"
            guard deliver(Array(head.utf8), to: connection) else { return }
            for _ in 0..<20 {
                guard Self.waitWhileConnected(connection, for: 0.25), deliver([UInt8(ascii: "t")], to: connection)
                else {
                    return
                }
            }
        case "/framing/both":
            let head = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            deliver(Array((head + "5\r\nhello\r\n0\r\n\r\n").utf8), to: connection)
        case "/framing/chunked-twice":
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\nConnection: close\r\n\r\n"
            deliver(Array((head + "5\r\nhello\r\n0\r\n\r\n").utf8), to: connection)
        case "/framing/signed-length":
            deliver(
                Array("HTTP/1.1 200 OK\r\nContent-Length: +5\r\nConnection: close\r\n\r\nhello".utf8), to: connection)
        case "/framing/bare-lf":
            deliver(Array("HTTP/1.1 200 OK\nContent-Length: 5\nConnection: close\n\nhello".utf8), to: connection)
        case "/large-head":
            let filler = String(repeating: "x", count: 1_000)
            deliver(
                Self.response(200, body: Array("ok".utf8), headers: (0..<160).map { ("X-Filler-\($0)", filler) }),
                to: connection)
        case "/endless-trailers":
            let head =
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-More\r\nConnection: close\r\n\r\n"
            guard deliver(Array((head + "5\r\nhello\r\n0\r\n").utf8), to: connection) else { return }
            let line = Array(("X-More: " + String(repeating: "m", count: 1_014) + "\r\n").utf8)
            var sent = 0
            while sent < 64 << 20, deliver(line, to: connection) { sent += line.count }
            deliver(Array("\r\n".utf8), to: connection)
        default:
            deliver(Self.response(404), to: connection)
        }
    }

    /// Waits `seconds`, watching the connection; false as soon as the client closes it (or `stop()` shuts it down),
    /// so the thread does not outlive the exchange.
    private static func waitWhileConnected(_ connection: Int32, for seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return true }
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(remaining, 0.25) * 1000) + 1)
            if polled < 0 && errno != EINTR { return false }
            guard polled > 0 else { continue }
            // Readable: the end of the connection, or bytes a client sent after its request, which are dropped.
            var scratch = [UInt8](repeating: 0, count: 512)
            let count = scratch.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
        }
    }

    private static let reasons: [Int: String] = [
        200: "OK", 302: "Found", 307: "Temporary Redirect", 400: "Bad Request", 401: "Unauthorized",
        404: "Not Found", 413: "Content Too Large", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 503: "Service Unavailable",
    ]

    /// A complete response with `Content-Length` and `Connection: close`.
    static func response(_ status: Int, body: [UInt8] = [], headers: [(String, String)] = []) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reasons[status] ?? "Status")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
