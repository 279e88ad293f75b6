import Foundation
import XCTest

@testable import HealthSignInTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The conformance suite's server: what any client sends it is untrusted, and nothing of it outlives `stop()`.
final class ProbeServerTests: XCTestCase {
    func testMalformedRequestsAreAnsweredWithAnErrorAndTheServerGoesOn() throws {
        let server = try ProbeServer()
        defer { server.stop() }
        let cases: [(request: [UInt8], status: String)] = [
            (Array("GARBAGE\r\n\r\n".utf8), "400"),
            (Array("GET /echo HTTP/1.1 extra\r\n\r\n".utf8), "400"),
            (Array("GET echo HTTP/1.1\r\n\r\n".utf8), "400"),
            (Array("GET /echo HTTP/2.0\r\n\r\n".utf8), "400"),
            (Array("GET /echo HTTP/1.1\r\nno colon here\r\n\r\n".utf8), "400"),
            (Array("GET /echo HTTP/1.1\r\nX: a\u{1}b\r\n\r\n".utf8), "400"),
            (Array("POST /echo HTTP/1.1\r\nContent-Length: -1\r\n\r\n".utf8), "400"),
            (Array("POST /echo HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n".utf8), "400"),
            (Array("POST /echo HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab".utf8), "400"),
            (Array("POST /echo HTTP/1.1\r\nContent-Length: 2000000\r\n\r\n".utf8), "413"),
            (Array("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".utf8), "501"),
            ([0xFF, 0xFE, 0x00, 0x01, 0x0D, 0x0A, 0x0D, 0x0A], "400"),
            (Array(("GET /" + String(repeating: "a", count: 20_000) + " HTTP/1.1\r\n\r\n").utf8), "431"),
            (Array(repeating: 0x41, count: 40_000), "431"),
            (Array("GET /status/99999 HTTP/1.1\r\n\r\n".utf8), "404"),
            (Array("GET /nowhere HTTP/1.1\r\n\r\n".utf8), "404"),
        ]
        for (request, status) in cases {
            let answer = try Self.exchange(request, port: server.port)
            XCTAssertTrue(
                answer.hasPrefix("HTTP/1.1 \(status) "),
                "\(String(decoding: request.prefix(60), as: UTF8.self)): \(answer)")
            XCTAssertTrue(answer.contains("Connection: close\r\n"), answer)
        }
        // A client that connects and leaves, or sends half a head and leaves, ends only its own connection.
        _ = try Self.exchange([], port: server.port)
        _ = try Self.exchange(Array("GET /echo HTTP/1.1\r\nHost: x".utf8), port: server.port, halfClose: true)
        let echo = try Self.exchange(Array("GET /echo?a=1 HTTP/1.1\r\nX-Probe: yes\r\n\r\n".utf8), port: server.port)
        XCTAssertTrue(echo.hasPrefix("HTTP/1.1 200 OK\r\n"), echo)
        XCTAssertTrue(echo.contains(#""X-Probe":"yes""#), echo)
    }

    func testStopEndsEveryConnectionAndLeavesNothingOpen() async throws {
        let before = Self.openDescriptors()
        let server = try ProbeServer()
        let port = server.port
        // A client waiting for the slow answer, whose connection stop() must end long before the answer is due.
        let request = Array("GET /slow HTTP/1.1\r\n\r\n".utf8)
        let waiting = Task.detached { try ProbeServerTests.exchange(request, port: port) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let started = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        let answer = try await waiting.value
        XCTAssertEqual(answer, "", "the slow answer was not sent")
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        XCTAssertThrowsError(try Self.exchange(Array("GET /echo HTTP/1.1\r\n\r\n".utf8), port: port))
        server.stop()
        // The server's kinds only: the runtime opens a timer descriptor of its own on the first `Task.sleep`.
        if let before, let after = Self.openDescriptors() {
            let left = after.subtracting(before).filter { $0.contains("socket:") || $0.contains("pipe:") }
            XCTAssertEqual(left.sorted(), [], "descriptors that outlived stop()")
        }
    }

    // MARK: - A raw client

    private struct ConnectionRefused: Error {}

    /// Sends `bytes` on a new connection to 127.0.0.1:`port` and reads until the server closes it.
    private static func exchange(_ bytes: [UInt8], port: Int, halfClose: Bool = false) throws -> String {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { _ = close(descriptor) }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ConnectionRefused() }
        if !bytes.isEmpty {
            // The server may answer (and close) before it has read all of an oversized request.
            _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
        }
        if halfClose || bytes.isEmpty { _ = shutdown(descriptor, Int32(SHUT_WR)) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += chunk[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// This process's open descriptors, each as its number and what it refers to, where the system lists them.
    private static func openDescriptors() -> Set<String>? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return Set(
            names.map { name in
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")
                return "\(name) -> \(target ?? "?")"
            })
    }
}
