#if canImport(Glibc)
    import Foundation
    import HealthSignInHTTP
    import HealthSignInTestSupport
    import XCTest

    /// The libcurl transport against real HTTP and HTTPS servers on 127.0.0.1: its TLS checks (RFC 9525 names), what
    /// it refuses before sending, what it refuses on receiving, and what it keeps after a call (connections, not
    /// descriptors or threads).
    final class CurlHTTPTransportTests: XCTestCase {
        private static let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("curl-transport-\(UUID().uuidString)")
        /// One HTTPS server per certificate kind of the probe, started one after another (they share the
        /// certificates the first one makes), and a plain HTTP server.
        private static let servers = Result { () throws -> [String: LocalServer] in
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var servers: [String: LocalServer] = [:]
            for kind in ["ip", "wrong", "cn-only", "partial-wildcard", "wildcard"] {
                servers[kind] = try LocalServer(
                    script: "Tests/Tools/http_probe.py", arguments: ["--tls", directory.path, "--certificate", kind])
            }
            servers["http"] = try LocalServer(script: "Tests/Tools/http_probe.py")
            return servers
        }

        private var authority: URL { Self.directory.appendingPathComponent("ca.pem") }

        private func server(_ kind: String) throws -> LocalServer {
            try XCTUnwrap(try Self.servers.get()[kind])
        }

        private func url(_ kind: String, _ path: String, host: String = "127.0.0.1") throws -> URL {
            let scheme = kind == "http" ? "http" : "https"
            return try XCTUnwrap(URL(string: "\(scheme)://\(host):\(try server(kind).port)\(path)"))
        }

        private func transport(timeout: TimeInterval = 5, idleTimeout: TimeInterval = 60) -> CurlHTTPTransport {
            CurlHTTPTransport(
                configuration: .init(
                    timeout: timeout, additionalCertificateAuthorities: authority, idleTimeout: idleTimeout,
                    proxy: .none))
        }

        private func kind(of error: any Error) -> TransportError.Kind? { (error as? TransportError)?.kind }

        // MARK: - TLS

        func testAServerWhoseAuthorityIsTrustedAnswersOverTLS() async throws {
            let transport = transport()
            let echo = try await transport.send(
                HTTPRequestMessage(method: .post, url: try url("ip", "/echo?a=1"), body: Data("a=b".utf8)))
            XCTAssertEqual(echo.status, 200)
            let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: echo.body) as? [String: Any])
            XCTAssertEqual(fields["path"] as? String, "/echo?a=1")
            XCTAssertEqual(fields["body"] as? String, "a=b")
            let headers = try XCTUnwrap(fields["headers"] as? [String: String])
            XCTAssertEqual(headers["Accept-Encoding"], "identity")
            XCTAssertNil(headers["Expect"])
            let chunked = try await transport.send(HTTPRequestMessage(method: .get, url: try url("ip", "/chunked")))
            XCTAssertEqual(String(decoding: chunked.body, as: UTF8.self), "hello, world")
        }

        func testAnAuthorityTheSystemDoesNotTrustIsRefused() async throws {
            let transport = CurlHTTPTransport(configuration: .init(timeout: 5, proxy: .none))
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: try url("ip", "/echo")))
            ) { XCTAssertEqual(self.kind(of: $0), .insecureConnection, "\($0)") }
        }

        func testOnlySubjectAlternativeNamesCountAndAWildcardIsAWholeLabel() async throws {
            let transport = transport()
            let host = "foo.probe.localhost"
            let wildcard = try await transport.send(
                HTTPRequestMessage(method: .get, url: try url("wildcard", "/echo", host: host)))
            XCTAssertEqual(wildcard.status, 200)
            for kind in ["wrong", "cn-only", "partial-wildcard"] {
                await XCTAssertThrowsErrorAsync(
                    try await transport.send(HTTPRequestMessage(method: .get, url: try url(kind, "/echo", host: host)))
                ) { XCTAssertEqual(self.kind(of: $0), .insecureConnection, "\(kind): \($0)") }
            }
        }

        func testTheDefaultTransportTakesExtraAuthorities() async throws {
            let url = try url("ip", "/echo")
            let trusting = DefaultHTTPTransport(timeout: 5, additionalCertificateAuthorities: authority)
            let echo = try await trusting.send(HTTPRequestMessage(method: .get, url: url))
            XCTAssertEqual(echo.status, 200)
            await XCTAssertThrowsErrorAsync(
                try await DefaultHTTPTransport(timeout: 5).send(HTTPRequestMessage(method: .get, url: url))
            ) { XCTAssertEqual(self.kind(of: $0), .insecureConnection, "\($0)") }
        }

        func testAnUnreadableAuthoritiesFileFailsEveryHTTPSRequestWithTheReason() async throws {
            let missing = Self.directory.appendingPathComponent("missing.pem")
            let transport = CurlHTTPTransport(
                configuration: .init(timeout: 5, additionalCertificateAuthorities: missing, proxy: .none))
            await XCTAssertThrowsErrorAsync(
                try await transport.send(HTTPRequestMessage(method: .get, url: try url("ip", "/echo")))
            ) {
                XCTAssertEqual(self.kind(of: $0), .insecureConnection)
                XCTAssertTrue("\($0)".contains("missing.pem"), "\($0)")
            }
        }

        // MARK: - What is refused before sending

        func testAHostOrPortThatWouldReachAnotherPlaceIsRefused() async throws {
            let transport = transport()
            let port = try server("http").port
            for text in [
                "http://127.0.0.1:\(port + 65_536)/echo", "http://127.0.0.1%00.example:\(port)/echo",
                "http://b%C3%BCcher.example:\(port)/echo", "ftp://127.0.0.1/echo",
            ] {
                guard let url = URL(string: text) else { continue }
                await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url))) {
                    guard case .invalidURL? = $0 as? RequestEncodingError else { return XCTFail("\(text): \($0)") }
                }
            }
        }

        // MARK: - What is refused on receiving

        func testAHeaderValueWithAControlCharacterIsRefused() async throws {
            await XCTAssertThrowsErrorAsync(
                try await transport().send(HTTPRequestMessage(method: .get, url: try url("http", "/bad-header")))
            ) { XCTAssertNotNil(self.kind(of: $0), "\($0)") }
        }

        /// A body framed by the connection's end over TLS is whole only with the server's `close_notify`: libcurl
        /// takes an unannounced end for a clean one, so the transport checks, and the same body ended properly is
        /// read.
        func testABodyWithABadLengthOrCutShortOverTLSIsNeverAResponse() async throws {
            _ = try server("ip")  // its certificates, which the transport reads when made
            let transport = transport()
            for (kind, path, expected) in [
                ("http", "/bad-length", TransportError.Kind.other), ("ip", "/cut-close", .connectionLost),
            ] {
                await XCTAssertThrowsErrorAsync(
                    try await transport.send(HTTPRequestMessage(method: .get, url: try url(kind, path)))
                ) { XCTAssertEqual(self.kind(of: $0), expected, "\(path): \($0)") }
            }
            let whole = try await transport.send(HTTPRequestMessage(method: .get, url: try url("ip", "/close-notify")))
            XCTAssertEqual(whole.status, 200)
            XCTAssertEqual(String(decoding: whole.body, as: UTF8.self), "whole body")
        }

        /// A server that sends trailer fields without end cannot grow the process: each call stops at the header
        /// section's limit (80 KiB) with `responseTooLarge`, so 1 and then 50 concurrent calls, each with a body limit
        /// of 1 MiB, raise the peak resident size by less than the body limit plus 16 MiB (libcurl's buffers; about
        /// 2 MiB measured). Before the limit, a call read all 64 MiB the server sent and answered 200.
        func testEndlessTrailersCannotGrowTheProcess() async throws {
            let transport = CurlHTTPTransport(
                configuration: .init(timeout: 6, maximumResponseSize: 1 << 20, proxy: .none))
            let url = try url("http", "/endless-trailers")
            for concurrent in [1, 50] {
                let before = try Self.residentSize(resettingPeak: true)
                let kinds = await withTaskGroup(of: TransportError.Kind?.self) { group in
                    for _ in 0..<concurrent {
                        group.addTask {
                            do {
                                _ = try await transport.send(HTTPRequestMessage(method: .get, url: url))
                                return nil
                            } catch {
                                return (error as? TransportError)?.kind
                            }
                        }
                    }
                    return await group.reduce(into: [TransportError.Kind?]()) { $0.append($1) }
                }
                XCTAssertEqual(kinds, Array(repeating: .responseTooLarge, count: concurrent))
                let growth = try Self.residentSize(resettingPeak: false).peak - before.current
                print(
                    "CurlHTTPTransportTests: \(concurrent) endless-trailer calls raised the peak by \(growth >> 10) KiB"
                )
                XCTAssertLessThan(growth, (1 << 20) + (16 << 20), "\(concurrent) calls")
            }
        }

        /// The resident size and its peak, in bytes, from `/proc/self/status`; the peak is reset first when asked
        /// (`/proc/self/clear_refs`).
        private static func residentSize(resettingPeak: Bool) throws -> (current: Int, peak: Int) {
            if resettingPeak { try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8) }
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            func kibibytes(_ field: String) throws -> Int {
                let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
                return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) << 10
            }
            return (try kibibytes("VmRSS"), try kibibytes("VmHWM"))
        }

        // MARK: - Proxies

        func testHTTPSGoesThroughAProxyAsATunnelThatHidesTheToken() async throws {
            let record = Self.directory.appendingPathComponent("proxy-\(UUID().uuidString).bytes")
            let proxy = try LocalServer(script: "Tests/Tools/connect_proxy.py", arguments: ["--record", record.path])
            let proxyURL = try XCTUnwrap(URL(string: "http://127.0.0.1:\(proxy.port)"))
            let transport = CurlHTTPTransport(
                configuration: .init(
                    timeout: 5, additionalCertificateAuthorities: authority, proxy: .proxy(proxyURL)))
            let token = "secret-token-\(UUID().uuidString)"
            let echo = try await transport.send(
                HTTPRequestMessage(
                    method: .get, url: try url("ip", "/echo"), headers: ["Authorization": "Bearer \(token)"]))
            XCTAssertEqual(echo.status, 200)
            XCTAssertTrue(String(decoding: echo.body, as: UTF8.self).contains(token), "the server got the token")
            let seen = try Data(contentsOf: record)
            XCTAssertTrue(
                String(decoding: seen, as: UTF8.self).hasPrefix("CONNECT 127.0.0.1:"), "a tunnel was asked for")
            XCTAssertNil(seen.range(of: Data(token.utf8)), "the proxy saw the token in clear")
        }

        /// An explicit proxy is used even when the environment's `no_proxy` names the host: libcurl reads that variable
        /// under an explicit setting too, unless told not to, and the SDK's routes decide alone.
        func testAnExplicitProxyIsUsedWhateverNoProxySays() async throws {
            _ = try server("ip")  // its certificates, which the transport reads when made
            let record = Self.directory.appendingPathComponent("proxy-\(UUID().uuidString).bytes")
            let proxy = try LocalServer(script: "Tests/Tools/connect_proxy.py", arguments: ["--record", record.path])
            let proxyURL = try XCTUnwrap(URL(string: "http://127.0.0.1:\(proxy.port)"))
            setenv("no_proxy", "127.0.0.1,localhost", 1)
            defer { unsetenv("no_proxy") }
            let transport = CurlHTTPTransport(
                configuration: .init(
                    timeout: 5, additionalCertificateAuthorities: authority, proxy: .proxy(proxyURL)))
            let echo = try await transport.send(HTTPRequestMessage(method: .get, url: try url("ip", "/echo")))
            XCTAssertEqual(echo.status, 200)
            // The proxy writes its record only when a client connects to it.
            let seen = String(decoding: (try? Data(contentsOf: record)) ?? Data(), as: UTF8.self)
            XCTAssertTrue(seen.hasPrefix("CONNECT 127.0.0.1:"), "the request went around the proxy")
        }

        /// An `https` proxy is checked by its own name, and the target through it by the target's: a proxy whose
        /// certificate names 127.0.0.1 tunnels to `api.probe.localhost` (a wildcard certificate), twice on one
        /// connection and again on a new one; a proxy whose certificate names another host is refused.
        func testAnHTTPSProxyIsVerifiedByItsOwnName() async throws {
            _ = try server("ip")  // its certificates, which the proxies and the transport read
            func proxy(_ certificate: String) throws -> (LocalServer, URL) {
                let record = Self.directory.appendingPathComponent("proxy-\(UUID().uuidString).bytes")
                let proxy = try LocalServer(
                    script: "Tests/Tools/connect_proxy.py",
                    arguments: ["--record", record.path, "--tls", Self.directory.path, "--certificate", certificate])
                return (proxy, try XCTUnwrap(URL(string: "https://127.0.0.1:\(proxy.port)")))
            }
            func transport(through proxy: URL, idleConnections: Int) -> CurlHTTPTransport {
                CurlHTTPTransport(
                    configuration: .init(
                        timeout: 5, additionalCertificateAuthorities: authority,
                        maximumIdleConnections: idleConnections, proxy: .proxy(proxy), sharesConnectionPool: false))
            }
            let target = try url("wildcard", "/echo", host: "api.probe.localhost")
            let (trusted, trustedURL) = try proxy("ip")
            defer { trusted.stop() }
            for idleConnections in [16, 0] {
                let transport = transport(through: trustedURL, idleConnections: idleConnections)
                for _ in 0..<2 {
                    let echo = try await transport.send(HTTPRequestMessage(method: .get, url: target))
                    XCTAssertEqual(echo.status, 200, "pool of \(idleConnections)")
                }
                let plain = try await transport.send(HTTPRequestMessage(method: .get, url: try url("http", "/echo")))
                XCTAssertEqual(plain.status, 200, "a plain request through the same proxy")
            }
            let (misnamed, misnamedURL) = try proxy("wrong")
            defer { misnamed.stop() }
            await XCTAssertThrowsErrorAsync(
                try await transport(through: misnamedURL, idleConnections: 16).send(
                    HTTPRequestMessage(method: .get, url: target))
            ) { XCTAssertEqual(self.kind(of: $0), .insecureConnection, "\($0)") }
        }

        // MARK: - What a call leaves behind

        func testConnectionsAreReusedAndClosedOnceIdle() async throws {
            _ = try server("ip")  // its certificates, which the transport reads when made
            let transport = transport(idleTimeout: 0.5)
            var ports: Set<Int> = []
            for _ in 0..<5 {
                let echo = try await transport.send(HTTPRequestMessage(method: .get, url: try url("ip", "/echo")))
                let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: echo.body) as? [String: Any])
                ports.insert(try XCTUnwrap(fields["client_port"] as? Int))
            }
            XCTAssertEqual(ports.count, 1, "five calls in a row take one connection")
            let port = try XCTUnwrap(ports.first)
            XCTAssertEqual(Self.connections(fromLocalPort: port), 1, "the connection waits in the pool")
            XCTAssertTrue(transport.hasIOThread)
            try await Task.sleep(nanoseconds: 2_500_000_000)
            XCTAssertEqual(Self.connections(fromLocalPort: port), 0, "the idle connection is closed")
            XCTAssertFalse(transport.hasIOThread, "the I/O thread ends, and its wake-up sockets are closed")
        }

        /// How many of the process's descriptors are TCP connections from `port` on 127.0.0.1: sockets in
        /// `/proc/self/fd` whose inodes `/proc/self/net/tcp` lists with that local port. Other transports' pools in
        /// the process use other ports.
        private static func connections(fromLocalPort port: Int) -> Int {
            // Read to the end: procfs files report no size, and a whole-file read stops after the first page.
            let file = FileHandle(forReadingAtPath: "/proc/self/net/tcp")
            let table = String(decoding: file?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
            // Rows: `sl local_address rem_address st … inode …`, addresses as `HEXIP:HEXPORT`.
            let inodes = Set(
                table.split(separator: "\n").dropFirst().compactMap { row -> String? in
                    let columns = row.split(separator: " ")
                    guard columns.count > 9, let local = columns[1].split(separator: ":").last,
                        Int(local, radix: 16) == port
                    else { return nil }
                    return String(columns[9])
                })
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.filter { name in
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) ?? ""
                return inodes.contains(where: { target == "socket:[\($0)]" })
            }.count
        }

        /// No call leaves a descriptor behind: 10,000 of them fit in 64 descriptors beyond those the process holds
        /// already (which other tests' transports, idle connections and servers vary).
        func testTenThousandCallsInARowFitIn64DescriptorsMore() async throws {
            let transport = transport(timeout: 30)
            let url = try url("http", "/echo")
            var limit = rlimit()
            XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
            let saved = limit
            let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
            limit.rlim_cur = rlim_t(open + 64)
            XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
            defer {
                var restored = saved
                setrlimit(Int32(RLIMIT_NOFILE.rawValue), &restored)
            }
            for call in 0..<10_000 {
                let response = try await transport.send(HTTPRequestMessage(method: .get, url: url))
                guard response.status == 200 else { return XCTFail("call \(call): \(response.status)") }
            }
        }

        func testConcurrentCallsShareOneThread() async throws {
            let transport = transport()
            let url = try url("http", "/echo")
            let before = Self.threads()
            var most = before
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<1_000 {
                    group.addTask { try await transport.send(HTTPRequestMessage(method: .get, url: url)).status }
                }
                for try await status in group {
                    XCTAssertEqual(status, 200)
                    most = max(most, Self.threads())
                }
            }
            XCTAssertLessThanOrEqual(most - before, 4, "threads before: \(before), at most: \(most)")
        }

        /// `DefaultHTTPTransport` made for each call, as a handler might: 1,000 of them take one I/O thread and one
        /// kept-alive connection between them.
        func testTransportsMadePerCallShareOneThreadAndOnePool() async throws {
            let url = try url("http", "/echo")
            // The SDK's own threads, by name: the concurrency runtime and Dispatch add workers of their own when the
            // machine is busy, which says nothing about the transports.
            let before = Self.threadNames().filter { $0.hasPrefix("HealthSignIn") }
            var ports: Set<Int> = []
            for _ in 0..<1_000 {
                let echo = try await DefaultHTTPTransport(timeout: 5).send(HTTPRequestMessage(method: .get, url: url))
                let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: echo.body) as? [String: Any])
                ports.insert(try XCTUnwrap(fields["client_port"] as? Int))
            }
            let all = Self.threadNames()
            let after = all.filter { $0.hasPrefix("HealthSignIn") }
            print("1,000 transports made per call: SDK threads \(before) -> \(after), \(ports.count) connection(s)")
            XCTAssertLessThanOrEqual(
                after.count - before.count, 1, "the SDK's threads before: \(before), after: \(after); all: \(all)")
            XCTAssertEqual(ports.count, 1, "the calls took \(ports.count) connections")
        }

        /// A connection pooled under a permissive trust set (the test authority) is never handed to a transport that
        /// trusts only the system's authorities, nor to one that goes through a proxy: each opens its own.
        func testAPooledConnectionServesNoTransportWithOtherTrustOrProxy() async throws {
            let url = try url("ip", "/echo")
            let permissive = CurlHTTPTransport(
                configuration: .init(timeout: 5, additionalCertificateAuthorities: authority, proxy: .none))
            let first = try await permissive.send(HTTPRequestMessage(method: .get, url: url))
            XCTAssertEqual(first.status, 200)
            let strict = CurlHTTPTransport(configuration: .init(timeout: 5, proxy: .none))
            await XCTAssertThrowsErrorAsync(try await strict.send(HTTPRequestMessage(method: .get, url: url))) {
                XCTAssertEqual(self.kind(of: $0), .insecureConnection, "the permissive connection was reused: \($0)")
            }
            let record = Self.directory.appendingPathComponent("proxy-\(UUID().uuidString).bytes")
            let proxy = try LocalServer(script: "Tests/Tools/connect_proxy.py", arguments: ["--record", record.path])
            defer { proxy.stop() }
            let proxied = CurlHTTPTransport(
                configuration: .init(
                    timeout: 5, additionalCertificateAuthorities: authority,
                    proxy: .proxy(try XCTUnwrap(URL(string: "http://127.0.0.1:\(proxy.port)")))))
            let tunnelled = try await proxied.send(HTTPRequestMessage(method: .get, url: url))
            XCTAssertEqual(tunnelled.status, 200)
            let seen = String(decoding: (try? Data(contentsOf: record)) ?? Data(), as: UTF8.self)
            XCTAssertTrue(seen.hasPrefix("CONNECT 127.0.0.1:"), "the direct connection was reused")
        }

        private static func threads() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1
        }

        /// The names of this process's threads, sorted.
        private static func threadNames() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.compactMap { task in
                (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }.sorted()
        }
    }

#endif
