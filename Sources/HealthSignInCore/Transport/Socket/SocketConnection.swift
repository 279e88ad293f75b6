#if canImport(Glibc) && canImport(HealthSignInLibcrypto)
    import Foundation
    import Glibc

    /// Bytes in both directions over one connection, plain or TLS.
    protocol ByteChannel: AnyObject {
        /// Sends every byte of `data`.
        func write(_ data: Data) throws
        /// Reads what has arrived into `buffer`, waiting for at least one byte; 0 means the peer closed the connection.
        func read(into buffer: inout [UInt8]) throws -> Int
    }

    /// The point in time by which an exchange must be over, on the monotonic clock.
    struct Deadline: Sendable {
        private let uptimeNanoseconds: UInt64

        /// The deadline `seconds` from now.
        init(after seconds: TimeInterval) {
            let nanoseconds = UInt64(max(seconds, 0) * 1_000_000_000)
            uptimeNanoseconds = DispatchTime.now().uptimeNanoseconds &+ nanoseconds
        }

        /// What is left, in whole milliseconds rounded up, for `poll(2)`; 0 once it has passed.
        var remainingMilliseconds: Int32 {
            let now = DispatchTime.now().uptimeNanoseconds
            guard uptimeNanoseconds > now else { return 0 }
            return Int32(min((uptimeNanoseconds - now + 999_999) / 1_000_000, UInt64(Int32.max)))
        }
    }

    /// Ends an exchange's waiting from outside its thread: once stopped, every wait of its connection returns at
    /// once, so the thread does no more work for an exchange whose caller has already been answered.
    final class ExchangeSignal: @unchecked Sendable {
        // @unchecked: the descriptors are set once in init; `stopped` is read and written under `lock`.
        private let lock = Lock()
        private var stopped = false
        /// The end of a pipe that becomes readable when the exchange is stopped.
        let readDescriptor: Int32
        private let writeDescriptor: Int32

        init() throws {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else {
                throw TransportError(.other, url: nil, detail: "could not create a pipe (errno \(errno))")
            }
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            }
            readDescriptor = descriptors[0]
            writeDescriptor = descriptors[1]
        }

        deinit {
            close(readDescriptor)
            close(writeDescriptor)
        }

        /// Whether the exchange was stopped.
        var isStopped: Bool { lock.withLock { stopped } }

        /// Stops the exchange and wakes its thread.
        func stop() {
            let first = lock.withLock { () -> Bool in
                defer { stopped = true }
                return !stopped
            }
            guard first else { return }
            var byte: UInt8 = 1
            _ = Glibc.write(writeDescriptor, &byte, 1)
        }
    }

    /// Thrown inside an exchange's thread once the exchange was stopped; the caller has its answer already.
    struct ExchangeStopped: Error {}

    /// A TCP connection with non-blocking I/O, where every wait ends by the exchange's deadline or when the exchange
    /// is stopped.
    final class TCPConnection: ByteChannel {
        private let descriptor: Int32
        private let deadline: Deadline
        private let signal: ExchangeSignal
        private let url: URL

        private init(descriptor: Int32, deadline: Deadline, signal: ExchangeSignal, url: URL) {
            self.descriptor = descriptor
            self.deadline = deadline
            self.signal = signal
            self.url = url
        }

        deinit { close(descriptor) }

        /// Connects to `host` on `port`, trying each of its addresses in turn.
        static func open(host: String, port: Int, url: URL, deadline: Deadline, signal: ExchangeSignal) throws
            -> TCPConnection
        {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var addresses: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &addresses)
            guard status == 0, let first = addresses else {
                throw TransportError(.cannotConnect, url: url, detail: "the host name could not be resolved")
            }
            defer { freeaddrinfo(first) }
            var lastError: Int32 = 0
            for address in sequence(first: first, next: { $0.pointee.ai_next }) {
                if signal.isStopped { throw ExchangeStopped() }
                let info = address.pointee
                let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                let descriptor = socket(info.ai_family, flags, 0)
                guard descriptor >= 0 else {
                    lastError = errno
                    continue
                }
                let connection = TCPConnection(descriptor: descriptor, deadline: deadline, signal: signal, url: url)
                if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) != 0 {
                    guard errno == EINPROGRESS else {
                        lastError = errno
                        continue
                    }
                    try connection.wait(for: Int16(POLLOUT))
                    var code: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
                    guard code == 0 else {
                        lastError = code
                        continue
                    }
                }
                var one: Int32 = 1
                setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return connection
            }
            throw TransportError(.cannotConnect, url: url, detail: "could not connect (errno \(lastError))")
        }

        /// Waits until the socket is ready for `events`.
        ///
        /// - Throws: ``TransportError/Kind/timedOut`` once the deadline passes, ``ExchangeStopped`` once the exchange
        ///   is stopped.
        func wait(for events: Int16) throws {
            while true {
                if signal.isStopped { throw ExchangeStopped() }
                let remaining = deadline.remainingMilliseconds
                guard remaining > 0 else {
                    throw TransportError(.timedOut, url: url, detail: "no response within the timeout")
                }
                var descriptors = [
                    pollfd(fd: descriptor, events: events, revents: 0),
                    pollfd(fd: signal.readDescriptor, events: Int16(POLLIN), revents: 0),
                ]
                let ready = poll(&descriptors, 2, remaining)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw TransportError(.other, url: url, detail: "poll failed (errno \(errno))")
                }
                if descriptors[1].revents != 0 { throw ExchangeStopped() }
                // An error or hang-up is ready too: the next send or receive reports it.
                if descriptors[0].revents != 0 { return }
            }
        }

        func write(_ data: Data) throws {
            var offset = 0
            while offset < data.count {
                let sent = data.withUnsafeBytes { buffer -> Int in
                    guard let base = buffer.baseAddress else { return 0 }
                    return send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent >= 0 {
                    offset += sent
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    try wait(for: Int16(POLLOUT))
                } else if errno != EINTR {
                    throw TransportError(.connectionLost, url: url, detail: "sending failed (errno \(errno))")
                }
            }
        }

        func read(into buffer: inout [UInt8]) throws -> Int {
            while true {
                if signal.isStopped { throw ExchangeStopped() }
                let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if received >= 0 { return received }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    try wait(for: Int16(POLLIN))
                } else if errno != EINTR {
                    throw TransportError(.connectionLost, url: url, detail: "receiving failed (errno \(errno))")
                }
            }
        }
    }
#endif
