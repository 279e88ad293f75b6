import Foundation
import HealthSignInCore

/// Finds a registration's endpoints and keeps what it found.
///
/// - Configured endpoints (the registration's ``OAuthRegistration/endpoints``) win, and are used as they are; when
///   every endpoint a caller needs is configured, nothing is read.
/// - The rest come from what the server advertises (its metadata, read by the family's `advertised` function),
///   resolved against the base URL. Each must be on an origin the registration trusts
///   (``OAuthRegistration/trustedOrigins``): the metadata cannot send the client's secret or tokens elsewhere. So
///   must its `issuer`: one server's metadata cannot name an issuer on an origin only another registration trusts.
///   An authorization endpoint the server names may carry a query, but not one naming a parameter the SDK sets
///   (``AuthorizationParameters/isReserved(_:protocolNames:)``). No endpoint or issuer may be written with userinfo.
/// - What was read is kept per base URL, in memory and, when a store is given, under a key of it (a cache, not a
///   credential: an unreadable one is read again). Kept or stored endpoints are checked again on every use.
public final class OAuthDiscovery: Sendable {
    /// Reads what the server at a base URL advertises.
    public typealias Advertised = @Sendable (URL) async throws -> AdvertisedEndpoints

    /// The family, for the errors.
    public let family: String
    private let urlPolicy: URLPolicy
    private let store: (any CredentialStore)?
    private let storeKey: String
    private let protocolNames: Set<String>
    private let advertised: Advertised
    private let cache = LockedValue<[String: AdvertisedEndpoints]>([:])

    /// Creates a discovery.
    ///
    /// - Parameters:
    ///   - family: the family, for the errors.
    ///   - urlPolicy: which URLs may be used.
    ///   - store: where what was read is kept across launches; nil keeps it in memory only.
    ///   - storeKey: the key it is kept under.
    ///   - protocolNames: the parameters the family's authorization request sets besides the layer's reserved ones.
    ///   - advertised: reads what the server at a base URL advertises.
    public init(
        family: String, urlPolicy: URLPolicy, store: (any CredentialStore)? = nil, storeKey: String = "",
        protocolNames: Set<String> = [], advertised: @escaping Advertised
    ) {
        self.family = family
        self.urlPolicy = urlPolicy
        self.store = store
        self.storeKey = storeKey
        self.protocolNames = protocolNames
        self.advertised = advertised
    }

    /// The endpoints of `registration`: the configured ones, completed by what the server advertises (read when
    /// nothing is kept for its base URL and a needed endpoint is not configured).
    ///
    /// - Parameters:
    ///   - registration: the server's registration.
    ///   - needed: the endpoints the caller cannot do without; the token endpoint always is.
    /// - Throws: ``SignInError`` for a missing, untrusted or malformed endpoint or issuer,
    ///   `ConfigurationError.insecureURL` for one the URL policy refuses, and what reading the metadata throws.
    public func endpoints(for registration: OAuthRegistration, needing needed: Set<EndpointName> = []) async throws
        -> OAuthEndpoints
    {
        let needed = needed.union([.token])
        if let kept = await kept(for: registration.baseURL) {
            return try combined(kept, for: registration, needing: needed)
        }
        if needed.allSatisfy({ registration.endpoints[$0] != nil }) {
            return try combined(AdvertisedEndpoints(), for: registration, needing: needed)
        }
        try urlPolicy.check(registration.baseURL)
        let found = try await advertised(registration.baseURL)
        let endpoints = try combined(found, for: registration, needing: needed)
        let key = registration.baseURL.absoluteString
        let all = cache.withValue { cache -> [String: AdvertisedEndpoints] in
            cache[key] = found
            return cache
        }
        if let store { try await store.writeValue(all, for: storeKey) }
        return endpoints
    }

    /// The endpoints of `registration` from what was read before (memory or store), checked again, without
    /// network; nil when nothing was read for its base URL yet.
    public func keptEndpoints(for registration: OAuthRegistration) async throws -> OAuthEndpoints? {
        try await kept(for: registration.baseURL).map { try combined($0, for: registration, needing: [.token]) }
    }

    /// Forgets what was read for `base` (the server moved an endpoint), so that the next use reads it again.
    public func invalidate(_ base: URL) async throws {
        let all = cache.withValue { cache -> [String: AdvertisedEndpoints] in
            cache[base.absoluteString] = nil
            return cache
        }
        if let store { try await store.writeValue(all, for: storeKey) }
    }

    /// Checks endpoints kept elsewhere (with a pending authorization, say) as discovered ones are checked: each on an
    /// origin `registration` trusts, or configured there, and allowed by the URL policy; the issuer on such an
    /// origin too (RFC 8414 §3.3); none written with userinfo; no reserved parameter in an authorization endpoint
    /// the server named.
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/untrustedEndpoint`` or
    ///   ``SignInError/Code/untrustedIssuer``; `ConfigurationError.insecureURL`.
    public func check(_ endpoints: OAuthEndpoints, for registration: OAuthRegistration) throws {
        let origins = registration.trustedOrigins
        if let issuer = endpoints.issuer, !(URL(string: issuer).map(origins.contains) ?? false) {
            throw SignInError(
                .untrustedIssuer,
                "the server at \(registration.baseURL.absoluteString) names the issuer \(issuer), which is not on an "
                    + "origin its registration trusts (written without userinfo); add its host to that "
                    + "registration's trustedHosts if it is really the server's",
                family: family)
        }
        for name in EndpointName.allCases {
            guard let url = endpoints[name] else { continue }
            let configured = registration.endpoints[name] == url
            if url.user != nil || url.password != nil || (!configured && !origins.contains(url)) {
                throw SignInError(
                    .untrustedEndpoint,
                    "the server's \(name.rawValue) is \(Self.origin(of: url)), not on an origin its registration "
                        + "trusts; configure it in the registration's endpoints, or add its host to trustedHosts if it "
                        + "is really the server's",
                    family: family)
            }
            if !configured, name == .authorization, let reserved = reservedQueryName(url) {
                throw SignInError(
                    .untrustedEndpoint,
                    "the server's authorization_endpoint has a query that sets \(reserved), a parameter the SDK sets "
                        + "itself; configure the endpoint in the registration if it is really the server's",
                    family: family)
            }
            try urlPolicy.check(url)
        }
    }

    /// The first name in `url`'s query that the authorization request sets itself.
    private func reservedQueryName(_ url: URL) -> String? {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.first { AuthorizationParameters.isReserved($0.name, protocolNames: protocolNames) }?.name
    }

    /// `scheme://host:port` of `url`, without userinfo or path.
    private static func origin(of url: URL) -> String {
        (url.user != nil || url.password != nil ? "written with userinfo, " : "")
            + "on \(url.scheme ?? "")://\(url.host ?? "no host")\(url.port.map { ":\($0)" } ?? "")"
    }

    /// What was read for `base` before, from memory or the store.
    private func kept(for base: URL) async -> AdvertisedEndpoints? {
        let key = base.absoluteString
        if let found = cache.current[key] { return found }
        // An unreadable cache is only a cache: read the metadata again.
        guard let store, let stored = try? await store.readValue([String: AdvertisedEndpoints].self, for: storeKey),
            let found = stored[key]
        else { return nil }
        cache.withValue { $0[key] = found }
        return found
    }

    /// The configured endpoints completed by `advertised`, every one checked.
    private func combined(
        _ advertised: AdvertisedEndpoints, for registration: OAuthRegistration, needing needed: Set<EndpointName>
    ) throws -> OAuthEndpoints {
        let base = registration.baseURL
        var urls: [EndpointName: URL] = [:]
        for name in EndpointName.allCases {
            if let configured = registration.endpoints[name] {
                urls[name] = configured
            } else if let uri = advertised.uris[name], !uri.isEmpty {
                guard let url = URL(string: uri, relativeTo: base)?.absoluteURL, url.host != nil else {
                    throw SignInError(
                        .discoveryFailed, "the server's \(name.rawValue) is not a URL; configure it", family: family)
                }
                urls[name] = url
            }
        }
        let missing = EndpointName.allCases.filter { needed.contains($0) && urls[$0] == nil }
        guard missing.isEmpty, let token = urls[.token] else {
            throw SignInError(
                .discoveryFailed,
                "the server at \(base.absoluteString) names no \(missing.map(\.rawValue).joined(separator: " or ")); "
                    + "configure it in the registration's endpoints",
                family: family)
        }
        let endpoints = OAuthEndpoints(
            baseURL: base, issuer: advertised.issuer, issuerParameterSupported: advertised.issuerParameterSupported,
            authorization: urls[.authorization], token: token,
            revocation: urls[.revocation], introspection: urls[.introspection], jwks: urls[.jwks],
            codeChallengeMethods: advertised.codeChallengeMethods,
            tokenEndpointAuthMethods: advertised.tokenEndpointAuthMethods, capabilities: advertised.capabilities)
        try check(endpoints, for: registration)
        return endpoints
    }
}
