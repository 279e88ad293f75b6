import Foundation
import HealthSignInCore

/// The origins that may receive a client's secrets and tokens: the base URL's own (its scheme, its host compared
/// without regard to case, and its port), and trusted hosts on the same scheme.
///
/// A trusted host is written `host` (on the scheme's default port) or `host:port`. A discovered endpoint anywhere
/// else, on another port of the same host too, is refused before anything is sent to it; so is a URL written with
/// userinfo (`https://h.example@a.example/`), whose host is not the one a reader of the text takes it for.
public struct TrustedOrigins: Sendable, Hashable {
    /// An origin: scheme, lowercased host and port.
    private struct Origin: Hashable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ url: URL) {
            guard url.user == nil, url.password == nil, let scheme = url.scheme?.lowercased(),
                let host = url.host?.lowercased(), !host.isEmpty,
                let port = url.port ?? Self.defaultPort(scheme)
            else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = port
        }

        init?(scheme: String, host entry: String) {
            let parts = entry.lowercased().split(separator: ":", omittingEmptySubsequences: false)
            guard let host = parts.first, !host.isEmpty, parts.count <= 2 else { return nil }
            let port = parts.count == 2 ? Int(parts[1]) : Self.defaultPort(scheme)
            guard let port else { return nil }
            self.scheme = scheme
            self.host = String(host)
            self.port = port
        }

        static func defaultPort(_ scheme: String) -> Int? {
            switch scheme {
            case "https": return 443
            case "http": return 80
            default: return nil
            }
        }
    }

    private let origins: Set<Origin>

    /// The origin of `base` and of each of `trustedHosts` (`host` or `host:port`) on `base`'s scheme.
    public init(base: URL, trustedHosts: [String] = []) {
        var origins: Set<Origin> = []
        if let origin = Origin(base) {
            origins.insert(origin)
            for entry in trustedHosts {
                if let trusted = Origin(scheme: origin.scheme, host: entry) { origins.insert(trusted) }
            }
        }
        self.origins = origins
    }

    /// Whether `url` is on one of the origins (and written without userinfo).
    public func contains(_ url: URL) -> Bool { Origin(url).map(origins.contains) ?? false }
}
