import Foundation

extension SMARTTestServer {
    /// What the SMART server takes a request for. The names are the emulator's.
    public struct Operation: TestServerOperation {
        /// The name the emulator counts the operation by.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// `GET <fhir>/.well-known/smart-configuration`: the SMART configuration (`smart-configuration`).
        public static let smartConfiguration = Self("smart-configuration")
        /// `GET <fhir>/.well-known/openid-configuration`: OpenID discovery (`openid-configuration`).
        public static let openIDConfiguration = Self("openid-configuration")
        /// `GET <fhir>/metadata`: the CapabilityStatement (`metadata`).
        public static let capabilityStatement = Self("metadata")
        /// `GET <root>/jwks`: the server's signing keys (`jwks`).
        public static let keySet = Self("jwks")
        /// `GET` or `POST <root>/auth/authorize`: an authorization request, answered with the consent page or a
        /// redirect (`authorize`).
        public static let authorize = Self("authorize")
        /// `POST <root>/auth/authorize/decision`: the user's choice on the consent page (`authorize:decision`).
        public static let authorizationDecision = Self("authorize:decision")
        /// `POST <root>/auth/token` with `grant_type=authorization_code`: a code redeemed (`token:authorization_code`).
        public static let redeemCode = Self("token:authorization_code")
        /// `POST <root>/auth/token` with `grant_type=refresh_token`: a refresh, rotating the refresh token
        /// (`token:refresh_token`).
        public static let refreshToken = Self("token:refresh_token")
        /// `POST <root>/auth/token` with `grant_type=client_credentials`: a backend service's token, for a signed
        /// assertion (`token:client_credentials`).
        public static let clientCredentials = Self("token:client_credentials")
        /// `POST <root>/auth/token` with any other `grant_type`, or none: refused with `unsupported_grant_type`
        /// (`token:unsupported`; the emulator counts it under the grant type sent).
        public static let unsupportedGrant = Self("token:unsupported")
        /// `POST <root>/auth/revoke`: a token revoked (`revoke`).
        public static let revoke = Self("revoke")
        /// `POST <root>/auth/introspect`: a token introspected (`introspect`).
        public static let introspect = Self("introspect")
        /// `GET <fhir>/<Type>/<id>` and searches: a FHIR read with the access token (`fhir`).
        public static let readResource = Self("fhir")
        /// `POST <fhir>/<Type>`, `PUT` and `DELETE <fhir>/<Type>/<id>`: a FHIR write with the access token
        /// (`fhir_write`).
        public static let writeResource = Self("fhir_write")
        /// `GET /evil/fhir/.well-known/smart-configuration`: the attacker's configuration, which points at the
        /// real server's endpoints from another origin (`evil_configuration`).
        public static let attackerConfiguration = Self("evil_configuration")
        /// `GET /evil/jwks`: the attacker's empty key set (`evil_jwks`).
        public static let attackerKeySet = Self("evil_jwks")
        /// `GET /evil/auth/authorize`: an authorization request that reached the attacker (`evil_authorize`).
        public static let attackerAuthorize = Self("evil_authorize")
        /// `POST /evil/auth/token`: a token request that reached the attacker, credentials and all (`evil_token`).
        public static let attackerToken = Self("evil_token")
        /// `GET /evil/fhir/Observation`: a search that followed a next link off the honest server, with the access
        /// token if the app sent it (`evil_fhir`).
        public static let attackerSearch = Self("evil_fhir")

        /// Every operation, in the order listed above.
        public static let all: [Self] = [
            .smartConfiguration, .openIDConfiguration, .capabilityStatement, .keySet, .authorize,
            .authorizationDecision, .redeemCode, .refreshToken, .clientCredentials, .unsupportedGrant, .revoke,
            .introspect, .readResource, .writeResource, .attackerConfiguration, .attackerKeySet, .attackerAuthorize,
            .attackerToken,
            .attackerSearch,
        ]

        /// The token endpoint's operation for a `grant_type`.
        static func token(grantType: String?) -> Self {
            switch grantType {
            case "authorization_code": return .redeemCode
            case "refresh_token": return .refreshToken
            case "client_credentials": return .clientCredentials
            default: return .unsupportedGrant
            }
        }
    }
}
