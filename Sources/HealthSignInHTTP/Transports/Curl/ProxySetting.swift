import Foundation

/// Which proxy a transport's requests go through.
public enum ProxySetting: Sendable, Hashable {
    /// The process environment's, read once when the transport is made (libcurl reads none of it itself):
    /// `HTTPS_PROXY` for `https` URLs, `HTTP_PROXY` for `http` ones, `ALL_PROXY` for either, each in lower case or
    /// upper case, lower case first. These are reached directly:
    ///
    /// - this machine: `localhost` and names under it, `127.0.0.0/8` and `::1`;
    /// - an `http` URL whose proxy is itself plain `http`, so that a token never crosses a network in clear on its way
    ///   to a proxy nobody named in code (an `https` proxy, or an explicit ``proxy(_:bypass:)``, is used);
    /// - the hosts `NO_PROXY` lists, comma-separated: `*` for all; a name, which also covers the names under it
    ///   (`example.com` or `.example.com` for `api.example.com`); an IPv4 address; an IPv6 address with or without
    ///   brackets. A port after an entry (`example.com:8443`, `[::1]:8080`) is allowed and ignored, as curl does.
    case environment
    /// No proxy, whatever the environment says.
    case none
    /// This proxy (an `http` or `https` URL) for every request, loopback and plain `http` ones too, except to the
    /// hosts `bypass` lists (read as `NO_PROXY` is). The environment plays no part.
    case proxy(URL, bypass: [String] = [])
}

/// A request's way out: through a proxy, or direct.
struct ProxyRoute: Sendable, Equatable {
    /// The proxy's URL, or nil for a direct connection.
    let url: String?

    /// The proxy's host and port, as libcurl reads the URL (a URL without a scheme is `http`, without a port 1080).
    var endpoint: (host: String, port: Int)? {
        guard let url else { return nil }
        let components = URLComponents(string: url.contains("://") ? url : "http://\(url)")
        guard let host = components?.host, !host.isEmpty else { return nil }
        let scheme = components?.scheme?.lowercased()
        return (host, components?.port ?? (scheme == "https" ? 443 : 1080))
    }

    /// The host an `https` proxy's certificate must name (an IPv6 address without its brackets), or nil when the way
    /// out is direct or the proxy is plain `http`.
    var tlsHost: String? {
        guard let url, url.lowercased().hasPrefix("https://"), let host = endpoint?.host else { return nil }
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

/// A ``ProxySetting`` resolved once: which proxy each scheme uses, and which hosts bypass it.
struct ProxyRoutes: Sendable {
    private let https: String?
    private let http: String?
    private let bypass: [ProxyBypass]
    private let fromEnvironment: Bool

    init(_ setting: ProxySetting, environment: [String: String] = ProcessInfo.processInfo.environment) {
        func variable(_ name: String) -> String? {
            let value = environment[name.lowercased()] ?? environment[name.uppercased()]
            return value.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        switch setting {
        case .none:
            (https, http, bypass, fromEnvironment) = (nil, nil, [], false)
        case .proxy(let url, let hosts):
            (https, http, fromEnvironment) = (url.absoluteString, url.absoluteString, false)
            bypass = hosts.compactMap(ProxyBypass.init)
        case .environment:
            let all = variable("all_proxy")
            https = variable("https_proxy") ?? all
            http = variable("http_proxy") ?? all
            bypass = (variable("no_proxy") ?? "").split(separator: ",").compactMap { ProxyBypass(String($0)) }
            fromEnvironment = true
        }
    }

    /// The route to `target`.
    func route(for target: RequestTarget) -> ProxyRoute {
        guard let proxy = target.isHTTPS ? https : http, !bypass.contains(where: { $0.matches(target.host) }) else {
            return ProxyRoute(url: nil)
        }
        if fromEnvironment {
            let proxyIsPlain = !proxy.lowercased().hasPrefix("https://")
            if ProxyBypass.isLoopback(target.host) || (!target.isHTTPS && proxyIsPlain) { return ProxyRoute(url: nil) }
        }
        return ProxyRoute(url: proxy)
    }
}

/// One `NO_PROXY` entry: every host, an IP address, or a name with the names under it.
enum ProxyBypass: Sendable, Equatable {
    case everyHost
    case address([UInt8])
    case name(String)

    /// Reads an entry, its port (if any) dropped; nil for an empty one.
    init?(_ text: String) {
        var entry = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !entry.isEmpty else { return nil }
        if entry == "*" {
            self = .everyHost
            return
        }
        if entry.hasPrefix("["), let close = entry.firstIndex(of: "]") {
            entry = String(entry[entry.index(after: entry.startIndex)..<close])
        } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
            entry = String(entry[..<colon])
        }
        if let bytes = IPAddress.bytes(entry) {
            self = .address(bytes)
        } else {
            let name = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            guard !name.isEmpty else { return nil }
            self = .name(name)
        }
    }

    /// Whether `host` (as ``RequestTarget`` gives it: lower case, an IPv6 literal without brackets) is bypassed.
    func matches(_ host: String) -> Bool {
        switch self {
        case .everyHost: return true
        case .address(let bytes): return IPAddress.bytes(host) == bytes
        case .name(let name): return IPAddress.bytes(host) == nil && (host == name || host.hasSuffix("." + name))
        }
    }

    /// Whether `host` is this machine: `localhost` or a name under it, `127.0.0.0/8`, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        guard let bytes = IPAddress.bytes(host) else { return false }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }
}
