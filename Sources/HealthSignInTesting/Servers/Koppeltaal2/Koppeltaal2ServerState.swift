import Foundation
import HealthSignInCore

/// What the in-process Koppeltaal 2.0 server holds: the applications, the tokens and codes it issued, the `jti`s it
/// saw, and the FHIR resources with every version.
struct Koppeltaal2ServerState {
    struct Application {
        let clientID: String
        let keys: JSONWebKeySet
        let redirectURIs: [String]
        let device: String
    }

    struct AccessToken {
        let clientID: String
        var expiresAt: Date
    }

    /// An authorization waiting at the identity provider, then for its code to be redeemed.
    struct Authorization {
        let clientID: String
        let redirectURI: String
        let state: String
        let challenge: String
        let launch: JSONObject
        var code: String?
        var issuedAt: Date
    }

    var settings = Koppeltaal2TestServer.Settings()
    var applications: [String: Application] = [:]
    var accessTokens: [String: AccessToken] = [:]
    /// `iss` and `jti` of every client assertion seen.
    var assertionIDs: Set<String> = []
    /// `iss` and `jti` of every launch token seen, by introspection and authorization alike.
    var launchIDs: Set<String> = []
    var authorizations: [String: Authorization] = [:]
    /// `Type/id` → every version, oldest first.
    var resources: [String: [JSONObject]] = [:]
    /// A search's matches, by search id, for its page links.
    var searches: [String: [JSONObject]] = [:]
    /// The trace headers of every FHIR request, in order.
    var traces: [Koppeltaal2TestServer.Trace] = []
}
