import Foundation
import HealthSignInCore
import HealthSignInOAuth

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
    /// The endpoints a Koppeltaal session uses, by their names in `oauth-uris`.
    static let names: [String: EndpointName] = ["authorize": .authorization, "token": .token, "revoke": .revocation]

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

    /// What a Koppeltaal server at `base` advertises: the Conformance's endpoints, completed by the SMART
    /// configuration when `readsSMARTConfiguration` and the server has one (with the PKCE methods it lists).
    static func advertised(at base: URL, options: ClientOptions, readsSMARTConfiguration: Bool) async throws
        -> AdvertisedEndpoints
    {
        let client = KoppeltaalAPIClient(configuration: .init(servers: .init(fhir: base), options: options))
        var advertised = AdvertisedEndpoints()
        for (name, uri) in uris(in: try await client.conformance()) {
            if let endpoint = names[name] { advertised.uris[endpoint] = uri }
        }
        guard readsSMARTConfiguration, let smart = try? await client.smartConfiguration() else { return advertised }
        for (name, uri) in AdvertisedEndpoints(smart).uris where names.values.contains(name) {
            advertised.uris[name] = advertised.uris[name] ?? uri
        }
        advertised.codeChallengeMethods = smart.codeChallengeMethodsSupported
        return advertised
    }
}
