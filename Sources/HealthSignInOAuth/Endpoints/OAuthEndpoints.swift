import Foundation
import HealthSignInCore

/// An authorization server's endpoints for one base URL, resolved against it and checked: configured ones, and the
/// rest as its metadata advertised them, each on a trusted origin.
public struct OAuthEndpoints: Sendable, Hashable, Codable {
    /// The base URL they were found for: the FHIR server, say, whose metadata named them.
    public var baseURL: URL
    /// The issuer identifier, the expected `iss` of id tokens and authorization responses.
    public var issuer: String?
    /// Whether the server says every authorization response carries `iss` (RFC 9207), so one without it is refused.
    public var issuerParameterSupported: Bool
    /// The authorization endpoint.
    public var authorization: URL?
    /// The token endpoint.
    public var token: URL
    /// The RFC 7009 revocation endpoint.
    public var revocation: URL?
    /// The RFC 7662 introspection endpoint.
    public var introspection: URL?
    /// The key set that signs id tokens.
    public var jwks: URL?
    /// The PKCE methods advertised; S256 is used whatever this says.
    public var codeChallengeMethods: [String]
    /// The client authentication methods of the token endpoint.
    public var tokenEndpointAuthMethods: [String]
    /// The capabilities a SMART configuration lists, e.g. `launch-ehr`, `sso-openid-connect`.
    public var capabilities: [String]

    /// Creates endpoints, for a server whose metadata is configured rather than read.
    public init(
        baseURL: URL, issuer: String? = nil, issuerParameterSupported: Bool = false, authorization: URL? = nil,
        token: URL, revocation: URL? = nil, introspection: URL? = nil, jwks: URL? = nil,
        codeChallengeMethods: [String] = [], tokenEndpointAuthMethods: [String] = [], capabilities: [String] = []
    ) {
        self.baseURL = baseURL
        self.issuer = issuer
        self.issuerParameterSupported = issuerParameterSupported
        self.authorization = authorization
        self.token = token
        self.revocation = revocation
        self.introspection = introspection
        self.jwks = jwks
        self.codeChallengeMethods = codeChallengeMethods
        self.tokenEndpointAuthMethods = tokenEndpointAuthMethods
        self.capabilities = capabilities
    }

    private enum CodingKeys: String, CodingKey {
        case baseURL, issuer, issuerParameterSupported, authorization, token, revocation, introspection, jwks,
            codeChallengeMethods, tokenEndpointAuthMethods, capabilities
        /// Where earlier versions of the SMART family stored the base URL.
        case fhirBaseURL
    }

    /// Reads stored endpoints, also as earlier versions of the SMART family stored them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        baseURL =
            try container.decodeIfPresent(URL.self, forKey: .baseURL)
            ?? container.decode(URL.self, forKey: .fhirBaseURL)
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer)
        issuerParameterSupported =
            try container.decodeIfPresent(Bool.self, forKey: .issuerParameterSupported) ?? false
        authorization = try container.decodeIfPresent(URL.self, forKey: .authorization)
        token = try container.decode(URL.self, forKey: .token)
        revocation = try container.decodeIfPresent(URL.self, forKey: .revocation)
        introspection = try container.decodeIfPresent(URL.self, forKey: .introspection)
        jwks = try container.decodeIfPresent(URL.self, forKey: .jwks)
        codeChallengeMethods = try container.decodeIfPresent([String].self, forKey: .codeChallengeMethods) ?? []
        tokenEndpointAuthMethods =
            try container.decodeIfPresent([String].self, forKey: .tokenEndpointAuthMethods) ?? []
        capabilities = try container.decodeIfPresent([String].self, forKey: .capabilities) ?? []
    }

    /// Writes the endpoints.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(baseURL, forKey: .baseURL)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        if issuerParameterSupported { try container.encode(true, forKey: .issuerParameterSupported) }
        try container.encodeIfPresent(authorization, forKey: .authorization)
        try container.encode(token, forKey: .token)
        try container.encodeIfPresent(revocation, forKey: .revocation)
        try container.encodeIfPresent(introspection, forKey: .introspection)
        try container.encodeIfPresent(jwks, forKey: .jwks)
        try container.encode(codeChallengeMethods, forKey: .codeChallengeMethods)
        try container.encode(tokenEndpointAuthMethods, forKey: .tokenEndpointAuthMethods)
        try container.encode(capabilities, forKey: .capabilities)
    }

    /// The issuer id tokens and authorization responses must name: the metadata's `issuer`, or the base URL the
    /// metadata was read from when it names none.
    public var expectedIssuer: String { issuer ?? baseURL.absoluteString }

    /// The endpoint named `name`.
    public subscript(name: EndpointName) -> URL? {
        switch name {
        case .authorization: return authorization
        case .token: return token
        case .revocation: return revocation
        case .introspection: return introspection
        case .jwks: return jwks
        }
    }
}

/// The endpoints an authorization server may have, as its metadata names them.
public enum EndpointName: String, Sendable, Hashable, CaseIterable, Codable {
    /// `authorization_endpoint`.
    case authorization = "authorization_endpoint"
    /// `token_endpoint`.
    case token = "token_endpoint"
    /// `revocation_endpoint`.
    case revocation = "revocation_endpoint"
    /// `introspection_endpoint`.
    case introspection = "introspection_endpoint"
    /// `jwks_uri`.
    case jwks = "jwks_uri"
}

/// Endpoints configured by hand; each one set here wins over discovery and is used as it is.
public struct EndpointOverrides: Sendable, Hashable {
    /// The authorization endpoint.
    public var authorization: URL?
    /// The token endpoint.
    public var token: URL?
    /// The revocation endpoint.
    public var revocation: URL?
    /// The introspection endpoint.
    public var introspection: URL?
    /// The key set that signs id tokens.
    public var jwks: URL?

    /// Creates overrides.
    public init(
        authorization: URL? = nil, token: URL? = nil, revocation: URL? = nil, introspection: URL? = nil,
        jwks: URL? = nil
    ) {
        self.authorization = authorization
        self.token = token
        self.revocation = revocation
        self.introspection = introspection
        self.jwks = jwks
    }

    /// The endpoint named `name`, when configured.
    public subscript(name: EndpointName) -> URL? {
        switch name {
        case .authorization: return authorization
        case .token: return token
        case .revocation: return revocation
        case .introspection: return introspection
        case .jwks: return jwks
        }
    }
}

/// What a server's metadata says about its endpoints, as written: URIs that may be relative to the base URL.
public struct AdvertisedEndpoints: Sendable, Hashable, Codable {
    /// The issuer identifier.
    public var issuer: String?
    /// Whether every authorization response carries `iss` (RFC 9207).
    public var issuerParameterSupported: Bool
    /// Each endpoint's URI, by name.
    public var uris: [EndpointName: String]
    /// The PKCE methods advertised.
    public var codeChallengeMethods: [String]
    /// The client authentication methods of the token endpoint.
    public var tokenEndpointAuthMethods: [String]
    /// The SMART capabilities listed.
    public var capabilities: [String]

    /// Creates what a server advertises.
    public init(
        issuer: String? = nil, issuerParameterSupported: Bool = false, uris: [EndpointName: String] = [:],
        codeChallengeMethods: [String] = [], tokenEndpointAuthMethods: [String] = [], capabilities: [String] = []
    ) {
        self.issuer = issuer
        self.issuerParameterSupported = issuerParameterSupported
        self.uris = uris
        self.codeChallengeMethods = codeChallengeMethods
        self.tokenEndpointAuthMethods = tokenEndpointAuthMethods
        self.capabilities = capabilities
    }

    /// What RFC 8414 metadata (or a SMART configuration) advertises; `capabilities` from its SMART member.
    public init(_ metadata: ServerMetadata) {
        let uris: [EndpointName: String?] = [
            .authorization: metadata.authorizationEndpoint, .token: metadata.tokenEndpoint,
            .revocation: metadata.revocationEndpoint, .introspection: metadata.introspectionEndpoint,
            .jwks: metadata.jwksURI,
        ]
        self.init(
            issuer: metadata.issuer,
            issuerParameterSupported: metadata.authorizationResponseIssParameterSupported ?? false,
            uris: uris.compactMapValues { $0 },
            codeChallengeMethods: metadata.codeChallengeMethodsSupported,
            tokenEndpointAuthMethods: metadata.tokenEndpointAuthMethodsSupported,
            capabilities: metadata.additionalProperties["capabilities"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}
