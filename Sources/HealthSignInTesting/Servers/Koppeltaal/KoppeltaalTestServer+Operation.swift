import Foundation

extension KoppeltaalTestServer {
    /// What the Koppeltaal 1.x server takes a request for. The names are the emulator's.
    public struct Operation: TestServerOperation {
        /// The name the emulator counts the operation by.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// `GET …/OAuth2/Koppeltaal/MobileLaunch`: a portal's launch, answered with a redirect carrying an
        /// activation code (`MobileLaunch`).
        public static let mobileLaunch = Self("MobileLaunch")
        /// `GET …/OAuth2/Koppeltaal/Authorize`: an authorization request with the activation code in its scope
        /// (`Authorize`).
        public static let authorize = Self("Authorize")
        /// `POST …/OAuth2/Koppeltaal/Token` with `grant_type=authorization_code`: a code redeemed
        /// (`Token:authorization_code`).
        public static let redeemCode = Self("Token:authorization_code")
        /// `POST …/OAuth2/Koppeltaal/Token` with `grant_type=refresh_token`: a refresh, rotating the refresh token
        /// (`Token:refresh_token`).
        public static let refreshToken = Self("Token:refresh_token")
        /// `POST …/OAuth2/Koppeltaal/Token` with any other `grant_type`, or none: refused with
        /// `unsupported_grant_type` (`Token:unsupported`; the emulator counts it under the grant type sent).
        public static let unsupportedGrant = Self("Token:unsupported")
        /// `POST …/OAuth2/Koppeltaal/Revoke`: a token revoked (`Revoke`).
        public static let revoke = Self("Revoke")
        /// `GET …/FHIR/Koppeltaal/metadata`: the Conformance statement (`metadata`).
        public static let conformance = Self("metadata")
        /// `GET …/FHIR/Koppeltaal/.well-known/smart-configuration`: the SMART configuration
        /// (`smart-configuration`).
        public static let smartConfiguration = Self("smart-configuration")
        /// `GET` or `POST` of a FHIR resource under `…/FHIR/Koppeltaal/` with the access token (`FHIR`).
        public static let resource = Self("FHIR")

        /// Every operation, in the order listed above.
        public static let all: [Self] = [
            .mobileLaunch, .authorize, .redeemCode, .refreshToken, .unsupportedGrant, .revoke, .conformance,
            .smartConfiguration, .resource,
        ]
    }
}
