import Foundation
import HealthSignInCore
import HealthSignInOAuth

extension OAuthDiscovery {
    /// A discovery that reads a FHIR server's `.well-known/smart-configuration`.
    static func smartConfiguration(
        overrides: EndpointOverrides = .init(), trustedHosts: [String], options: ClientOptions,
        store: (any CredentialStore)? = nil, storeKey: String = ""
    ) -> OAuthDiscovery {
        OAuthDiscovery(
            overrides: overrides, trustedHosts: trustedHosts, urlPolicy: options.urlPolicy, store: store,
            storeKey: storeKey
        ) { base in
            let client = SMARTAPIClient(configuration: .init(servers: .init(fhir: base), options: options))
            return AdvertisedEndpoints(try await client.getConfiguration().serverMetadata)
        }
    }
}

extension SMARTError {
    /// Discovery and token response errors in SMART's terms; other errors as they are.
    static func translating(_ error: any Error) -> any Error {
        switch error {
        case DiscoveryError.untrustedEndpoint(let name, let url):
            return SMARTError.untrustedEndpoint(name: name.rawValue, url: url)
        case DiscoveryError.missingEndpoints(let names):
            return SMARTError.discoveryFailed(names.map { "\($0.rawValue) is missing" }.joined(separator: ", "))
        case DiscoveryError.invalidEndpoint(let name):
            return SMARTError.discoveryFailed("\(name.rawValue) is not a URL")
        case DiscoveryError.untrustedIssuer(let issuer):
            guard let url = URL(string: issuer) else { return SMARTError.discoveryFailed("issuer is not a URL") }
            return SMARTError.untrustedEndpoint(name: "issuer", url: url)
        case let error as TokenResponseError: return SMARTError.malformedTokenResponse(error.reason)
        default: return error
        }
    }
}
