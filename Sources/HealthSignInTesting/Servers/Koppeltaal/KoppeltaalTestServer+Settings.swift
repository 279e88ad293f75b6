import Foundation

extension KoppeltaalTestServer {
    /// How the server behaves: the emulator's Koppeltaal settings, each a variant real Koppeltaal servers show.
    public struct Settings: Sendable, Hashable {
        /// The `expires_in` of access tokens, in seconds.
        public var tokenLifetime: Int = 900
        /// How long an activation code from MobileLaunch is valid, in seconds (a negative value mints expired codes).
        public var activationLifetime: TimeInterval = 7 * 86_400
        /// Which `oauth-uris` form the Conformance names the endpoints in.
        public var conformanceForm: ConformanceForm = .f1
        /// The format of the Conformance: as the request's `Accept` asks, or always one.
        public var conformanceFormat: ConformanceFormat = .auto
        /// Whether the Conformance's `rest` is an object rather than an array (an older server's shape).
        public var restAsObject = false
        /// Whether the Conformance's endpoint URLs are relative to the FHIR base.
        public var relativeURIs = false
        /// Whether the FHIR base also serves `.well-known/smart-configuration` (naming the revocation endpoint and
        /// PKCE's S256).
        public var smartConfiguration = false
        /// Whether Authorize answers `authorisation_code` (British spelling), as some deployments do.
        public var britishSpelling = false
        /// Whether a refresh response leaves out the launch context (the usual Koppeltaal behaviour).
        public var refreshOmitsContext = true
        /// Whether an expired token's 401 carries `WWW-Authenticate: Bearer error="invalid_token"` too.
        public var wwwAuthenticate = false
        /// The shape of the OperationOutcome an expired token gets.
        public var outcomeShape: OutcomeShape = .dstu1
        /// Whether an expired token gets an empty 401 with only the `WWW-Authenticate` challenge.
        public var emptyUnauthorized = false
        /// How the server reads a client's HTTP Basic credentials.
        public var basicDecoding: BasicDecoding = .raw

        /// The defaults, which the emulator has too.
        public init() {}
    }

    /// The forms of the Conformance's `oauth-uris` extension found in the field.
    public enum ConformanceForm: String, Sendable, Hashable, CaseIterable {
        /// `http://fhir-registry.smartplatforms.org/Profile/oauth-uris#authorize` and `#token`.
        case f1 = "F1"
        /// `http://fhir-registry.smarthealthit.org/Profile/oauth-uris#…`.
        case f2 = "F2"
        /// `http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris#…`.
        case f3 = "F3"
        /// One nested extension with `authorize`, `token` and `revoke` members (SMART's form).
        case f4 = "F4"
        /// No endpoints at all, so discovery fails and the app must name them.
        case none
    }

    /// The format the Conformance is served in.
    public enum ConformanceFormat: String, Sendable, Hashable, CaseIterable {
        /// XML when the request's first `Accept` type mentions XML, else JSON.
        case auto
        /// Always JSON.
        case json
        /// Always XML.
        case xml
    }

    /// The OperationOutcome shapes of FHIR DSTU1 and DSTU2.
    public enum OutcomeShape: String, Sendable, Hashable, CaseIterable {
        /// `issue.type.code` and `issue.details` as a string (DSTU1).
        case dstu1
        /// `issue.code` and `issue.details.text` (DSTU2).
        case dstu2
    }

    /// How HTTP Basic client credentials are decoded.
    public enum BasicDecoding: String, Sendable, Hashable, CaseIterable {
        /// As sent (RFC 7617), as the Koppeltaal server reads them: a secret may hold a space.
        case raw
        /// Form-decoded first (RFC 6749 §2.3.1), as a server that follows OAuth to the letter.
        case rfc6749
    }

    /// A client registered at the server.
    public struct Client: Sendable, Hashable {
        /// How the client authenticates at the token and revocation endpoints.
        public enum Authentication: String, Sendable, Hashable {
            /// HTTP Basic with the client id and secret.
            case basic = "client_secret_basic"
            /// `client_id` and `client_secret` in the form body.
            case post = "client_secret_post"
            /// A public client: its `client_id` only.
            case none
        }

        /// The client id.
        public var id: String
        /// The secret, for a confidential client.
        public var secret: String?
        /// The ways it may authenticate.
        public var authentication: Set<Authentication>
        /// Whether it is issued refresh tokens (and may use them).
        public var refreshes: Bool
        /// The redirect URIs it registered; Authorize compares the request's exactly.
        public var redirectURIs: [String]

        /// Describes a client.
        public init(
            id: String, secret: String? = nil, authentication: Set<Authentication>, refreshes: Bool = true,
            redirectURIs: [String] = KoppeltaalTestServer.redirectURIs
        ) {
            self.id = id
            self.secret = secret
            self.authentication = authentication
            self.refreshes = refreshes
            self.redirectURIs = redirectURIs
        }
    }
}
