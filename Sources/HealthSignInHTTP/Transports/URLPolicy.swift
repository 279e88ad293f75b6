import Foundation

/// Which URLs the SDK will send credentials to: `https` only, with plain `http` allowed for loopback hosts when
/// explicitly enabled (tests and local emulators).
public struct URLPolicy: Sendable, Hashable {
    /// Whether `http://127.0.0.1`, `http://[::1]` and `http://localhost` are accepted.
    public var allowsInsecureLoopback: Bool

    /// Creates a policy.
    public init(allowsInsecureLoopback: Bool = false) {
        self.allowsInsecureLoopback = allowsInsecureLoopback
    }

    /// Succeeds for `https` URLs, and for loopback `http` URLs when allowed.
    ///
    /// - Throws: ``ConfigurationError/insecureURL(host:)``.
    public func check(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http" where allowsInsecureLoopback && Self.isLoopback(url.host): return
        default: throw ConfigurationError.insecureURL(host: url.host)
        }
    }

    /// Whether `host` names this machine: `localhost`, `127.0.0.0/8` or `::1`.
    public static func isLoopback(_ host: String?) -> Bool {
        guard let host = host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else {
            return false
        }
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
