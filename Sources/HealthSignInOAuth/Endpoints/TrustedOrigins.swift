import Foundation
import HealthSignInCore

/// The origins that may receive a client's secrets and tokens: the base URL's own (its scheme, its host compared
/// without regard to case, and its port), and trusted hosts on the same scheme.
///
/// A trusted host is written `host` (on the scheme's default port) or `host:port`. A discovered endpoint anywhere
/// else, on another port of the same host too, is refused before anything is sent to it.
public struct TrustedOrigins: Sendable, Hashable {
    /// An origin: scheme, lowercased host and port.
    private struct Origin: Hashable {
        let scheme: String
        let host: String
        let port: Int

        init?(_ url: URL) {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty,
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

    /// Whether `url` is on one of the origins.
    public func contains(_ url: URL) -> Bool { Origin(url).map(origins.contains) ?? false }

    /// Throws unless `url`, the endpoint `name`, is on one of the origins.
    ///
    /// - Throws: ``DiscoveryError/untrustedEndpoint(name:url:)``.
    public func check(_ name: EndpointName, _ url: URL) throws {
        guard contains(url) else { throw DiscoveryError.untrustedEndpoint(name: name, url: url) }
    }
}

/// Why an authorization server's endpoints cannot be used; nothing was sent to any of them.
public enum DiscoveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The metadata named an endpoint on an origin other than the base URL's and the trusted ones.
    case untrustedEndpoint(name: EndpointName, url: URL)
    /// Neither the configuration nor the metadata named these endpoints.
    case missingEndpoints([EndpointName])
    /// The metadata named an endpoint that is not an absolute URL.
    case invalidEndpoint(EndpointName)
    /// The metadata's `issuer` is not on the base URL's origin or a trusted one (or not a URL): the server claims
    /// another's identity.
    case untrustedIssuer(String)

    /// A one-line explanation with what to do.
    public var description: String {
        switch self {
        case .untrustedEndpoint(let name, let url):
            return "The server's \(name.rawValue) is on \(url.host ?? "no host")\(url.port.map { ":\($0)" } ?? ""), "
                + "not the server's own origin; configure it, or trust its host if it is really the server's"
        case .missingEndpoints(let names):
            return "The server names no \(names.map(\.rawValue).joined(separator: " or ")); configure it"
        case .invalidEndpoint(let name): return "The server's \(name.rawValue) is not a URL"
        case .untrustedIssuer(let issuer):
            return "The server names the issuer \(issuer), which is not on its own origin; trust its host if it is "
                + "really the server's"
        }
    }
}

extension DiscoveryError: SDKError {
    /// `ErrorRecovery.reconfigure`: the configuration must name or trust the endpoint or issuer.
    public var recovery: ErrorRecovery { .reconfigure }
}
