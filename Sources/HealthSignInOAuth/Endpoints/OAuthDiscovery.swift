import Foundation
import HealthSignInCore

/// Finds an authorization server's endpoints for a base URL and keeps what it found.
///
/// - Configured endpoints (``EndpointOverrides``) win, and are used as they are; when every endpoint a caller needs
///   is configured, nothing is read.
/// - The rest come from what the server advertises (its metadata, read by the family's `advertised` function),
///   resolved against the base URL. Each must be on the base URL's origin or a trusted one (``TrustedOrigins``):
///   the metadata cannot send the client's secret or tokens elsewhere. So must its `issuer`: the metadata of one
///   server cannot name another as the issuer whose id tokens and authorization responses are accepted.
/// - What was read is kept per base URL, in memory and, when the family gives a store, under a key of it (a cache,
///   not a credential: an unreadable one is read again). Kept or stored endpoints are checked again on every use.
public final class OAuthDiscovery: Sendable {
    /// Reads what the server at a base URL advertises.
    public typealias Advertised = @Sendable (URL) async throws -> AdvertisedEndpoints

    /// The endpoints configured by hand.
    public let overrides: EndpointOverrides
    private let trustedHosts: [String]
    private let urlPolicy: URLPolicy
    private let store: (any CredentialStore)?
    private let storeKey: String
    private let advertised: Advertised
    private let cache = LockedValue<[URL: AdvertisedEndpoints]>([:])

    /// Creates a discovery.
    ///
    /// - Parameters:
    ///   - overrides: endpoints configured by hand.
    ///   - trustedHosts: hosts (`host` or `host:port`) besides the base URL's that endpoints may be on.
    ///   - urlPolicy: which URLs may be used.
    ///   - store: where what was read is kept across launches; nil keeps it in memory only.
    ///   - storeKey: the key it is kept under.
    ///   - advertised: reads what the server at a base URL advertises.
    public init(
        overrides: EndpointOverrides = .init(), trustedHosts: [String] = [], urlPolicy: URLPolicy,
        store: (any CredentialStore)? = nil, storeKey: String = "", advertised: @escaping Advertised
    ) {
        self.overrides = overrides
        self.trustedHosts = trustedHosts
        self.urlPolicy = urlPolicy
        self.store = store
        self.storeKey = storeKey
        self.advertised = advertised
    }

    /// The endpoints for `base`: the configured ones, completed by what the server advertises (read when nothing is
    /// kept for `base` and a needed endpoint is not configured).
    ///
    /// - Parameters:
    ///   - base: the base URL, such as a FHIR server's.
    ///   - needed: the endpoints the caller cannot do without; the token endpoint always is.
    /// - Throws: ``DiscoveryError`` for a missing, untrusted or malformed endpoint, `ConfigurationError.insecureURL`
    ///   for one the URL policy refuses, and what reading the metadata throws.
    public func endpoints(for base: URL, needing needed: Set<EndpointName> = []) async throws -> OAuthEndpoints {
        let needed = needed.union([.token])
        if let kept = try kept(for: base) { return try combined(kept, base: base, needing: needed) }
        if needed.allSatisfy({ overrides[$0] != nil }) {
            return try combined(AdvertisedEndpoints(), base: base, needing: needed)
        }
        try urlPolicy.check(base)
        let found = try await advertised(base)
        let endpoints = try combined(found, base: base, needing: needed)
        cache.withValue { $0[base] = found }
        if let store { try store.writeValue(KeptEndpoints(baseURL: base, advertised: found), for: storeKey) }
        return endpoints
    }

    /// The endpoints for `base` from what was read before (memory or store), checked again, without network; nil
    /// when nothing was read for `base` yet.
    public func keptEndpoints(for base: URL) throws -> OAuthEndpoints? {
        try kept(for: base).map { try combined($0, base: base, needing: [.token]) }
    }

    /// Forgets what was read for `base` (the server moved an endpoint), so that the next use reads it again.
    public func invalidate(_ base: URL) throws {
        cache.withValue { $0[base] = nil }
        if let store, (try? store.readValue(KeptEndpoints.self, for: storeKey))?.baseURL == base {
            try store.remove(storeKey)
        }
    }

    /// Checks endpoints kept elsewhere (with a pending authorization, say) as discovered ones are checked: each on a
    /// trusted origin of their base URL, or configured, and allowed by the URL policy; and the issuer on a trusted
    /// origin too, so that metadata read from one server cannot claim another's identity (RFC 8414 §3.3).
    ///
    /// - Throws: ``DiscoveryError/untrustedEndpoint(name:url:)``, ``DiscoveryError/untrustedIssuer(_:)``,
    ///   `ConfigurationError.insecureURL`.
    public func check(_ endpoints: OAuthEndpoints) throws {
        let origins = TrustedOrigins(base: endpoints.baseURL, trustedHosts: trustedHosts)
        if let issuer = endpoints.issuer, !(URL(string: issuer).map(origins.contains) ?? false) {
            throw DiscoveryError.untrustedIssuer(issuer)
        }
        for name in EndpointName.allCases {
            guard let url = endpoints[name] else { continue }
            if overrides[name] != url { try origins.check(name, url) }
            try urlPolicy.check(url)
        }
    }

    /// What was read for `base` before, from memory or the store.
    private func kept(for base: URL) throws -> AdvertisedEndpoints? {
        if let found = cache.current[base] { return found }
        // An unreadable cache is only a cache: read the metadata again.
        guard let store, let stored = try? store.readValue(KeptEndpoints.self, for: storeKey), stored.baseURL == base
        else { return nil }
        cache.withValue { $0[base] = stored.advertised }
        return stored.advertised
    }

    /// The configured endpoints completed by `advertised`, every one checked.
    private func combined(_ advertised: AdvertisedEndpoints, base: URL, needing needed: Set<EndpointName>) throws
        -> OAuthEndpoints
    {
        var urls: [EndpointName: URL] = [:]
        for name in EndpointName.allCases {
            if let configured = overrides[name] {
                urls[name] = configured
            } else if let uri = advertised.uris[name], !uri.isEmpty {
                guard let url = URL(string: uri, relativeTo: base)?.absoluteURL, url.host != nil else {
                    throw DiscoveryError.invalidEndpoint(name)
                }
                urls[name] = url
            }
        }
        let missing = EndpointName.allCases.filter { needed.contains($0) && urls[$0] == nil }
        guard missing.isEmpty, let token = urls[.token] else { throw DiscoveryError.missingEndpoints(missing) }
        let endpoints = OAuthEndpoints(
            baseURL: base, issuer: advertised.issuer, issuerParameterSupported: advertised.issuerParameterSupported,
            authorization: urls[.authorization], token: token,
            revocation: urls[.revocation], introspection: urls[.introspection], jwks: urls[.jwks],
            codeChallengeMethods: advertised.codeChallengeMethods,
            tokenEndpointAuthMethods: advertised.tokenEndpointAuthMethods, capabilities: advertised.capabilities)
        try check(endpoints)
        return endpoints
    }

    /// What is kept in the store: what was read, and for which base URL.
    private struct KeptEndpoints: Codable, Sendable {
        var baseURL: URL
        var advertised: AdvertisedEndpoints
    }
}
