import Foundation

/// Which proxy a transport's requests go through.
public enum ProxySetting: Sendable, Hashable {
    /// The process environment's, read when the transport is made: `HTTPS_PROXY` for `https` URLs, `HTTP_PROXY` for
    /// `http` ones, `ALL_PROXY` for either, and `NO_PROXY` (a comma-separated list of host names, domain suffixes,
    /// or `*`) for hosts reached directly; each in lower case or upper case, lower case first.
    case environment
    /// No proxy, whatever the environment says.
    case none
    /// This proxy (an `http` or `https` URL) for every request, except to the hosts `bypass` lists (as `NO_PROXY`).
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
}

/// A ``ProxySetting`` resolved once: which proxy each scheme uses, and which hosts bypass it.
struct ProxyRoutes: Sendable {
    private let https: String?
    private let http: String?
    private let bypass: [String]

    init(_ setting: ProxySetting, environment: [String: String] = ProcessInfo.processInfo.environment) {
        func variable(_ name: String) -> String? {
            let value = environment[name.lowercased()] ?? environment[name.uppercased()]
            return value.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        switch setting {
        case .none:
            (https, http, bypass) = (nil, nil, [])
        case .proxy(let url, let hosts):
            (https, http, bypass) = (url.absoluteString, url.absoluteString, hosts)
        case .environment:
            let all = variable("all_proxy")
            https = variable("https_proxy") ?? all
            http = variable("http_proxy") ?? all
            bypass = (variable("no_proxy") ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
    }

    /// The route to `target`.
    func route(for target: RequestTarget) -> ProxyRoute {
        guard let proxy = target.isHTTPS ? https : http, !bypasses(target.host) else { return ProxyRoute(url: nil) }
        return ProxyRoute(url: proxy)
    }

    /// Whether `host` is reached directly: `NO_PROXY` names it, a domain it is in (`example.com` or `.example.com`
    /// for `api.example.com`), or `*`.
    private func bypasses(_ host: String) -> Bool {
        bypass.contains { entry in
            if entry == "*" { return true }
            let name = (entry.hasPrefix(".") ? String(entry.dropFirst()) : entry).lowercased()
            let bare = name.split(separator: ":").first.map(String.init) ?? name
            return host == bare || host.hasSuffix("." + bare)
        }
    }
}
