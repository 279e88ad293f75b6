import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// Where a Koppeltaal 2.0 domain's endpoints are read: the SMART configuration first, as the specification says, then
/// the CapabilityStatement's `oauth-uris` extension, which the reference clients read and which servers whose SMART
/// configuration is switched off still serve.
enum Koppeltaal2Discovery {
    /// The extension of a CapabilityStatement's `rest.security` that names the OAuth endpoints.
    static let oauthURIs = "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris"

    /// What the domain at FHIR base `base` advertises.
    ///
    /// A transport failure or a cancellation ends the search at once; any other failure of the SMART configuration
    /// (most often a 404) moves on to the CapabilityStatement, and its failure is the one thrown.
    static func advertised(at base: URL, options: ClientOptions) async throws -> AdvertisedEndpoints {
        let client = Koppeltaal2APIClient(configuration: .init(servers: .init(fhir: base), options: options))
        do {
            return AdvertisedEndpoints(try await client.getSmartConfiguration().serverMetadata)
        } catch let error where error is TransportError || error is CancellationError {
            throw error
        } catch {
            return try advertised(in: try await client.getCapabilityStatement())
        }
    }

    /// The endpoints of a CapabilityStatement's `oauth-uris` extension (`token`, `authorize`, `introspect`, `jwks`
    /// and `issuer`, each a `valueUri`), from the first REST interface that has one.
    ///
    /// - Throws: `SignInError` (`SignInError.Code.discoveryFailed`) when no interface names a token endpoint.
    static func advertised(in statement: GetCapabilityStatement.KT2CapabilityStatement) throws -> AdvertisedEndpoints {
        let uris = statement.rest.lazy.compactMap { rest -> [String: String]? in
            guard let security = rest.security,
                let extensionOfURIs = security.extension.first(where: { $0.url == oauthURIs })
            else { return nil }
            var uris: [String: String] = [:]
            for entry in extensionOfURIs.extension {
                if let value = entry.valueURI, uris[entry.url] == nil { uris[entry.url] = value }
            }
            return uris
        }.first
        guard let uris, uris["token"] != nil else {
            throw SignInError(
                .discoveryFailed, "the CapabilityStatement names no token endpoint in its oauth-uris extension",
                family: "Koppeltaal2")
        }
        let names: [(String, EndpointName)] = [
            ("token", .token), ("authorize", .authorization), ("introspect", .introspection), ("jwks", .jwks),
        ]
        var endpoints: [EndpointName: String] = [:]
        for (key, name) in names { endpoints[name] = uris[key] }
        return AdvertisedEndpoints(
            issuer: uris["issuer"], uris: endpoints, codeChallengeMethods: ["S256"],
            tokenEndpointAuthMethods: ["private_key_jwt"])
    }
}
