import Foundation
import SDKRuntime

/// Finds a Koppeltaal server's OAuth endpoints and keeps them: configured endpoints win; the rest come from the
/// Conformance (any of its four spellings, JSON or XML) and, when enabled, the SMART configuration. What discovery
/// found is kept in memory and in the store (under the session's key plus `.endpoints`, apart from the grant: it is a
/// cache, not a credential), with the FHIR base URL it came from, so a changed base URL discovers again.
///
/// A discovered endpoint receives the client secret and the tokens, so it must be on the FHIR base URL's host or on
/// one of ``KoppeltaalSession/Configuration/trustedEndpointHosts``: a Conformance cannot send secrets elsewhere.
final class KoppeltaalDiscovery: Sendable {
    private let configuration: KoppeltaalSession.Configuration
    private let cached = LockedValue<DiscoveredEndpoints?>(nil)

    init(configuration: KoppeltaalSession.Configuration) {
        self.configuration = configuration
    }

    private var storeKey: String { configuration.storeKey + ".endpoints" }

    /// The endpoints, with the overrides applied, from what was discovered before (memory or store), without
    /// network; nil when nothing was discovered for this FHIR base URL yet.
    func cachedEndpoints() throws -> KoppeltaalEndpoints? {
        try cachedDiscovery().map(combined)
    }

    /// The endpoints: the overrides, completed by what the server advertises (discovered when nothing is cached).
    ///
    /// - Throws: ``KoppeltaalError/discoveryFailed(missing:)`` naming the endpoints nobody gave,
    ///   ``KoppeltaalError/untrustedEndpoint(name:url:)`` for a discovered endpoint on another host,
    ///   `ConfigurationError.insecureURL` for an endpoint that is not https.
    func endpoints() async throws -> KoppeltaalEndpoints {
        let overrides = configuration.endpoints
        if let cached = try cachedDiscovery() { return try combined(cached) }
        // Both required endpoints configured by hand: nothing to discover (the revocation endpoint is optional).
        if overrides.authorize != nil, overrides.token != nil {
            return try combined(DiscoveredEndpoints(fhirBaseURL: configuration.fhirBaseURL))
        }
        let discovered = try await discover()
        let endpoints = try combined(discovered)
        try configuration.store.writeValue(discovered, for: storeKey)
        cached.withValue { $0 = discovered }
        configuration.options.logger.log(.info, "Koppeltaal", "discovered the OAuth endpoints")
        return endpoints
    }

    /// Forgets the endpoints (the server moved one), so the next use discovers again.
    func invalidate() throws {
        cached.withValue { $0 = nil }
        try configuration.store.remove(storeKey)
    }

    /// What was discovered before for this FHIR base URL, from memory or the store.
    private func cachedDiscovery() throws -> DiscoveredEndpoints? {
        let base = configuration.fhirBaseURL
        if let discovered = cached.current, discovered.fhirBaseURL == base { return discovered }
        // An unreadable cache is only a cache: discover again.
        guard let stored = try? configuration.store.readValue(DiscoveredEndpoints.self, for: storeKey),
            stored.fhirBaseURL == base
        else { return nil }
        cached.withValue { $0 = stored }
        return stored
    }

    /// The overrides, completed by `discovered`; every endpoint checked against the URL policy, and every
    /// discovered one against the trusted hosts.
    private func combined(_ discovered: DiscoveredEndpoints) throws -> KoppeltaalEndpoints {
        let overrides = configuration.endpoints
        let authorize = overrides.authorize ?? discovered.authorize
        let token = overrides.token ?? discovered.token
        let revoke = overrides.revoke ?? discovered.revoke
        guard let authorize, let token else {
            var missing: [String] = []
            if authorize == nil { missing.append("authorize") }
            if token == nil { missing.append("token") }
            throw KoppeltaalError.discoveryFailed(missing: missing)
        }
        if overrides.authorize == nil { try checkTrusted("authorize", authorize) }
        if overrides.token == nil { try checkTrusted("token", token) }
        if overrides.revoke == nil, let revoke { try checkTrusted("revoke", revoke) }
        try configuration.options.urlPolicy.check(authorize)
        try configuration.options.urlPolicy.check(token)
        if let revoke { try configuration.options.urlPolicy.check(revoke) }
        return KoppeltaalEndpoints(
            authorize: authorize, token: token, revoke: revoke, codeChallengeMethods: discovered.codeChallengeMethods)
    }

    /// Throws unless `url`, discovered, is on the FHIR base URL's host or a trusted one.
    private func checkTrusted(_ name: String, _ url: URL) throws {
        let hosts = [configuration.fhirBaseURL.host].compactMap { $0 } + configuration.trustedEndpointHosts
        guard let host = url.host?.lowercased(), hosts.contains(where: { $0.lowercased() == host }) else {
            throw KoppeltaalError.untrustedEndpoint(name: name, url: url)
        }
    }

    /// What the server advertises, resolved against the FHIR base URL.
    private func discover() async throws -> DiscoveredEndpoints {
        let advertised = try await advertisedEndpoints()
        return DiscoveredEndpoints(
            fhirBaseURL: configuration.fhirBaseURL, authorize: try resolve(advertised.uris["authorize"]),
            token: try resolve(advertised.uris["token"]), revoke: try resolve(advertised.uris["revoke"]),
            codeChallengeMethods: advertised.codeChallengeMethods)
    }

    /// What discovery found for one FHIR base URL: the unit of the cache.
    private struct DiscoveredEndpoints: Codable, Sendable {
        var fhirBaseURL: URL
        var authorize: URL?
        var token: URL?
        var revoke: URL?
        var codeChallengeMethods: [String] = []
    }

    /// What the server says about itself: endpoint URIs by name, and the PKCE methods it supports.
    private struct AdvertisedEndpoints {
        var uris: [String: String] = [:]
        var codeChallengeMethods: [String] = []
    }

    /// The Conformance's endpoints, completed by the SMART configuration when it is read and available.
    private func advertisedEndpoints() async throws -> AdvertisedEndpoints {
        try configuration.options.urlPolicy.check(configuration.fhirBaseURL)
        let client = configuration.client(
            .init(fhir: configuration.fhirBaseURL), transport: configuration.options.transport)
        var advertised = AdvertisedEndpoints(uris: ConformanceEndpoints.uris(in: try await client.conformance()))
        guard configuration.readsSMARTConfiguration, let smart = try? await client.smartConfiguration() else {
            return advertised
        }
        let smartURIs: [String: String?] = [
            "authorize": smart.authorizationEndpoint, "token": smart.tokenEndpoint, "revoke": smart.revocationEndpoint,
        ]
        for (name, value) in smartURIs where advertised.uris[name] == nil {
            advertised.uris[name] = value
        }
        advertised.codeChallengeMethods = smart.codeChallengeMethodsSupported
        return advertised
    }

    /// An absolute URL for a URI from discovery: relative ones resolve against the FHIR base.
    private func resolve(_ uri: String?) throws -> URL? {
        guard let uri, !uri.isEmpty else { return nil }
        guard let url = URL(string: uri, relativeTo: configuration.fhirBaseURL)?.absoluteURL else {
            throw RequestEncodingError.invalidURL("the server named an endpoint that is not a URL")
        }
        return url
    }
}

extension KoppeltaalSession.Configuration {
    /// A client for `servers`, sending through `transport`.
    func client(_ servers: KoppeltaalClient.Servers, transport: any HTTPTransport) -> KoppeltaalClient {
        var options = options
        options.transport = transport
        return KoppeltaalClient(configuration: .init(servers: servers, options: options))
    }
}
