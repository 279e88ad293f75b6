import Foundation
import HealthSignInCore

/// Every request an in-process server received, in order, with what it made of it: what a test asserts on when it
/// asks how often the app refreshed, or whether a revoked token was still sent.
///
/// Each request is recorded with the server's ``TestServerOperation`` for it, including a request a fault stopped
/// before the server acted: the operation is what the request asked for, whether or not the server performed it.
///
/// ```swift
/// XCTAssertEqual(server.ledger.count(.refreshToken), 1)
/// print(server.ledger)   // one line per request, secrets redacted
/// ```
public final class TestServerLedger<Operation: TestServerOperation>: Sendable, CustomStringConvertible {
    /// One received request.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The request as the client sent it.
        public let request: HTTPRequestMessage
        /// What the request asked the server for, or nil when no endpoint answers its path.
        public let operation: Operation?
        /// The status the server answered with, or nil when no response reached the client.
        public let status: Int?
        /// The fault played on it, if any.
        public let fault: TestServerFault?

        /// Whether the server acted on it: no fault struck before it did.
        public var reachedServer: Bool { fault?.serverActs != false }

        /// Whether the server handled it and refused it (a status of 400 or more from the endpoint itself).
        public var wasRefused: Bool { operation != nil && reachedServer && (status ?? 0) >= 400 }

        /// `POST https://ehr.test/auth/token [token:refresh_token] grant_type=refresh_token&refresh_token=<redacted>
        /// → 200`: the query and form values that carry secrets are redacted, other bodies are only counted.
        public var description: String {
            var parts = ["\(request.method) \(LedgerRedaction.redacted(request.url))"]
            if let operation { parts.append("[\(operation)]") }
            if let body = request.body, !body.isEmpty {
                let type = request.headers["Content-Type"]?.lowercased() ?? ""
                parts.append(
                    type.hasPrefix("application/x-www-form-urlencoded")
                        ? LedgerRedaction.redacted(FormFields(formEncoded: String(decoding: body, as: UTF8.self)))
                        : "<\(body.count) bytes>")
            }
            if let fault { parts.append("(\(fault))") }
            parts.append("→ " + (status.map(String.init) ?? "no response"))
            return parts.joined(separator: " ")
        }
    }

    private let recorded = LockedValue<[Entry]>([])

    init() {}

    /// The requests so far, in the order received.
    public var entries: [Entry] { recorded.current }

    /// The requests for `operation`, whether the server acted on them or a fault stopped them first.
    public func entries(for operation: Operation) -> [Entry] { recorded.current.filter { $0.operation == operation } }

    /// How many requests asked for `operation` (a fault may have stopped some before the server acted).
    public func count(_ operation: Operation) -> Int { entries(for: operation).count }

    /// How many requests for `operation` the server handled and refused.
    public func count(refused operation: Operation) -> Int { entries(for: operation).filter(\.wasRefused).count }

    /// The requests sent to `endpoint` or below it: the same origin, and a path that is the endpoint's or continues
    /// it after a `/` (`/fhir` covers `/fhir/Patient/1`, not `/fhir2`).
    public func requests(to endpoint: URL) -> [Entry] {
        recorded.current.filter { TestServerFaults.url($0.request.url, isAtOrBelow: endpoint) }
    }

    /// Forgets every entry.
    public func removeAll() { recorded.withValue { $0.removeAll() } }

    /// One line per entry.
    public var description: String { entries.map(\.description).joined(separator: "\n") }

    func record(_ entry: Entry) { recorded.withValue { $0.append(entry) } }
}

/// How the ledger writes a request's URL and form: the values that carry secrets replaced.
enum LedgerRedaction {
    /// The names whose values are credentials, codes or keys in a query or form.
    static let secretNames: Set<String> = [
        "code", "code_verifier", "refresh_token", "access_token", "id_token", "token", "client_secret",
        "client_assertion", "subject_token", "password", "appCreationToken", "launch", "activation_code",
        "sign_in_token",
    ]

    static func redacted(_ fields: FormFields) -> String {
        fields.pairs.map { pair in
            guard !secretNames.contains(pair.name) else { return "\(pair.name)=\(Redaction.placeholder)" }
            // Koppeltaal's activation code travels inside the scope, as `launch:<code>`.
            if pair.name == "targetqs" {  // HealthVault's Shell carries its parameters, a creation token among them.
                return "targetqs=" + redacted(FormFields(formEncoded: pair.value))
            }
            let value =
                pair.name == "scope"
                ? pair.value.split(separator: " ").map {
                    $0.hasPrefix("launch:") ? "launch:" + Redaction.placeholder : String($0)
                }
                .joined(separator: " ") : pair.value
            return "\(pair.name)=\(value)"
        }.joined(separator: "&")
    }

    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return Redaction.url(url)
        }
        let query = components.percentEncodedQuery
        components.query = nil
        components.user = nil
        components.password = nil
        components.fragment = nil
        let base = components.string ?? Redaction.url(url)
        guard let query, !query.isEmpty else { return base }
        return base + "?" + redacted(FormFields(formEncoded: query))
    }
}
