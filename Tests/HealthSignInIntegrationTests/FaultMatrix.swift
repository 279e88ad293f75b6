import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// The same faults, injected by the server (the emulator or the in-process one) into one family's protected call, with
/// what the SDK makes of each:
/// the typed error (or success), how many requests the client sent to the faulted endpoint (retries happen only where
/// they are safe), whether the stored credentials changed, and what the next call does. Each family test asserts its rows
/// and prints them as a table.
struct FaultMatrix {
    /// One fault: a fault the server plays on the endpoint, or a skewed client clock.
    struct Fault: Sendable {
        let name: String
        let fault: TestServerFault?
        var isClockSkew: Bool { fault == nil }
    }

    /// Every fault of the matrix, in table order.
    static let faults: [Fault] = [
        Fault(name: "latency beyond the timeout", fault: .slow(seconds: 2.5)),
        Fault(name: "connection reset", fault: .dropConnection),
        Fault(name: "HTTP 500", fault: .status(500)),
        Fault(name: "HTTP 502", fault: .status(502)),
        Fault(name: "HTTP 503 with Retry-After", fault: .status(503, retryAfter: 30)),
        Fault(name: "HTTP 429 with Retry-After", fault: .status(429, retryAfter: 2)),
        Fault(name: "truncated body", fault: .truncatedBody),
        Fault(name: "wrong content type", fault: .wrongContentType),
        Fault(name: "HTML error page", fault: .errorPage(status: 502)),
        Fault(name: "unknown extra element or field", fault: .unknownMember),
        Fault(name: "client clock 10 minutes fast", fault: nil),
    ]

    /// What happened under one fault.
    struct Row: Equatable {
        var outcome: String
        var attempts: Int
        var credentials: String
        var next: String
    }

    /// What a family whose protected call first refreshes a rotating refresh token makes of each fault: the
    /// refresh is sent once; a failure before the server acted keeps the credential; a response lost after the server
    /// rotated the token (a timeout the server outlived, a truncated body) keeps it too, and the next call learns from
    /// the server that it is dead, which `afterLostRotation` names.
    static func rotatingRefresh(afterLostRotation: String) -> [String: Row] {
        let refreshed = Row(outcome: "success", attempts: 1, credentials: "updated", next: "success")
        func kept(_ outcome: String) -> Row {
            Row(outcome: outcome, attempts: 1, credentials: "unchanged", next: "success")
        }
        func lost(_ outcome: String) -> Row {
            Row(outcome: outcome, attempts: 1, credentials: "unchanged", next: afterLostRotation)
        }
        return [
            "latency beyond the timeout": lost("TransportError, kind .timedOut"),
            "connection reset": kept("TransportError, kind .connectionLost"),
            "HTTP 500": kept("UnexpectedResponseError 500"),
            "HTTP 502": kept("UnexpectedResponseError 502"),
            "HTTP 503 with Retry-After": kept("UnexpectedResponseError 503, response.retryAfter(now:) 30 s"),
            "HTTP 429 with Retry-After": kept("UnexpectedResponseError 429, response.retryAfter(now:) 2 s"),
            "truncated body": lost("ResponseDecodingError"),
            "wrong content type": refreshed,
            "HTML error page": kept("UnexpectedResponseError 502"),
            "unknown extra element or field": refreshed,
            "client clock 10 minutes fast": refreshed,
        ]
    }

    /// How a family's scenario is run.
    struct Scenario {
        /// Sets up a signed-in client that sends through `transport` (which times out after a second); `skewed` asks
        /// for a client whose clock runs 10 minutes fast.
        let prepare: (_ skewed: Bool, _ transport: any HTTPTransport) async throws -> Void
        /// The stored credential bytes.
        let credentials: () async throws -> Data?
        /// The protected call the fault strikes.
        let call: () async throws -> Void
    }

    /// Runs every fault against `scenario`, with `endpoint` the faulted endpoint of `server`, and checks each row
    /// against `expected`.
    static func run(
        family: String, endpoint: URL, server: some FaultServer, expected: [String: Row], scenario: Scenario,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        var rows: [(String, Row)] = []
        for fault in faults {
            try await server.reset()
            let network = server.transport(timeout: 1)
            let transport = RecordingTransport { try await network.send($0) }
            try await scenario.prepare(fault.isClockSkew, transport)
            let before = try await scenario.credentials()
            let path = endpoint.path
            let attemptsBefore = transport.requests.filter { $0.url.path.hasPrefix(path) }.count
            if let fault = fault.fault { try await server.inject(fault, at: endpoint, count: 1) }
            let outcome = await describe { try await scenario.call() }
            let attempts = transport.requests.filter { $0.url.path.hasPrefix(path) }.count - attemptsBefore
            // A request the emulator's client gave up on may still reach it; let it finish before looking further.
            if fault.name.hasPrefix("latency"), server.kind == .emulator {
                try await Task.sleep(nanoseconds: 2_000_000_000)
            }
            let credentials = try await scenario.credentials() == before ? "unchanged" : "updated"
            let next = await describe { try await scenario.call() }
            let row = Row(outcome: outcome, attempts: attempts, credentials: credentials, next: next)
            rows.append((fault.name, row))
            XCTAssertEqual(row, expected[fault.name], "\(family): \(fault.name)", file: file, line: line)
        }
        print(table(family: "\(family) (\(server.kind.rawValue))", rows: rows))
    }

    /// `success`, or the error's type and what identifies it, in the API's own terms (`kind`,
    /// `response.retryAfter(now:)`).
    static func describe(_ call: () async throws -> Void) async -> String {
        do {
            try await call()
            return "success"
        } catch let error as TransportError {
            return "TransportError, kind .\(error.kind)"
        } catch let error as UnexpectedResponseError {
            let delay = error.response.retryAfter(now: Date())
            let retryAfter = delay.map { ", response.retryAfter(now:) \(Int($0)) s" } ?? ""
            return "UnexpectedResponseError \(error.status)\(retryAfter)"
        } catch let error as ResponseDecodingError {
            return "ResponseDecodingError" + (error.reason.hasPrefix("malformed XML") ? " (malformed XML)" : "")
        } catch let error as SignInError {
            return "SignInError.\(error.code)"
        } catch {
            // A flow's error enum: its case, without the payload.
            let mirror = Mirror(reflecting: error)
            let name =
                mirror.displayStyle == .enum
                ? mirror.children.first?.label ?? String(describing: error) : String(describing: error)
            return "\(type(of: error)).\(name)"
        }
    }

    /// The rows as a Markdown table.
    static func table(family: String, rows: [(String, Row)]) -> String {
        var lines = [
            "\(family) fault matrix:", "",
            "| Fault | Outcome | Requests | Stored credentials | Next call |", "|---|---|---|---|---|",
        ]
        for (fault, row) in rows {
            lines.append("| \(fault) | \(row.outcome) | \(row.attempts) | \(row.credentials) | \(row.next) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// A clock that runs `offset` seconds ahead of the system's.
struct OffsetClock: TimeSource {
    let offset: TimeInterval

    func now() -> Date { Date().addingTimeInterval(offset) }
}

/// A server the fault matrix can strike: the emulator or an in-process one.
protocol FaultServer {
    /// Which server it is.
    var kind: ServerKind { get }
    /// Forgets what earlier rows left behind: the emulator's reset, or a new in-process server.
    func reset() async throws
    /// Plays `fault` on the next `count` requests to `endpoint`.
    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int) async throws
    /// The network, giving up after `timeout` seconds.
    func transport(timeout: TimeInterval) -> any HTTPTransport
}
