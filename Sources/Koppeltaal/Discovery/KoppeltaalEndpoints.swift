import Foundation
import SDKRuntime

/// The OAuth endpoints of a Koppeltaal server and what it supports.
public struct KoppeltaalEndpoints: Sendable, Hashable, Codable {
    /// Where the activation code is exchanged for an authorization code.
    public let authorize: URL
    /// Where authorization codes and refresh tokens are redeemed.
    public let token: URL
    /// Where tokens are revoked (RFC 7009), when the server has such an endpoint.
    public let revoke: URL?
    /// The PKCE methods the server advertises (from the SMART configuration).
    public let codeChallengeMethods: [String]

    /// Creates a set of endpoints.
    public init(authorize: URL, token: URL, revoke: URL? = nil, codeChallengeMethods: [String] = []) {
        self.authorize = authorize
        self.token = token
        self.revoke = revoke
        self.codeChallengeMethods = codeChallengeMethods
    }
}

/// Endpoints configured by hand; each one set here wins over discovery.
public struct EndpointOverrides: Sendable, Hashable {
    /// The authorize endpoint.
    public var authorize: URL?
    /// The token endpoint.
    public var token: URL?
    /// The revocation endpoint.
    public var revoke: URL?

    /// Creates overrides.
    public init(authorize: URL? = nil, token: URL? = nil, revoke: URL? = nil) {
        self.authorize = authorize
        self.token = token
        self.revoke = revoke
    }
}

/// Reads the OAuth endpoints out of a Conformance statement.
///
/// Four spellings of the `oauth-uris` extension exist in the wild; all are accepted. When several are present the
/// SMART 1.0 nested form wins, then `StructureDefinition`, then the two flat `Profile` forms:
///
/// | form | extension URL |
/// |---|---|
/// | nested | `http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris`, with `authorize`, `token`, … inside |
/// | flat | `…smarthealthit.org/StructureDefinition/oauth-uris#authorize` |
/// | flat | `…smarthealthit.org/Profile/oauth-uris#authorize` |
/// | flat | `…smartplatforms.org/Profile/oauth-uris#authorize` (what Koppeltaal servers send) |
enum ConformanceEndpoints {
    static let nested = "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris"
    /// Flat-form bases, most preferred first.
    static let flat = [
        "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
        "http://fhir-registry.smarthealthit.org/Profile/oauth-uris",
        "http://fhir-registry.smartplatforms.org/Profile/oauth-uris",
    ]

    /// The endpoint URIs by name (`authorize`, `token`, `revoke`, …), as written (possibly relative).
    static func uris(in conformance: ConformanceStatement) -> [String: String] {
        let rest = conformance.rest.first { $0.mode?.lowercased() == "server" } ?? conformance.rest.first
        let extensions = rest?.security?.extensions ?? []
        var found: [String: (rank: Int, uri: String)] = [:]
        func offer(_ name: String, _ uri: String?, rank: Int) {
            guard let uri, !uri.isEmpty else { return }
            let key = name.lowercased()
            if let existing = found[key], existing.rank <= rank { return }
            found[key] = (rank, uri)
        }
        for item in extensions {
            if item.url == nested {
                for inner in item.extensions { offer(inner.url, inner.valueURI, rank: 0) }
                continue
            }
            guard let hash = item.url.firstIndex(of: "#") else { continue }
            let base = String(item.url[..<hash])
            let fragment = String(item.url[item.url.index(after: hash)...])
            if let rank = flat.firstIndex(of: base) { offer(fragment, item.valueURI, rank: rank + 1) }
        }
        return found.mapValues(\.uri)
    }
}
