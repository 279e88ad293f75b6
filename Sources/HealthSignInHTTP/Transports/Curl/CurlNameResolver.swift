#if canImport(HealthSignInLibcurl)
    import Foundation
    import HealthSignInLibcurl
    #if canImport(Glibc)
        import Glibc
    #endif

    /// Name lookups for ``CurlHTTPTransport``, on a few threads of their own, so that a lookup that hangs never holds
    /// the I/O thread or outlasts its caller's deadline.
    ///
    /// libcurl's own threaded resolver joins a lookup's thread when its transfer ends, so a name server that never
    /// answers would stop every transfer of the I/O thread until `getaddrinfo` gives up (10 s with glibc's
    /// defaults). Here the caller stops waiting at its deadline or on cancellation, and the lookup finishes on its
    /// own thread. Each name being looked up has a thread of its own, however many calls wait for it, so a name that
    /// hangs never holds another: at most ``maximumThreads`` run at once (further names wait for one to end), and a
    /// thread ends as soon as no lookup is queued. What a lookup finds is used for a minute.
    final class CurlNameResolver: @unchecked Sendable {
        // @unchecked: every stored property is guarded by `lock`.
        /// The process's resolver, shared by every transport.
        static let shared = CurlNameResolver()

        /// How many lookups may run at once: far more names than a process reaches at once, each thread small.
        let maximumThreads = 64
        /// Each lookup thread's stack: `getaddrinfo` and the name service modules need far less than the default 8 MiB.
        private let threadStackSize = 512 << 10
        private let lock = Lock()
        /// Names waiting for a thread, oldest first.
        private var queued: [String] = []
        /// The callers of each queued or running lookup, by name, then by their own number.
        private var waiting: [String: [Int: CheckedContinuation<[String], any Error>]] = [:]
        private var threads = 0
        private var nextWaiter = 0
        /// Addresses found in the last minute, as libcurl's own cache keeps them, so that a run of calls to one host
        /// costs one lookup.
        private var cache: [String: (addresses: [String], until: Date)] = [:]
        /// How long a lookup's addresses are used, and how many names are kept.
        private let cacheLifetime: TimeInterval = 60
        private let cacheLimit = 256

        /// The addresses of `host` as text, in the order `getaddrinfo` gives them.
        ///
        /// - Throws: ``TransportError`` (`cannotConnect`) when the name has no address, (`timedOut`) when `timeout`
        ///   seconds pass first; `CancellationError` when the task is cancelled.
        func addresses(of host: String, timeout: TimeInterval?) async throws -> [String] {
            let (cached, waiter) = lock.withLock { () -> ([String]?, Int) in
                nextWaiter += 1
                guard let entry = cache[host], entry.until > Date() else { return (nil, nextWaiter) }
                return (entry.addresses, nextWaiter)
            }
            if let cached { return cached }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    enqueue(host, waiter: waiter, continuation: continuation)
                    if let timeout {
                        // The timer holds the name and a number, nothing of the request's, however long it waits.
                        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(timeout * 1000))) {
                            [weak self] in
                            self?.answer(
                                host, waiter: waiter,
                                with: .failure(
                                    TransportError(.timedOut, url: nil, detail: "the name lookup took too long")))
                        }
                    }
                }
            } onCancel: {
                answer(host, waiter: waiter, with: .failure(CancellationError()))
            }
        }

        private func enqueue(_ host: String, waiter: Int, continuation: CheckedContinuation<[String], any Error>) {
            let startsThread = lock.withLock { () -> Bool in
                let isNew = waiting[host] == nil
                if isNew {
                    waiting[host] = [:]
                    queued.append(host)
                }
                waiting[host]?[waiter] = continuation
                guard isNew, threads < maximumThreads else { return false }
                threads += 1
                return true
            }
            if startsThread {
                let thread = Thread { [self] in
                    // Named for debuggers and /proc; Linux keeps at most 15 bytes.
                    healthsignin_name_thread("HealthSignInDNS")
                    work()
                }
                thread.stackSize = threadStackSize
                thread.start()
            }
        }

        /// Answers one caller, if it is still waiting (a cancelled or timed-out caller is answered once).
        private func answer(_ host: String, waiter: Int, with result: Result<[String], any Error>) {
            let continuation = lock.withLock { waiting[host]?.removeValue(forKey: waiter) }
            continuation?.resume(with: result)
        }

        /// A lookup thread: takes names until none is queued, then ends.
        private func work() {
            while let host = lock.withLock({ () -> String? in
                guard !queued.isEmpty else {
                    threads -= 1
                    return nil
                }
                return queued.removeFirst()
            }) {
                let result = Self.lookUp(host)
                let continuations = lock.withLock { () -> [Int: CheckedContinuation<[String], any Error>] in
                    if case .success(let addresses) = result {
                        if cache.count >= cacheLimit { cache.removeAll() }
                        cache[host] = (addresses, Date().addingTimeInterval(cacheLifetime))
                    }
                    return waiting.removeValue(forKey: host) ?? [:]
                }
                for continuation in continuations.values { continuation.resume(with: result) }
            }
        }

        /// `getaddrinfo` for a stream socket of any family.
        private static func lookUp(_ host: String) -> Result<[String], any Error> {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, nil, &hints, &list)
            defer { if let list { freeaddrinfo(list) } }
            guard status == 0 else {
                let reason = String(cString: gai_strerror(status))
                return .failure(TransportError(.cannotConnect, url: nil, detail: "\(host) was not found: \(reason)"))
            }
            var addresses: [String] = []
            var entry = list
            while let current = entry {
                if let address = text(of: current.pointee), !addresses.contains(address) { addresses.append(address) }
                entry = current.pointee.ai_next
            }
            guard !addresses.isEmpty else {
                return .failure(TransportError(.cannotConnect, url: nil, detail: "\(host) has no address"))
            }
            return .success(addresses)
        }

        /// An address as libcurl's `CURLOPT_RESOLVE` takes it: dotted IPv4, or IPv6 in brackets.
        private static func text(of info: addrinfo) -> String? {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard let address = info.ai_addr,
                getnameinfo(address, info.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
            else { return nil }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return info.ai_family == AF_INET6 ? "[\(text)]" : text
        }
    }
#endif
