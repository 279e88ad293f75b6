import Foundation
import HealthSignInCore

extension SMARTTestServer {
    /// How the server behaves: the emulator's SMART settings, each a variant of real EHRs or an attack on the app.
    public struct Settings: Sendable, Hashable {
        /// The `expires_in` of access tokens from a launch, in seconds (backend tokens last 300).
        public var tokenLifetime = 3600
        /// Whether a rotated-out refresh token still works (servers that do not rotate strictly).
        public var keepsRotatedRefreshTokens = false
        /// Whether every authorization request must carry PKCE with S256, as SMART 2 requires.
        public var requiresPKCE = true
        /// Whether an id token's `aud` is an array (`["client"]`) rather than a string.
        public var idTokenAudienceIsArray = true
        /// Whether id tokens carry a broken signature (an attacker's or a corrupted token).
        public var tampersIDTokenSignature = false
        /// An issuer id tokens name instead of the server's (an attacker's tokens).
        public var idTokenIssuer: String?
        /// A nonce id tokens carry instead of the request's (a replayed token).
        public var idTokenNonce: String?
        /// Whether id tokens are already expired when issued.
        public var idTokenExpired = false
        /// The algorithm id tokens are signed with: `RS256` or `ES256`.
        public var idTokenAlgorithm: JWSAlgorithm = .rs256
        /// The `sub` of id tokens and introspection.
        public var subject = "smart-user-1"
        /// The `fhirUser` claim: a reference relative to the FHIR base, or an absolute URL.
        public var fhirUser = "Practitioner/smart-practitioner-1"
        /// The patient a standalone launch with `launch/patient` selects.
        public var standalonePatient = "smart-patient-1"
        /// Whether the token response's `scope` leaves out `offline_access` though a refresh token is issued.
        public var dropsOfflineAccessFromScope = false
        /// Whether `expires_in` is a string (`"3600"`).
        public var expiresInAsString = false
        /// Whether `token_type` is `bearer` rather than `Bearer`.
        public var lowercaseTokenType = false
        /// Whether the server behaves as a certified, strict OpenID provider: offline access only with
        /// `prompt=consent`, `iss` in every authorization response (RFC 9207, announced in the metadata), and a new id
        /// token in every refresh response.
        public var strictOpenID = false
        /// The issuer identifier, when it is not the FHIR base (an authorization server elsewhere).
        public var issuer: String?
        /// A query the discovered authorization endpoint carries, such as `tenant=7`.
        public var authorizationEndpointQuery: String?
        /// Whether a registered redirect URI with a query added by the request is accepted (a lenient server).
        public var acceptsRedirectURIWithAddedQuery = false
        /// The depth of a nested member added to token responses, 0 for none.
        public var tokenMemberDepth = 0
        /// Members every token response carries beside the standard ones (a vendor's extension, which an app must
        /// keep).
        public var additionalTokenMembers: [String: String] = [:]
        /// Members the SMART configuration carries beside the standard ones.
        public var additionalConfigurationMembers: [String: JSONValue] = [:]
        /// Whether a search's next link points at the attacker's FHIR base instead of the server's own (emulator
        /// `fhir_next_link` `evil`).
        public var nextSearchLinkOnAttacker = false
        /// Whether a search's next link names the page it is on, so a client that follows it never ends (emulator
        /// `fhir_next_link` `repeat`).
        public var nextSearchLinkRepeats = false
        /// Whether each search page carries one more match whose `status` is a number, which no client can read as an
        /// Observation (emulator `fhir_unreadable_entry`).
        public var addsUnreadableSearchEntry = false
        /// Whether the 401 of a refused access token carries an OperationOutcome (code `security`) beside its
        /// `invalid_token` challenge, as some FHIR servers explain it (emulator `fhir_refusal_outcome`).
        public var explainsRefusedTokens = false
        /// The mix-up attacker at `<origin>/evil/fhir`.
        public var attacker = Attacker()

        /// The defaults, which the emulator has too.
        public init() {}
    }

    /// The mix-up attacker (RFC 9700 §4.4) the server also plays at `<origin>/evil/fhir`: its authorization
    /// endpoint sends the browser on to the honest server with the app's own request, and its token endpoint records
    /// what a misled app sends it.
    public struct Attacker: Sendable, Hashable {
        /// The redirect URI it puts in the request it forwards (one the app registered at the honest server).
        public var redirectURI: String?
        /// The issuer its metadata claims, instead of its own URL.
        public var issuer: String?
        /// Whether its metadata claims to send `iss` in authorization responses.
        public var announcesIssuerParameter = false

        /// Describes the attacker; with no arguments it forwards the app's request unchanged and claims its own issuer.
        public init(redirectURI: String? = nil, issuer: String? = nil, announcesIssuerParameter: Bool = false) {
            self.redirectURI = redirectURI
            self.issuer = issuer
            self.announcesIssuerParameter = announcesIssuerParameter
        }
    }

    /// A client registered at the server.
    public struct Client: Sendable, Equatable {
        /// How the client authenticates at the token, revocation and introspection endpoints.
        public enum Authentication: Sendable, Equatable {
            /// A public client: its `client_id` only.
            case none
            /// HTTP Basic with the client id and this secret, each percent-encoded (RFC 6749 §2.3.1).
            case secretBasic(String)
            /// A JWT signed with a key of this set (`private_key_jwt`, RS384 or ES384).
            case privateKeyJWT(JSONWebKeySet)
        }

        /// The client id.
        public var id: String
        /// How it authenticates.
        public var authentication: Authentication
        /// Whether it is a backend service (`client_credentials` with system scopes) rather than an app.
        public var isBackendService: Bool
        /// The system scopes a backend service may ask for; `system/*.rs` allows every system read.
        public var scopes: [String]
        /// The redirect URIs an app registered; authorization requests must name one exactly.
        public var redirectURIs: [String]

        /// An app (authorization code and refresh token grants).
        public init(id: String, authentication: Authentication, redirectURIs: [String] = SMARTTestServer.redirectURIs) {
            self.id = id
            self.authentication = authentication
            self.isBackendService = false
            self.scopes = []
            self.redirectURIs = redirectURIs
        }

        /// Whether the client may be granted `scope`: a user scope for an app, one of its system scopes (or any system
        /// scope with `system/*.rs`) for a backend service.
        func allows(_ scope: String) -> Bool {
            guard isBackendService else { return SMARTTestServer.userScopes.contains(scope) }
            return scopes.contains(scope) || (scopes.contains("system/*.rs") && scope.hasPrefix("system/"))
        }

        /// A backend service (client credentials with `private_key_jwt`).
        public init(backendService id: String, keys: JSONWebKeySet, scopes: [String]) {
            self.id = id
            self.authentication = .privateKeyJWT(keys)
            self.isBackendService = true
            self.scopes = scopes
            self.redirectURIs = []
        }
    }

    /// What an EHR launch hands the app: the context the token response carries.
    public struct EHRLaunch: Sendable, Hashable {
        /// The client the launch is for.
        public var clientID: String
        /// The patient in context.
        public var patient: String?
        /// The encounter in context.
        public var encounter: String?
        /// `fhirContext` items, as SMART 2.1 (`{"reference", "role"}`) or 2.0 (a reference string) writes them.
        public var fhirContext: [JSONValue]
        /// The launch's intent.
        public var intent: String?
        /// Whether the app should show a patient banner.
        public var needPatientBanner: Bool?
        /// The style sheet URL.
        public var smartStyleURL: String?
        /// The tenant.
        public var tenant: String?
        /// How long the launch id may be used, in seconds.
        public var lifetime: TimeInterval

        /// Describes a launch.
        public init(
            clientID: String = SMARTTestServer.publicClientID, patient: String? = nil, encounter: String? = nil,
            fhirContext: [JSONValue] = [], intent: String? = nil, needPatientBanner: Bool? = nil,
            smartStyleURL: String? = nil, tenant: String? = nil, lifetime: TimeInterval = 300
        ) {
            self.clientID = clientID
            self.patient = patient
            self.encounter = encounter
            self.fhirContext = fhirContext
            self.intent = intent
            self.needPatientBanner = needPatientBanner
            self.smartStyleURL = smartStyleURL
            self.tenant = tenant
            self.lifetime = lifetime
        }

        /// The members the token response adds, in the emulator's order.
        var context: [JSONObject.Member] {
            var members: [JSONObject.Member] = []
            if let patient { members.append(("patient", .string(patient))) }
            if let encounter { members.append(("encounter", .string(encounter))) }
            if !fhirContext.isEmpty { members.append(("fhirContext", .array(fhirContext))) }
            if let intent { members.append(("intent", .string(intent))) }
            if let needPatientBanner { members.append(("need_patient_banner", .bool(needPatientBanner))) }
            if let smartStyleURL { members.append(("smart_style_url", .string(smartStyleURL))) }
            if let tenant { members.append(("tenant", .string(tenant))) }
            return members
        }
    }
}
