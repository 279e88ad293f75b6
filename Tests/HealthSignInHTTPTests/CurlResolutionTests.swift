#if canImport(Glibc)
    import Foundation
    import HealthSignInHTTP
    import HealthSignInTestSupport
    import XCTest

    /// The libcurl transport where names and addresses misbehave: a name server that never answers, and a host whose
    /// first address never answers.
    ///
    /// Each test runs again in a child process with a network, an `/etc/resolv.conf` and an `/etc/hosts` of its own
    /// (`unshare`), so the machine's own are never touched; the child does the checks, and the parent passes when
    /// the child does.
    final class CurlResolutionTests: XCTestCase {
        private static let childVariable = "HEALTHSIGNIN_ISOLATED_NETWORK"
        private var isChild: Bool { ProcessInfo.processInfo.environment[Self.childVariable] != nil }

        func testANameLookupThatHangsEndsAtTheCallsDeadline() async throws {
            guard isChild else { return try runIsolated("testANameLookupThatHangsEndsAtTheCallsDeadline") }
            let nameServer = try LocalServer(script: "Tests/Tools/http_probe.py", arguments: ["--silent-dns"])
            defer { nameServer.stop() }
            let transport = CurlHTTPTransport(configuration: .init(timeout: 1, proxy: .none))
            let url = try XCTUnwrap(URL(string: "http://hung.test/echo"))
            XCTAssertEqual(Self.lookupThreads(), 0)
            let started = Date()
            await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url))) {
                XCTAssertEqual(($0 as? TransportError)?.kind, .timedOut, "\($0)")
            }
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertGreaterThan(elapsed, 0.9)
            XCTAssertLessThan(elapsed, 1.5, "the call ends at its deadline, not at the resolver's")
            // Other calls go on meanwhile: the lookup holds nothing they need.
            let other = Date()
            let echo = try await transport.send(
                HTTPRequestMessage(method: .get, url: nameServer.baseURL.appendingPathComponent("echo")))
            XCTAssertEqual(echo.status, 200)
            XCTAssertLessThan(Date().timeIntervalSince(other), 0.5)
            // The lookup goes on on its own thread until getaddrinfo gives up (glibc: 5 s, two tries); it holds
            // nothing of the call's. It is bounded, and measured here.
            let lingering = Self.lookupThreads()
            var gone: TimeInterval?
            while Date().timeIntervalSince(started) < 20 {
                if Self.lookupThreads() == 0 {
                    gone = Date().timeIntervalSince(started)
                    break
                }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            print("name lookup: call ended after \(elapsed) s; \(lingering) thread(s) lingered until \(gone ?? -1) s")
            XCTAssertEqual(lingering, 1, "one thread looks the name up")
            XCTAssertNotNil(gone, "the resolver's thread ends once the lookup gives up")
        }

        /// Sixteen names whose lookups hang hold no other lookup: a name the hosts file answers is reached at once, and
        /// every lookup thread ends when the resolver gives up (glibc: two tries of 5 s), long after its call.
        func testHangingLookupsHoldNoOtherLookup() async throws {
            guard isChild else { return try runIsolated("testHangingLookupsHoldNoOtherLookup") }
            let nameServer = try LocalServer(script: "Tests/Tools/http_probe.py", arguments: ["--silent-dns"])
            defer { nameServer.stop() }
            let transport = CurlHTTPTransport(configuration: .init(timeout: 30, proxy: .none))
            let hanging = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 1...16 {
                        let url = try XCTUnwrap(URL(string: "http://hung\(index).test/echo"))
                        group.addTask { _ = try? await transport.send(HTTPRequestMessage(method: .get, url: url)) }
                    }
                    try await group.waitForAll()
                }
            }
            let started = Date()
            while Self.lookupThreads() < 16, Date().timeIntervalSince(started) < 5 {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            XCTAssertEqual(Self.lookupThreads(), 16, "each hanging name has a thread")
            let answered = Date()
            let url = try XCTUnwrap(URL(string: "http://answered.test:\(nameServer.port)/echo"))
            let echo = try await transport.send(HTTPRequestMessage(method: .get, url: url))
            let elapsed = Date().timeIntervalSince(answered)
            XCTAssertEqual(echo.status, 200)
            XCTAssertLessThan(elapsed, 1, "the answerable name waited behind the hanging ones")
            hanging.cancel()
            var gone: TimeInterval?
            while Date().timeIntervalSince(started) < 30 {
                if Self.lookupThreads() == 0 {
                    gone = Date().timeIntervalSince(started)
                    break
                }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            print("name lookup: 16 hanging, the answerable one took \(elapsed) s; threads gone after \(gone ?? -1) s")
            XCTAssertNotNil(gone, "every lookup thread ends once the resolver gives up")
        }

        func testAHostWhoseFirstAddressIsSilentAnswersThroughTheNext() async throws {
            guard isChild else { return try runIsolated("testAHostWhoseFirstAddressIsSilentAnswersThroughTheNext") }
            let server = try LocalServer(script: "Tests/Tools/http_probe.py", arguments: ["--silent-ipv6"])
            let transport = CurlHTTPTransport(configuration: .init(timeout: 5, proxy: .none))
            let url = try XCTUnwrap(URL(string: "http://dual.test:\(server.port)/echo"))
            let started = Date()
            let echo = try await transport.send(HTTPRequestMessage(method: .get, url: url))
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertEqual(echo.status, 200)
            print("happy eyeballs: answered through 127.0.0.1 after \(elapsed) s")
            XCTAssertLessThan(elapsed, 2, "the IPv4 address was tried while ::1 stayed silent")
        }

        /// Runs `test` again in a child process with a network namespace of its own, where `hung.test` resolves
        /// through a name server on 127.0.0.1, `answered.test` is
        /// 127.0.0.1 by the hosts file, and `dual.test` is `::1` first, then 127.0.0.1.
        private func runIsolated(_ test: String) throws {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("isolated-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let resolver = directory.appendingPathComponent("resolv.conf")
            let hosts = directory.appendingPathComponent("hosts")
            try Data("nameserver 127.0.0.1\n".utf8).write(to: resolver)
            try Data("127.0.0.1 localhost answered.test\n::1 dual.test\n127.0.0.1 dual.test\n".utf8).write(to: hosts)
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            let script = """
                ip link set lo up && mount --bind "$1" /etc/resolv.conf && mount --bind "$2" /etc/hosts && \
                shift 2 && exec "$@"
                """
            process.arguments = [
                "--map-root-user", "--mount", "--net", "/bin/sh", "-c", script, "isolated", resolver.path, hosts.path,
                executable, "HealthSignInHTTPTests.CurlResolutionTests/\(test)",
            ]
            process.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: "1"]) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            let summary = printed.split(separator: "\n").filter {
                $0.contains("error") || $0.contains("name lookup:") || $0.contains("happy eyeballs:")
                    || $0.contains("Executed")
            }
            print(summary.joined(separator: "\n"))
            XCTAssertEqual(process.terminationStatus, 0, "the isolated run failed:\n\(printed)")
            XCTAssertTrue(printed.contains("Executed 1 test"), "the isolated run ran no test:\n\(printed)")
        }

        /// The transport's name lookup threads, by their name.
        private static func lookupThreads() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            return tasks.filter { task in
                let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                return name == "HealthSignInDNS\n"
            }.count
        }
    }
#endif
