import Foundation
import HealthSignInCore
import HealthSignInOAuth

extension AdvertisedEndpoints {
    /// What the FHIR server at `base` advertises in its `.well-known/smart-configuration`.
    static func smartConfiguration(at base: URL, options: ClientOptions) async throws -> AdvertisedEndpoints {
        let client = SMARTAPIClient(configuration: .init(servers: .init(fhir: base), options: options))
        return AdvertisedEndpoints(try await client.getConfiguration().serverMetadata)
    }
}

extension SignInError.Code {
    /// An EHR launch URL lacks `iss` or `launch`, or a standalone launch has no FHIR server configured.
    public static let invalidLaunch = Self("invalidLaunch", recovery: .reconfigure)
}
