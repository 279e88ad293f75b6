import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every call ends by its deadline whatever the server sends, and leaves no work behind: a compressed body nobody
/// asked for is refused before it is decoded, and a 401 with an authentication challenge is the server's answer at
/// once.
final class BoundedWorkTests: XCTestCase {
    private static let shared = Emulator.shared
    private var emulator: Emulator!

    override func setUp() async throws {
        emulator = try Self.shared.get()
        try await emulator.control("reset")
    }

    /// The transports whose every path is bounded on this platform.
    private func transports(timeout: TimeInterval) -> [(String, any HTTPTransport)] {
        var transports: [(String, any HTTPTransport)] = [("default", DefaultHTTPTransport(timeout: timeout))]
        #if canImport(Darwin)
            // Apple's URLSession decodes as the body streams and stops when cancelled; libcurl, under URLSession on
            // Linux, decodes the whole body first (see URLSessionHTTPTransport), so it is not listed there.
            transports.append(("URLSession", URLSessionHTTPTransport(configuration: .init(timeout: timeout))))
        #endif
        return transports
    }

    /// The CPU time this process has used, user and system, in seconds.
    private static func processorSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    func testACompressionBombEndsTheCallAtOnceAndNoWorkGoesOnAfterwards() async throws {
        for (name, transport) in transports(timeout: 5) {
            // 13 KB of gzip in gzip (8 GiB of zeros), and 8 MB of gzip: under the size limit as sent.
            for layers in ["2", "1"] {
                let url = emulator.url("/_stream/encoded").appending(queryItems: [.init(name: "layers", value: layers)])
                let started = Date()
                await XCTAssertThrowsErrorAsync(try await transport.send(HTTPRequestMessage(method: .get, url: url))) {
                    XCTAssertEqual((($0 as? TransportError)?.kind), .unrequestedEncoding, "\(name) \(layers): \($0)")
                    XCTAssertEqual(($0 as? any SDKError)?.recovery, ErrorRecovery.none)
                }
                let elapsed = Date().timeIntervalSince(started)
                XCTAssertLessThan(elapsed, 5, "\(name), \(layers) layers: the call took \(elapsed) s")
                let atError = Self.processorSeconds()
                try await Task.sleep(nanoseconds: 2_000_000_000)
                let afterwards = Self.processorSeconds() - atError
                XCTAssertLessThan(afterwards, 0.5, "\(name), \(layers) layers: \(afterwards) s of CPU after the error")
            }
        }
    }

    func testTheRequestAsksForTheIdentityEncoding() async throws {
        let recorded = try await DefaultHTTPTransport(timeout: 5).send(
            HTTPRequestMessage(method: .get, url: emulator.url("/_echo/headers")))
        let headers = try XCTUnwrap(JSONSerialization.jsonObject(with: recorded.body) as? [String: String])
        XCTAssertEqual(headers["Accept-Encoding"], "identity")
    }

    func testAWrongPortalSecretIsTheServersUnauthorizedAtOnce() async throws {
        var transports = transports(timeout: 30)
        #if !canImport(Darwin)
            // The challenge is answered in URLSession's delegate, on Linux too.
            transports.append(("URLSession", URLSessionHTTPTransport()))
        #endif
        for (name, transport) in transports {
            let backend = KoppeltaalBackend(
                configuration: .init(
                    launchURL: emulator.url("/kt/OAuth2/Koppeltaal"),
                    credentials: BasicCredentials(username: "portal", password: "not-the-secret"),
                    urlPolicy: URLPolicy(allowsInsecureLoopback: true), transport: transport))
            let started = Date()
            await XCTAssertThrowsErrorAsync(
                try await backend.mobileLaunch(
                    clientID: "KTSTESTGAME", patient: "https://portal.example/Patient/72308",
                    user: "https://portal.example/RelatedPerson/452")
            ) {
                XCTAssertEqual(($0 as? UnexpectedResponseError)?.response.status, 401, "\(name): \($0)")
            }
            let elapsed = Date().timeIntervalSince(started)
            XCTAssertLessThan(elapsed, 5, "\(name): the 401 took \(elapsed) s")
        }
    }
}
