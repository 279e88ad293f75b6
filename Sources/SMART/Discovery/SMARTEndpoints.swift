import Foundation
import SDKRuntime

/// What a FHIR server's `.well-known/smart-configuration` says, with every URL resolved against the FHIR base and
/// checked: the endpoints a launch and a backend use, and what the server supports.
public struct SMARTEndpoints: Sendable, Hashable, Codable {
    /// The FHIR base URL the document was read from; the `aud` of authorization requests.
    public let fhirBaseURL: URL
    /// The OpenID Connect issuer, the expected `iss` of id tokens.
    public let issuer: String?
    /// The authorization endpoint.
    public let authorization: URL?
    /// The token endpoint.
    public let token: URL
    /// The RFC 7009 revocation endpoint.
    public let revocation: URL?
    /// The RFC 7662 introspection endpoint.
    public let introspection: URL?
    /// The server's key set, which signs id tokens.
    public let jwks: URL?
    /// The SMART capabilities, e.g. `launch-ehr`, `sso-openid-connect`.
    public let capabilities: [String]
    /// The PKCE methods; S256 is used whatever this says.
    public let codeChallengeMethods: [String]
    /// The client authentication methods of the token endpoint.
    public let tokenEndpointAuthMethods: [String]

    /// Creates endpoints, for a server whose document is configured rather than read.
    public init(
        fhirBaseURL: URL, issuer: String? = nil, authorization: URL? = nil, token: URL, revocation: URL? = nil,
        introspection: URL? = nil, jwks: URL? = nil, capabilities: [String] = [], codeChallengeMethods: [String] = [],
        tokenEndpointAuthMethods: [String] = []
    ) {
        self.fhirBaseURL = fhirBaseURL
        self.issuer = issuer
        self.authorization = authorization
        self.token = token
        self.revocation = revocation
        self.introspection = introspection
        self.jwks = jwks
        self.capabilities = capabilities
        self.codeChallengeMethods = codeChallengeMethods
        self.tokenEndpointAuthMethods = tokenEndpointAuthMethods
    }
}

/// Reads and checks SMART configurations, once per FHIR base URL for the lifetime of the value.
final class SMARTDiscovery: Sendable {
    private let options: ClientOptions
    private let trustedHosts: [String]
    private let cache = LockedValue<[URL: SMARTEndpoints]>([:])

    init(options: ClientOptions, trustedHosts: [String]) {
        self.options = options
        self.trustedHosts = trustedHosts
    }

    /// The endpoints of the server at `fhirBaseURL`.
    ///
    /// - Throws: ``SMARTError/untrustedEndpoint(name:url:)`` for an endpoint on a host that is neither the FHIR
    ///   server's nor trusted, ``SMARTError/discoveryFailed(_:)`` for a document that cannot be used,
    ///   `ConfigurationError.insecureURL` for an endpoint that is not https, and the request's errors.
    func endpoints(for fhirBaseURL: URL) async throws -> SMARTEndpoints {
        if let cached = cache.current[fhirBaseURL] { return cached }
        try options.urlPolicy.check(fhirBaseURL)
        let document = try await options.smartClient(.init(fhir: fhirBaseURL)).getConfiguration()
        let endpoints = try resolve(document, against: fhirBaseURL)
        cache.withValue { $0[fhirBaseURL] = endpoints }
        return endpoints
    }

    private func resolve(_ document: GetConfiguration.Response, against base: URL) throws -> SMARTEndpoints {
        func url(_ name: String, _ text: String?) throws -> URL? {
            guard let text else { return nil }
            guard let url = URL(string: text, relativeTo: base)?.absoluteURL, url.host != nil else {
                throw SMARTError.discoveryFailed("\(name) is not a URL")
            }
            try options.urlPolicy.check(url)
            guard url.host?.lowercased() == base.host?.lowercased() || trustedHosts.contains(url.host ?? "") else {
                throw SMARTError.untrustedEndpoint(name: name, url: url)
            }
            return url
        }
        guard let token = try url("token_endpoint", document.tokenEndpoint) else {
            throw SMARTError.discoveryFailed("token_endpoint is missing")
        }
        return SMARTEndpoints(
            fhirBaseURL: base, issuer: document.issuer,
            authorization: try url("authorization_endpoint", document.authorizationEndpoint), token: token,
            revocation: try url("revocation_endpoint", document.revocationEndpoint),
            introspection: try url("introspection_endpoint", document.introspectionEndpoint),
            jwks: try url("jwks_uri", document.jwksURI), capabilities: document.capabilities,
            codeChallengeMethods: document.codeChallengeMethodsSupported,
            tokenEndpointAuthMethods: document.tokenEndpointAuthMethodsSupported)
    }
}

extension ClientOptions {
    /// A generated client for `servers` with these options, sending through `transport` when one is given.
    func smartClient(_ servers: SMARTClient.Servers, transport: (any HTTPTransport)? = nil) -> SMARTClient {
        var options = self
        if let transport { options.transport = transport }
        return SMARTClient(configuration: .init(servers: servers, options: options))
    }
}
