import Foundation

extension VitalTestServer {
    /// What the Junction (Vital) server takes a request for. The names are the emulator's.
    public struct Operation: TestServerOperation {
        /// The name the emulator counts the operation by.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// `POST <auth>/v1/token` with the RFC 8693 token exchange: a sign-in token exchanged for the user's tokens
        /// (`token:urn:ietf:params:oauth:grant-type:token-exchange`).
        public static let exchangeSignInToken = Self("token:urn:ietf:params:oauth:grant-type:token-exchange")
        /// `POST <auth>/v1/token` with `grant_type=refresh_token`: a refresh, rotating the refresh token
        /// (`token:refresh_token`).
        public static let refreshToken = Self("token:refresh_token")
        /// `POST <auth>/v1/token` with any other `grant_type`, or none: refused with `unsupported_grant_type`
        /// (`token:unsupported`; the emulator counts it under the grant type sent).
        public static let unsupportedGrant = Self("token:unsupported")
        /// `POST <api>/v2/user`: a user created for a client user id (`CreateUser`).
        public static let createUser = Self("CreateUser")
        /// `GET <api>/v2/user/resolve/<client user id>`: a user looked up (`ResolveUser`).
        public static let resolveUser = Self("ResolveUser")
        /// `DELETE <api>/v2/user/<user id>`: a user deleted (`DeleteUser`).
        public static let deleteUser = Self("DeleteUser")
        /// `POST <api>/v2/user/<user id>/sign_in_token`: a sign-in token minted with the team's API key
        /// (`CreateSignInToken`).
        public static let createSignInToken = Self("CreateSignInToken")
        /// `GET <api>/v2/user/providers/<user id>`: the user's connected providers, with the access token
        /// (`GetConnectedProviders`).
        public static let getConnectedProviders = Self("GetConnectedProviders")

        /// Every operation, in the order listed above.
        public static let all: [Self] = [
            .exchangeSignInToken, .refreshToken, .unsupportedGrant, .createUser, .resolveUser, .deleteUser,
            .createSignInToken, .getConnectedProviders,
        ]
    }
}
