import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// Which server a journey runs against: the Python emulator over a socket, or the test kit's server in this process.
enum ServerKind: String, CaseIterable, Sendable {
    case emulator = "emulator"
    case inProcess = "in-process"
}

/// A test case whose journeys run once against each server: the same body, the same assertions, so every wire rule
/// the emulator holds the SDK to holds against the in-process server too. A failure names the server it happened
/// on.
class EachServerTestCase: XCTestCase {
    /// The server the running body talks to.
    private(set) var currentKind: ServerKind?

    /// Runs `body` against each kind of server in turn, labelling what fails with the server.
    func onEachServer(_ kinds: [ServerKind] = ServerKind.allCases, _ body: (ServerKind) async throws -> Void)
        async throws
    {
        for kind in kinds {
            currentKind = kind
            do {
                try await body(kind)
            } catch {
                throw LabelledError(kind: kind, error: error)
            }
            currentKind = nil
        }
    }

    #if canImport(ObjectiveC)
        override func record(_ issue: XCTIssue) {
            var issue = issue
            if let currentKind { issue.compactDescription = "[\(currentKind.rawValue)] " + issue.compactDescription }
            super.record(issue)
        }
    #else
        override func recordFailure(
            withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
        ) {
            let label = currentKind.map { "[\($0.rawValue)] " } ?? ""
            super.recordFailure(
                withDescription: label + description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    #endif
}

/// An error a journey threw, with the server it ran against.
struct LabelledError: Error, CustomStringConvertible {
    let kind: ServerKind
    let error: any Error

    var description: String { "[\(kind.rawValue)] \(error)" }
}

/// The same server faults, however the server is reached: the emulator gets a fault rule through its control
/// endpoint, the in-process server the fault itself.
protocol FaultInjecting {
    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int) async throws
}

extension Emulator {
    /// Injects `fault` as an emulator fault rule for the path of `endpoint`.
    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int = 1) async throws {
        var rule: [String: any Sendable] = ["path": endpoint.path, "count": count]
        switch fault {
        case .status(let status, let retryAfter):
            rule["kind"] = "status"
            rule["status"] = status
            if let retryAfter { rule["retry_after"] = retryAfter }
        case .errorPage(let status):
            rule["kind"] = "html"
            rule["status"] = status
        case .dropConnection: rule["kind"] = "drop"
        case .slow(let seconds):
            rule["kind"] = "latency"
            rule["seconds"] = seconds
        case .truncatedBody: rule["kind"] = "truncated"
        case .malformedBody: rule["kind"] = "malformed"
        case .wrongContentType: rule["kind"] = "content_type"
        case .unknownMember: rule["kind"] = "extra_element"
        case .loseResponse: throw EmulatorError.control("faults", "the emulator loses only a refresh response")
        }
        try await control("faults", rule)
    }
}

extension TestUserBrowser {
    /// Opens `url` once as a browser would, answering a sign-in page with `decision`, and returns where the server
    /// sends it next (without going there), or nil when it sends it nowhere.
    static func visit(_ url: URL, through transport: TestServerTransport, decision: TestUserDecision = .approve)
        async throws -> URL?
    {
        var response = try await transport.send(HTTPRequestMessage(method: .get, url: url))
        if let action = response.headers["X-Test-Server-Prompt"].flatMap(URL.init(string:)) {
            response = try await transport.send(
                HTTPRequestMessage(
                    method: .post, url: action, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data("decision=\(decision.rawValue)".utf8)))
        }
        guard (300..<400).contains(response.status), let location = response.headers["Location"] else { return nil }
        return URL(string: location, relativeTo: url)?.absoluteURL
    }
}
