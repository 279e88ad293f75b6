import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// The same faults, injected by the emulator into one family's protected call, with what the SDK makes of each:
/// the typed error (or success), how many requests the client sent to the faulted endpoint (retries happen only where
/// they are safe), whether the stored credentials changed, and what the next call does. Each family test asserts its rows
/// and prints them as a table.
struct FaultMatrix {
    /// One fault: an emulator fault rule for the endpoint, or a skewed client clock.
    struct Fault: Sendable {
        let name: String
        let rule: [String: any Sendable]?
        var isClockSkew: Bool { rule == nil }
    }

    /// Every fault of the matrix, in table order.
    static let faults: [Fault] = [
        Fault(name: "latency beyond the timeout", rule: ["kind": "latency", "seconds": 2.5]),
        Fault(name: "connection reset", rule: ["kind": "drop"]),
        Fault(name: "HTTP 500", rule: ["kind": "status", "status": 500]),
        Fault(name: "HTTP 502", rule: ["kind": "status", "status": 502]),
        Fault(name: "HTTP 503 with Retry-After", rule: ["kind": "status", "status": 503, "retry_after": 30]),
        Fault(name: "HTTP 429 with Retry-After", rule: ["kind": "status", "status": 429, "retry_after": 2]),
        Fault(name: "truncated body", rule: ["kind": "truncated"]),
        Fault(name: "wrong content type", rule: ["kind": "content_type"]),
        Fault(name: "HTML error page", rule: ["kind": "html", "status": 502]),
        Fault(name: "unknown extra element or field", rule: ["kind": "extra_element"]),
        Fault(name: "client clock 10 minutes fast", rule: nil),
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
            "latency beyond the timeout": lost("TransportError.timedOut"),
            "connection reset": kept("TransportError.connectionLost"),
            "HTTP 500": kept("UnexpectedResponseError 500"),
            "HTTP 502": kept("UnexpectedResponseError 502"),
            "HTTP 503 with Retry-After": kept("UnexpectedResponseError 503, Retry-After 30 s"),
            "HTTP 429 with Retry-After": kept("UnexpectedResponseError 429, Retry-After 2 s"),
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
        let credentials: () throws -> Data?
        /// The protected call the fault strikes.
        let call: () async throws -> Void
    }

    /// Runs every fault against `scenario`, with `path` the faulted endpoint, and checks each row against `expected`.
    static func run(
        family: String, path: String, emulator: Emulator, expected: [String: Row], scenario: Scenario,
        file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        var rows: [(String, Row)] = []
        for fault in faults {
            try await emulator.control("reset")
            let network = DefaultHTTPTransport(timeout: 1)
            let transport = RecordingTransport { try await network.send($0) }
            try await scenario.prepare(fault.isClockSkew, transport)
            let before = try scenario.credentials()
            let attemptsBefore = transport.requests.filter { $0.url.path.hasPrefix(path) }.count
            if var rule = fault.rule {
                rule["path"] = path
                try await emulator.control("faults", rule)
            }
            let outcome = await describe { try await scenario.call() }
            let attempts = transport.requests.filter { $0.url.path.hasPrefix(path) }.count - attemptsBefore
            // A request the client gave up on may still reach the server; let it finish before looking further.
            if fault.name.hasPrefix("latency") { try await Task.sleep(nanoseconds: 2_000_000_000) }
            let credentials = try scenario.credentials() == before ? "unchanged" : "updated"
            let next = await describe { try await scenario.call() }
            let row = Row(outcome: outcome, attempts: attempts, credentials: credentials, next: next)
            rows.append((fault.name, row))
            XCTAssertEqual(row, expected[fault.name], "\(family): \(fault.name)", file: file, line: line)
        }
        print(table(family: family, rows: rows))
    }

    /// `success`, or the error's type and what identifies it.
    static func describe(_ call: () async throws -> Void) async -> String {
        do {
            try await call()
            return "success"
        } catch let error as TransportError {
            return "TransportError.\(error.kind)"
        } catch let error as UnexpectedResponseError {
            let retryAfter = error.response.retryAfter(now: Date()).map { ", Retry-After \(Int($0)) s" } ?? ""
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
