import Foundation

extension Koppeltaal2TestServer {
    /// What the Koppeltaal 2.0 server takes a request for. The names are the emulator's.
    public struct Operation: TestServerOperation {
        /// The name the emulator counts the operation by.
        public let name: String

        private init(_ name: String) { self.name = name }

        /// `GET <fhir>/.well-known/smart-configuration` (`smart-configuration`).
        public static let smartConfiguration = Self("smart-configuration")
        /// `GET <fhir>/metadata`: the CapabilityStatement with `oauth-uris` (`metadata`).
        public static let capabilityStatement = Self("metadata")
        /// `POST <auth>/oauth2/token` with `client_credentials` and a client assertion (`token:client_credentials`).
        public static let clientCredentials = Self("token:client_credentials")
        /// `POST <auth>/oauth2/token` with `authorization_code`: SHOF's code redeemed (`token:authorization_code`).
        public static let authorizationCode = Self("token:authorization_code")
        /// `POST <auth>/oauth2/token` with any other `grant_type`, or none (`token:other`).
        public static let unsupportedGrant = Self("token:other")
        /// `GET <auth>/oauth2/authorize`: SHOF's authorization request with the launch token (`authorize`).
        public static let authorize = Self("authorize")
        /// `GET <auth>/idp/login`: the identity provider's sign-in, which signs the launched user in at once
        /// (`idp-login`).
        public static let identityProviderLogin = Self("idp-login")
        /// `POST <auth>/oauth2/introspect`: a launch or access token introspected (`introspect`).
        public static let introspect = Self("introspect")
        /// `GET <auth>/.well-known/jwks.json`: the keys the id tokens are signed with (`jwks`).
        public static let keys = Self("jwks")
        /// `GET <fhir>/<Type>/<id>`: a read (`fhir:read`).
        public static let read = Self("fhir:read")
        /// `GET <fhir>/<Type>?…` or a page link: a search (`fhir:search`).
        public static let search = Self("fhir:search")
        /// `POST <fhir>/<Type>`: a create (`fhir:create`).
        public static let create = Self("fhir:create")
        /// `PUT <fhir>/<Type>/<id>`: an update, which needs `If-Match` (`fhir:update`).
        public static let update = Self("fhir:update")

        /// Every operation, in the order listed above.
        public static let all: [Self] = [
            .smartConfiguration, .capabilityStatement, .clientCredentials, .authorizationCode, .unsupportedGrant,
            .authorize, .identityProviderLogin, .introspect, .keys, .read, .search, .create, .update,
        ]
    }
}
