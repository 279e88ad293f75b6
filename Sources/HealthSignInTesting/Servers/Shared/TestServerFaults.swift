import Foundation
import HealthSignInCore

/// The faults an in-process server will play, in the order injected: each strikes the next requests to its endpoint
/// until its count is used up.
///
/// ```swift
/// server.faults.inject(.status(503, retryAfter: 30), at: server.tokenURL)
/// server.faults.inject(.dropConnection, at: server.fhirBaseURL, count: 2)
/// ```
public final class TestServerFaults: Sendable {
    private struct Rule {
        let fault: TestServerFault
        let endpoint: URL
        var remaining: Int
    }

    private let rules = LockedValue<[Rule]>([])

    init() {}

    /// Plays `fault` on the next `count` requests whose URL is `endpoint` or below it: the same scheme, host and
    /// port, and a path that is the endpoint's or continues it after a `/` (`/fhir` covers `/fhir/Patient/1`, not
    /// `/fhir2`).
    public func inject(_ fault: TestServerFault, at endpoint: URL, count: Int = 1) {
        guard count > 0 else { return }
        rules.withValue { $0.append(Rule(fault: fault, endpoint: endpoint, remaining: count)) }
    }

    /// Forgets every fault not yet played.
    public func removeAll() { rules.withValue { $0.removeAll() } }

    /// How many plays of injected faults are left.
    public var pending: Int { rules.current.reduce(0) { EpochSeconds.adding($0, $1.remaining) } }

    /// The fault for `url`, using up one play of it.
    func take(for url: URL) -> TestServerFault? {
        rules.withValue { rules in
            guard let index = rules.firstIndex(where: { $0.remaining > 0 && Self.url(url, isAtOrBelow: $0.endpoint) })
            else { return nil }
            rules[index].remaining -= 1
            let fault = rules[index].fault
            if rules[index].remaining == 0 { rules.remove(at: index) }
            return fault
        }
    }

    /// Whether `url` has `endpoint`'s scheme, host and port, and its path or one below it by whole segments.
    static func url(_ url: URL, isAtOrBelow endpoint: URL) -> Bool {
        guard url.scheme?.lowercased() == endpoint.scheme?.lowercased(),
            url.host?.lowercased() == endpoint.host?.lowercased(), url.port == endpoint.port
        else { return false }
        let base = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        return url.path == base || url.path.hasPrefix(base + "/")
    }
}
