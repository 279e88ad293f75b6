import Foundation
import HealthSignInCore

/// The contract of `HTTPTransport`, as checks any transport can be run through: the SDK's own transports pass it,
/// and so must one written for another HTTP client.
///
/// The suite starts an HTTP/1.1 server of its own on 127.0.0.1 (an ephemeral port, stopped when the run ends) that
/// answers each check as it needs: an echo of the request, redirects, a challenge, a gzip body nobody asked for, a
/// chunked body, an interim response, an error status, a body cut short, a slow answer. It reports what failed rather
/// than asserting, so it works with any test framework:
///
/// ```swift
/// let report = try await HTTPTransportConformance { timeout in
///     URLSessionHTTPTransport(configuration: .init(timeout: timeout))
/// }.run()
/// XCTAssertEqual(report.failures, [], "\(report)")
/// ```
///
/// With Swift Testing, `#expect(report.failures.isEmpty, "\(report)")` does the same.
///
/// Each check makes a transport of its own with the closure it is given, passing the timeout the transport should
/// give a request that sets none: 30 seconds, less where a check waits for the timeout. The checks run one after
/// another, each within 20 seconds, so a transport that hangs fails its check instead of the test run.
public struct HTTPTransportConformance: Sendable {
    /// One promise of the contract, and what a server plays at the URL the check is given.
    ///
    /// The answers described here are those of the suite's own server; a subject with a server of its own
    /// (``HTTPTransportConformance/init(skipping:probeURL:makeTransport:)``) plays the same at the URL it gives for
    /// the check.
    public enum Check: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The method, header fields and body arrive as given, with `Accept-Encoding: identity`. The server echoes
        /// the request as a JSON object: `method`, `path` (the request target, query included), `headers` (each
        /// field by name) and `body` (the body as text).
        case requestSentAsGiven
        /// A 302 is the response, not followed, even with credentials in the request. The server answers 302 with
        /// `Location: /echo`.
        case redirectReturned
        /// A redirect to another host is the response: nothing, and least of all the credentials, goes there. The
        /// server answers 307 with `Location: https://collector.example/steal`.
        case redirectToAnotherHostReturned
        /// A 401 is the response at once, its challenge not answered. The server answers 401 with
        /// `WWW-Authenticate: Basic realm="probe"` and the body `{"error":"unauthorized"}`.
        case challengeReturned
        /// A body in a content coding the request did not ask for is refused with a `TransportError` of kind
        /// `unrequestedEncoding`. The server answers 200 with `Content-Encoding: gzip`.
        case unrequestedEncodingRefused
        /// A chunked body is read whole. The server answers 200 with `hello, world` in the chunked coding, with a
        /// chunk extension.
        case chunkedBodyRead
        /// An interim (1xx) response is passed over for the final one. The server answers 103 Early Hints, then 200
        /// with the body `final`.
        case interimResponseSkipped
        /// An error status is a response, with its `Retry-After`. The server answers 503 with `Retry-After: 7`.
        case errorStatusReturned
        /// A body that ends before its `Content-Length` is a `TransportError`, never a response. The server
        /// promises 63 bytes, sends 30 and closes the connection.
        case bodyCutShortRefused
        /// The transport's timeout ends a request with a `TransportError` of kind `timedOut`
        /// naming the host, long before the answer. The transport is made with a timeout of 0.6 seconds; the server
        /// answers after 3 seconds.
        case timeoutEndsTheRequest
        /// A request timeout that is NaN, zero or negative is `ConfigurationError.invalidTimeout`, and an
        /// infinite one means no timeout. The server answers at once.
        case invalidTimeoutRefused
        /// A body beyond the request's `maximumResponseSize` (4 bytes here, then -1, which refuses any body and stops
        /// nothing) is a `TransportError` of kind `responseTooLarge`. The server answers 200 with a body of more than
        /// 4 bytes in the chunked coding, so no length announces it.
        case sizeLimitEnforced
        /// Cancelling the calling task ends the request within a second with `CancellationError`. The server
        /// answers after 3 seconds, and the task is cancelled after 0.2.
        case cancellationEndsTheRequest
        /// An origin where nothing accepts connections is a `TransportError` of kind
        /// `cannotConnect`. The suite's own origin refuses every connection.
        case unreachableOriginReported
        /// A response framed two ways, or in a form parsers read differently, is a `TransportError`, never a response:
        /// `Content-Length` beside `Transfer-Encoding: chunked`, `Transfer-Encoding: chunked, chunked`,
        /// `Content-Length: +5`, and header lines ending in a bare LF. The check's URL ends in `/framing/both`; the
        /// others are its siblings.
        case conflictingFramingRefused
        /// A URL with userinfo (`user:secret@`) is refused with a `RequestEncodingError` before anything is sent:
        /// clients turn it into `Authorization: Basic`. The server would echo the request.
        case userinfoRefused
        /// The timeout holds for the whole exchange, body included: a body trickled after a prompt head ends with a
        /// `TransportError` of kind `timedOut` once the timeout passes. The transport is made with a timeout of 1.5
        /// seconds; the server sends the head at once, then one byte of a 20-byte body every quarter second.
        case trickledBodyTimesOut
        /// A header section past `HTTPResponseMessage.maximumHeaderSectionSize` (80 KiB) is a `TransportError` of
        /// kind `responseTooLarge`. The server answers 200 `ok` after 160 header fields of 1 KiB each.
        case oversizedHeadRefused
        /// Trailers after a chunked body count toward the header section's limit: a server that sends them without
        /// end gets a `TransportError` of kind `responseTooLarge`, not a response once it tires. The server answers
        /// 200 `hello` in the chunked coding, then trailer fields of 1 KiB until the client goes away (at most
        /// 64 MiB).
        case endlessTrailersRefused
        /// Over TLS, a body framed by the end of the connection and cut without TLS's `close_notify` is a
        /// `TransportError` of kind `connectionLost`, never a response: anyone on the path can end a TCP connection.
        /// The server answers 200 with `Connection: close` and no length, sends 30 bytes of a 63-byte JSON body, and
        /// closes the TCP connection. This check needs an HTTPS server: the `tlsServer` given to
        /// ``HTTPTransportConformance/init(skipping:tlsServer:makeTransport:)``, or the subject's own; without one it
        /// is skipped.
        case tlsCutShortRefused

        /// The check's name.
        public var description: String { rawValue }
    }

    /// A check that failed, and what the transport did instead.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// The check that failed.
        public let check: Check
        /// What the transport did, and what the check expected.
        public let message: String

        /// Creates a failure of `check`.
        public init(check: Check, message: String) {
            self.check = check
            self.message = message
        }

        /// `check: message`.
        public var description: String { "\(check): \(message)" }
    }

    /// What a run found, check by check, in the order of `Check.allCases`.
    public struct Report: Sendable, Hashable, CustomStringConvertible {
        /// The checks the transport passed.
        public let passed: [Check]
        /// The checks it failed, each with what happened.
        public let failures: [Failure]
        /// The checks not run, as the subject asked.
        public let skipped: [Check]

        /// Creates a report.
        public init(passed: [Check], failures: [Failure], skipped: [Check]) {
            self.passed = passed
            self.failures = failures
            self.skipped = skipped
        }

        /// The counts, then each failure on a line of its own.
        public var description: String {
            let counts = "\(passed.count) passed, \(failures.count) failed, \(skipped.count) skipped"
            return ([counts] + failures.map { "- \($0)" }).joined(separator: "\n")
        }
    }

    private let makeTransport: @Sendable (TimeInterval) -> any HTTPTransport
    private let probeURL: (@Sendable (Check) async throws -> URL)?
    private let tlsServer: URL?
    /// The checks this suite does not run.
    public let skipped: Set<Check>

    /// A suite that runs every check, except those in `skipped`, against the suite's own server.
    ///
    /// - Parameters:
    ///   - skipped: Checks not to run, each reported as skipped: for a transport that deliberately differs there
    ///     (say so where you pass it). Empty by default: a transport for the SDK passes every check.
    ///   - tlsServer: The base URL of an HTTPS server, trusted by the transports `makeTransport` makes, that plays
    ///     ``Check/tlsCutShortRefused`` at `/cut-close`; without it that check is skipped. (The suite's own server
    ///     speaks plain HTTP, and a transport's trust is its own to set up.)
    ///   - makeTransport: Makes the transport to check, applying the given timeout (seconds) to every request
    ///     that sets none. Called once per check.
    public init(
        skipping skipped: Set<Check> = [], tlsServer: URL? = nil,
        makeTransport: @escaping @Sendable (TimeInterval) -> any HTTPTransport
    ) {
        self.makeTransport = makeTransport
        self.probeURL = nil
        self.tlsServer = tlsServer
        self.skipped = tlsServer == nil ? skipped.union([.tlsCutShortRefused]) : skipped
    }

    /// A suite whose checks send their requests to URLs a server of the subject's own plays, for a transport that
    /// reaches no socket (such as the test kit's ``TestServerTransport``).
    ///
    /// Such a server may not be able to play every check's answer; the checks it cannot play must be named in
    /// `skipped`, so what a subject leaves out is written where it is tested.
    ///
    /// - Parameters:
    ///   - skipped: The checks not to run, each reported as skipped.
    ///   - probeURL: Sets the subject's server up to answer as ``Check`` describes for the given check, and returns
    ///     the URL to send the check's requests to (for ``Check/unreachableOriginReported``, a URL of an origin
    ///     nothing answers at). Called once before each check that runs; an error it throws fails that check.
    ///   - makeTransport: Makes the transport to check, applying the given timeout (seconds) to every request
    ///     that sets none. Called once per check.
    public init(
        skipping skipped: Set<Check>, probeURL: @escaping @Sendable (Check) async throws -> URL,
        makeTransport: @escaping @Sendable (TimeInterval) -> any HTTPTransport
    ) {
        self.makeTransport = makeTransport
        self.probeURL = probeURL
        self.tlsServer = nil
        self.skipped = skipped
    }

    /// Runs the checks one after another and reports each.
    ///
    /// - Throws: An error only when the suite's own server cannot start (no socket on 127.0.0.1); what a transport
    ///   does wrong is in the report.
    public func run() async throws -> Report {
        let server = probeURL == nil ? try ProbeServer() : nil
        defer { server?.stop() }
        var passed: [Check] = []
        var failures: [Failure] = []
        var skippedChecks: [Check] = []
        for check in Check.allCases {
            if skipped.contains(check) {
                skippedChecks.append(check)
                continue
            }
            do {
                let url: URL
                if let probeURL {
                    url = try await probeURL(check)
                } else if check == .tlsCutShortRefused, let tlsServer {
                    url = tlsServer.appendingPathComponent("cut-close")
                } else if let server {
                    url = Self.url(of: check, on: server)
                } else {
                    preconditionFailure("the suite's own server runs whenever the subject plays no probes")
                }
                let makeTransport = makeTransport
                try await Self.within(seconds: 20) { try await Self.perform(check, at: url, makeTransport) }
                passed.append(check)
            } catch let failure as CheckFailure {
                failures.append(Failure(check: check, message: failure.message))
            } catch {
                failures.append(Failure(check: check, message: "threw \(Self.describe(error))"))
            }
        }
        return Report(passed: passed, failures: failures, skipped: skippedChecks)
    }

    /// Where the suite's own server plays `check`.
    private static func url(of check: Check, on server: ProbeServer) -> URL {
        let paths: [Check: String] = [
            .requestSentAsGiven: "/echo?a=1", .redirectReturned: "/redirect",
            .redirectToAnotherHostReturned: "/redirect-away", .challengeReturned: "/challenge",
            .unrequestedEncodingRefused: "/gzip", .chunkedBodyRead: "/chunked", .interimResponseSkipped: "/interim",
            .errorStatusReturned: "/status/503", .bodyCutShortRefused: "/cut-length", .timeoutEndsTheRequest: "/slow",
            .invalidTimeoutRefused: "/status/503", .sizeLimitEnforced: "/chunked", .cancellationEndsTheRequest: "/slow",
            .conflictingFramingRefused: "/framing/both", .userinfoRefused: "/echo", .trickledBodyTimesOut: "/trickle",
            .oversizedHeadRefused: "/large-head",
            .endlessTrailersRefused: "/endless-trailers",
        ]
        guard let path = paths[check] else { return URL(string: "http://127.0.0.1:\(server.refusingPort)/")! }
        return URL(string: "http://127.0.0.1:\(server.port)\(path)")!
    }

    // MARK: - The checks

    /// What a check found wrong.
    private struct CheckFailure: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    private static func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
        if !condition { throw CheckFailure(message()) }
    }

    /// An error as a failure message shows it: its type as well, since several types describe themselves alike.
    private static func describe(_ error: any Error) -> String { "\(type(of: error)): \(error)" }

    /// Sends `request`, expecting a `TransportError`, and returns it.
    private static func transportError(
        sending request: HTTPRequestMessage, with transport: any HTTPTransport, expected: String
    ) async throws -> TransportError {
        let response: HTTPResponseMessage
        do {
            response = try await transport.send(request)
        } catch let error as TransportError {
            return error
        } catch {
            throw CheckFailure("expected \(expected), got \(describe(error))")
        }
        throw CheckFailure("expected \(expected), got a response: \(response.status), \(response.body.count) bytes")
    }

    /// Sends `request`, expecting a `TransportError` of `kind`.
    private static func expectTransportError(
        _ kind: TransportError.Kind, sending request: HTTPRequestMessage, with transport: any HTTPTransport
    ) async throws -> TransportError {
        let expected = "TransportError of kind \(kind)"
        let error = try await transportError(sending: request, with: transport, expected: expected)
        try expect(error.kind == kind, "expected \(expected), got \(describe(error))")
        return error
    }

    private static func perform(
        _ check: Check, at url: URL, _ makeTransport: @Sendable (TimeInterval) -> any HTTPTransport
    ) async throws {
        let get = HTTPRequestMessage(method: .get, url: url)
        switch check {
        case .requestSentAsGiven:
            try await checkRequestSentAsGiven(url, makeTransport(30))
        case .redirectReturned:
            let response = try await makeTransport(30).send(
                HTTPRequestMessage(method: .get, url: url, headers: ["Authorization": "Bearer secret"]))
            try expect(response.status == 302, "expected the 302 as the response, got \(response.status)")
            try expect(
                response.headers["Location"] == "/echo", "Location \(response.headers["Location"] ?? "missing")")
        case .redirectToAnotherHostReturned:
            let request = HTTPRequestMessage(
                method: .post, url: url, headers: ["Authorization": "Bearer secret", "x-vital-api-key": "key"],
                body: Data("a=b".utf8))
            let response = try await makeTransport(30).send(request)
            try expect(response.status == 307, "expected the 307 as the response, got \(response.status)")
            let location = response.headers["Location"]
            try expect(
                location == "https://collector.example/steal", "Location \(location ?? "missing")")
        case .challengeReturned:
            try await checkChallengeReturned(url, makeTransport(30))
        case .unrequestedEncodingRefused:
            _ = try await expectTransportError(.unrequestedEncoding, sending: get, with: makeTransport(30))
        case .chunkedBodyRead:
            let response = try await makeTransport(30).send(get)
            let body = String(decoding: response.body, as: UTF8.self)
            try expect(
                response.status == 200 && body == "hello, world", "got \(response.status) \(body.debugDescription)")
        case .interimResponseSkipped:
            let response = try await makeTransport(30).send(get)
            let body = String(decoding: response.body, as: UTF8.self)
            try expect(
                response.status == 200 && body == "final",
                "expected the final 200 with \"final\", got \(response.status) \(body.debugDescription)")
        case .errorStatusReturned:
            let response = try await makeTransport(30).send(get)
            try expect(response.status == 503, "expected 503, got \(response.status)")
            let retryAfter = response.retryAfter(now: Date())
            try expect(retryAfter == 7, "Retry-After read as \(retryAfter.map { "\($0)" } ?? "nothing"), expected 7")
        case .bodyCutShortRefused:
            _ = try await transportError(sending: get, with: makeTransport(30), expected: "a TransportError")
        case .timeoutEndsTheRequest:
            let started = Date()
            let error = try await expectTransportError(.timedOut, sending: get, with: makeTransport(0.6))
            let elapsed = Date().timeIntervalSince(started)
            try expect(error.host == url.host, "the error names the host \(error.host ?? "nil"), not \(url.host ?? "")")
            try expect(elapsed < 2.5, "a timeout of 0.6 s ended the request after \(elapsed) s")
        case .invalidTimeoutRefused:
            try await checkInvalidTimeoutRefused(url, makeTransport(30))
        case .sizeLimitEnforced:
            for limit in [4, -1] {
                var request = get
                request.maximumResponseSize = limit
                _ = try await expectTransportError(.responseTooLarge, sending: request, with: makeTransport(30))
            }
        case .cancellationEndsTheRequest:
            try await checkCancellationEndsTheRequest(url, makeTransport(30))
        case .unreachableOriginReported:
            _ = try await expectTransportError(.cannotConnect, sending: get, with: makeTransport(5))
        case .conflictingFramingRefused:
            let transport = makeTransport(30)
            for framing in ["both", "chunked-twice", "signed-length", "bare-lf"] {
                let sibling = url.deletingLastPathComponent().appendingPathComponent(framing)
                let response: HTTPResponseMessage
                do {
                    response = try await transport.send(HTTPRequestMessage(method: .get, url: sibling))
                } catch is TransportError {
                    continue
                } catch {
                    throw CheckFailure("\(framing): expected a TransportError, got \(describe(error))")
                }
                throw CheckFailure("\(framing): expected a TransportError, got a response: \(response.status)")
            }
        case .userinfoRefused:
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.user = "user"
            components?.password = "secret"
            let request = HTTPRequestMessage(method: .get, url: components?.url ?? url)
            do {
                let response = try await makeTransport(30).send(request)
                throw CheckFailure("expected a RequestEncodingError, got a response: \(response.status)")
            } catch is RequestEncodingError {
            } catch let failure as CheckFailure {
                throw failure
            } catch {
                throw CheckFailure("expected a RequestEncodingError, got \(describe(error))")
            }
        case .trickledBodyTimesOut:
            let started = Date()
            _ = try await expectTransportError(.timedOut, sending: get, with: makeTransport(1.5))
            let elapsed = Date().timeIntervalSince(started)
            try expect(elapsed < 4, "a timeout of 1.5 s ended a trickled body after \(elapsed) s")
        case .tlsCutShortRefused:
            _ = try await expectTransportError(.connectionLost, sending: get, with: makeTransport(30))
        case .oversizedHeadRefused, .endlessTrailersRefused:
            _ = try await expectTransportError(.responseTooLarge, sending: get, with: makeTransport(30))
        }
    }

    private static func checkRequestSentAsGiven(_ url: URL, _ transport: any HTTPTransport) async throws {
        let request = HTTPRequestMessage(
            method: .post, url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Probe": "yes"],
            body: Data("grant_type=refresh_token".utf8))
        let response = try await transport.send(request)
        try expect(response.status == 200, "expected the echo's 200, got \(response.status)")
        try expect(response.mediaType == "application/json", "the echo's media type is \(response.mediaType ?? "nil")")
        guard let echo = try? JSONDecoder().decode(ProbeServer.Echo.self, from: response.body) else {
            throw CheckFailure("the echo is not the request as JSON: \(String(decoding: response.body, as: UTF8.self))")
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        let target = (path.isEmpty ? "/" : path) + (components?.percentEncodedQuery.map { "?\($0)" } ?? "")
        try expect(echo.method == "POST", "the method arrived as \(echo.method)")
        try expect(echo.path == target, "the target arrived as \(echo.path), not \(target)")
        try expect(echo.body == "grant_type=refresh_token", "the body arrived as \(echo.body.debugDescription)")
        let expected = [
            "Content-Type": "application/x-www-form-urlencoded", "X-Probe": "yes", "Accept-Encoding": "identity",
        ]
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            let arrived = echo.headers.first { $0.key.lowercased() == name.lowercased() }?.value
            try expect(arrived == value, "\(name) arrived as \(arrived ?? "nothing"), not \(value)")
        }
    }

    private static func checkChallengeReturned(_ url: URL, _ transport: any HTTPTransport) async throws {
        let started = Date()
        let response = try await transport.send(
            HTTPRequestMessage(method: .get, url: url, headers: ["Authorization": "Basic eDp5"]))
        let elapsed = Date().timeIntervalSince(started)
        try expect(response.status == 401, "expected the 401 as the response, got \(response.status)")
        let challenge = response.headers["WWW-Authenticate"]
        try expect(challenge == "Basic realm=\"probe\"", "WWW-Authenticate \(challenge ?? "missing")")
        let body = String(decoding: response.body, as: UTF8.self)
        try expect(body == #"{"error":"unauthorized"}"#, "the body is \(body.debugDescription)")
        try expect(elapsed < 2, "the 401 came after \(elapsed) s")
    }

    private static func checkInvalidTimeoutRefused(_ url: URL, _ transport: any HTTPTransport) async throws {
        for timeout in [TimeInterval.nan, -1, 0] {
            var request = HTTPRequestMessage(method: .get, url: url)
            request.timeout = timeout
            do {
                let response = try await transport.send(request)
                throw CheckFailure("a timeout of \(timeout) was sent, and answered \(response.status)")
            } catch ConfigurationError.invalidTimeout {
                continue
            } catch let failure as CheckFailure {
                throw failure
            } catch {
                throw CheckFailure(
                    "a timeout of \(timeout): expected ConfigurationError.invalidTimeout, got "
                        + describe(error))
            }
        }
        var unbounded = HTTPRequestMessage(method: .get, url: url)
        unbounded.timeout = .infinity
        do {
            _ = try await transport.send(unbounded)
        } catch {
            throw CheckFailure("an infinite timeout: expected a response, got \(describe(error))")
        }
    }

    private static func checkCancellationEndsTheRequest(_ url: URL, _ transport: any HTTPTransport) async throws {
        let task = Task { try await transport.send(HTTPRequestMessage(method: .get, url: url)) }
        try await Task.sleep(nanoseconds: 200_000_000)
        task.cancel()
        let started = Date()
        let result = await task.result
        let elapsed = Date().timeIntervalSince(started)
        switch result {
        case .success(let response):
            throw CheckFailure("expected CancellationError, got a response: \(response.status)")
        case .failure(let error):
            try expect(error is CancellationError, "expected CancellationError, got \(describe(error))")
        }
        try expect(elapsed < 1, "the request ended \(elapsed) s after its task was cancelled")
    }

    /// Runs `body`, failing when it takes longer than `seconds`: a transport that hangs fails its check, and the run
    /// goes on (the hanging task is cancelled and left behind).
    private static func within(
        seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        let work = LockedValue<Task<Void, Never>?>(nil)
        let resumed = LockedValue(false)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let finish: @Sendable (Result<Void, any Error>) -> Void = { result in
                let first = resumed.withValue { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(with: result) }
            }
            let timer = Task {
                guard (try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))) != nil else { return }
                work.current?.cancel()
                finish(.failure(CheckFailure("did not finish within \(Int(seconds)) s")))
            }
            work.withValue {
                $0 = Task {
                    do {
                        try await body()
                        finish(.success(()))
                    } catch {
                        finish(.failure(error))
                    }
                    timer.cancel()
                }
            }
        }
    }
}
