import Foundation
import SDKRuntime

/// Finds a Koppeltaal server's OAuth endpoints and keeps them: configured endpoints win; the rest come from the
/// Conformance (any of its four spellings, JSON or XML) and, when enabled, the SMART configuration. The result is
/// kept in memory and in the store (under the session's key plus `.endpoints`), apart from the grant: it is a cache,
/// not a credential.
final class KoppeltaalDiscovery: Sendable {
    private let configuration: KoppeltaalSession.Configuration
    private let cached = LockedValue<KoppeltaalEndpoints?>(nil)

    init(configuration: KoppeltaalSession.Configuration) {
        self.configuration = configuration
    }

    private var storeKey: String { configuration.storeKey + ".endpoints" }

    /// The endpoints found before, from memory or the store, without network.
    func cachedEndpoints() throws -> KoppeltaalEndpoints? {
        if let endpoints = cached.current { return endpoints }
        // An unreadable cache is only a cache: discover again.
        let stored = try? configuration.store.readValue(KoppeltaalEndpoints.self, for: storeKey)
        if let stored { cached.withValue { $0 = stored } }
        return stored
    }

    /// The endpoints, discovered when nothing is cached.
    ///
    /// - Throws: ``KoppeltaalError/discoveryFailed(missing:)`` naming the endpoints nobody gave,
    ///   `ConfigurationError.insecureURL` for an endpoint that is not https.
    func endpoints() async throws -> KoppeltaalEndpoints {
        if let cached = try cachedEndpoints() { return cached }
        let overrides = configuration.endpoints
        // Both required endpoints configured by hand: nothing to discover (the revocation endpoint is optional).
        let advertised =
            overrides.authorize != nil && overrides.token != nil
            ? AdvertisedEndpoints() : try await advertisedEndpoints()
        let authorize: URL? = try overrides.authorize ?? resolve(advertised.uris["authorize"])
        let token: URL? = try overrides.token ?? resolve(advertised.uris["token"])
        let revoke: URL? = try overrides.revoke ?? resolve(advertised.uris["revoke"])
        guard let authorize, let token else {
            var missing: [String] = []
            if authorize == nil { missing.append("authorize") }
            if token == nil { missing.append("token") }
            throw KoppeltaalError.discoveryFailed(missing: missing)
        }
        try configuration.urlPolicy.check(authorize)
        try configuration.urlPolicy.check(token)
        if let revoke { try configuration.urlPolicy.check(revoke) }
        let endpoints = KoppeltaalEndpoints(
            authorize: authorize, token: token, revoke: revoke, codeChallengeMethods: advertised.codeChallengeMethods)
        try configuration.store.writeValue(endpoints, for: storeKey)
        cached.withValue { $0 = endpoints }
        configuration.logger.log(.info, "Koppeltaal", "discovered the OAuth endpoints")
        return endpoints
    }

    /// Forgets the endpoints (the server moved one), so the next use discovers again.
    func invalidate() throws {
        cached.withValue { $0 = nil }
        try configuration.store.remove(storeKey)
    }

    /// What the server says about itself: endpoint URIs by name, and the PKCE methods it supports.
    private struct AdvertisedEndpoints {
        var uris: [String: String] = [:]
        var codeChallengeMethods: [String] = []
    }

    /// The Conformance's endpoints, completed by the SMART configuration when it is read and available.
    private func advertisedEndpoints() async throws -> AdvertisedEndpoints {
        try configuration.urlPolicy.check(configuration.fhirBaseURL)
        let client = configuration.client(.init(fhir: configuration.fhirBaseURL), transport: configuration.transport)
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
        KoppeltaalClient(
            configuration: .init(
                servers: servers, transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger))
    }
}
