#if canImport(HealthSignInLibcurl)
    import Foundation
    import HealthSignInLibcurl

    /// One libcurl multi handle and the thread that drives it: every transfer of the transports that share it runs
    /// here, so calls share the connection pool, and the number of threads grows with neither calls nor transports.
    ///
    /// Transports with equal ``Settings`` share one engine (``shared(_:)``), unless they ask for one of their own. The
    /// settings hold everything that decides whether a pooled connection may serve a request: the authorities its
    /// certificate was checked against (a connection made under a permissive trust set is never reused by a strict
    /// one) and the pool's limits. libcurl itself reuses a connection only for the same proxy.
    ///
    /// Other threads only queue work (a transfer to add, one to cancel) and wake the I/O thread with
    /// `curl_multi_wakeup`; the multi handle and every easy handle are touched by the I/O thread alone. When no
    /// transfer has run for the idle timeout, the thread closes the multi handle (and so every pooled connection)
    /// and ends; the next transfer starts a new one.
    final class CurlEngine: @unchecked Sendable {
        // @unchecked: `queue`, `multi` and `running` are guarded by `lock`; the rest belongs to the I/O thread or is
        // set in `init` and never changed.
        private let lock = Lock()
        private var queue: [Work] = []
        private var multi: UnsafeMutableRawPointer?
        private var running = false
        private let settings: Settings
        /// The authorities every handshake of this engine's connections trusts, read once.
        let authorities: CertificateAuthorities

        /// What decides which engine, and so which pool, a transport uses.
        struct Settings: Hashable {
            /// The path of the extra certificate authorities' file, if any.
            let additionalCertificateAuthorities: String?
            let maximumIdleConnections: Int
            let maximumConnectionsPerHost: Int
            /// Seconds; finite and not negative.
            let idleTimeout: TimeInterval
        }

        private enum Work {
            case add(CurlTransfer)
            case cancel(CurlTransfer)
        }

        /// An engine of its own, shared with no other transport.
        init(_ settings: Settings) {
            CurlGlobal.initialize()
            self.settings = settings
            authorities = CertificateAuthorities(additional: settings.additionalCertificateAuthorities)
        }

        /// The process's engine for `settings`, made on first use and kept while a transport or a transfer holds it.
        static func shared(_ settings: Settings) -> CurlEngine { registry.engine(for: settings) }

        private static let registry = Registry()

        /// The shared engines, held weakly: an engine lives while a transport holds it or its I/O thread runs.
        private final class Registry: @unchecked Sendable {
            // @unchecked: `engines` is guarded by `lock`.
            private let lock = Lock()
            private var engines: [Settings: Weak] = [:]

            private struct Weak {
                weak var engine: CurlEngine?
            }

            func engine(for settings: Settings) -> CurlEngine {
                lock.withLock {
                    // An engine whose authorities could not be read is not handed out again: the file may be there now.
                    if let engine = engines[settings]?.engine, engine.authorities.problem == nil { return engine }
                    engines = engines.filter { $0.value.engine != nil }
                    let engine = CurlEngine(settings)
                    engines[settings] = Weak(engine: engine)
                    return engine
                }
            }
        }

        /// Whether the I/O thread runs (and so holds its multi handle, its wake-up sockets and its pool).
        var isRunning: Bool { lock.withLock { running } }

        /// Starts `transfer` on the I/O thread.
        func add(_ transfer: CurlTransfer) { enqueue(.add(transfer)) }

        /// Ends `transfer` at once with `CancellationError`, if it has not ended.
        func cancel(_ transfer: CurlTransfer) { enqueue(.cancel(transfer)) }

        private func enqueue(_ work: Work) {
            let start = lock.withLock { () -> Bool in
                queue.append(work)
                if running {
                    // Under the lock: the thread sets `multi` to nil, under the lock, before it closes the handle.
                    if let multi { curl_multi_wakeup(multi) }
                    return false
                }
                running = true
                return true
            }
            if start {
                Thread { [self] in
                    // Named for debuggers and /proc; Linux keeps at most 15 bytes.
                    healthsignin_name_thread("HealthSignInI/O")
                    run()
                }.start()
            }
        }

        /// The I/O thread's loop.
        private func run() {
            guard let handle = curl_multi_init() else {
                failQueued(TransportError(.other, url: nil, detail: "libcurl could not make a multi handle"))
                return
            }
            healthsignin_multi_setopt_long(handle, CURLMOPT_MAXCONNECTS, settings.maximumIdleConnections)
            healthsignin_multi_setopt_long(
                handle, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maximumConnectionsPerHost)
            lock.withLock { multi = handle }
            var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
            var idleSince = Date()
            while true {
                let work = lock.withLock { () -> [Work]? in
                    // Ends the thread when it has been idle long enough and nothing is queued.
                    if queue.isEmpty, active.isEmpty, Date().timeIntervalSince(idleSince) >= settings.idleTimeout {
                        multi = nil
                        running = false
                        return nil
                    }
                    defer { queue.removeAll() }
                    return queue
                }
                guard let work else { break }
                for item in work {
                    switch item {
                    case .add(let transfer):
                        guard !transfer.isFinished, let easy = transfer.easy else { continue }
                        if curl_multi_add_handle(handle, easy) == CURLM_OK {
                            active[easy] = transfer
                        } else {
                            transfer.finish(
                                .failure(
                                    TransportError(.other, url: transfer.url, detail: "libcurl refused the transfer")))
                        }
                    case .cancel(let transfer):
                        if let easy = transfer.easy, active.removeValue(forKey: easy) != nil {
                            curl_multi_remove_handle(handle, easy)
                        }
                        transfer.finish(.failure(CancellationError()))
                    }
                }
                var stillRunning: Int32 = 0
                curl_multi_perform(handle, &stillRunning)
                var remaining: Int32 = 0
                while let message = curl_multi_info_read(handle, &remaining) {
                    guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                    let code = message.pointee.data.result
                    curl_multi_remove_handle(handle, easy)
                    active.removeValue(forKey: easy)?.complete(code)
                }
                if !active.isEmpty { idleSince = Date() }
                // Waits for sockets, a wake-up or libcurl's own next timeout, and at most a second, so that the end
                // of the idle time is seen.
                curl_multi_poll(handle, nil, 0, 1000, nil)
            }
            for (easy, transfer) in active {
                curl_multi_remove_handle(handle, easy)
                transfer.finish(.failure(CancellationError()))
            }
            curl_multi_cleanup(handle)
        }

        /// Fails every queued transfer when the I/O thread cannot run.
        private func failQueued(_ error: TransportError) {
            let work = lock.withLock { () -> [Work] in
                running = false
                defer { queue.removeAll() }
                return queue
            }
            for case .add(let transfer) in work { transfer.finish(.failure(error)) }
        }
    }

    /// libcurl's process-wide set-up, done once before any handle is made.
    enum CurlGlobal {
        private static let initialized: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

        static func initialize() { _ = initialized }
    }
#endif
