import Foundation
import HealthSignInCore

/// What the SMART test server remembers: clients, launches, the authorizations waiting for the user, codes, tokens,
/// the assertions' `jti`s, and what the mix-up attacker saw.
struct SMARTServerState: Sendable {
    /// An authorization request that passed every check, as the user is asked about it.
    struct Authorization: Sendable {
        let clientID: String
        let redirectURI: String
        let scope: String
        let state: String?
        let context: [JSONObject.Member]
        let challenge: String?
        let challengeMethod: String?
        let nonce: String?
        let prompt: String?
    }

    struct Code: Sendable {
        let authorization: Authorization
        let authTime: Int
        let expiresAt: Date
    }

    struct AccessToken: Sendable {
        let clientID: String
        let scope: String
        var expiresAt: Date
        let context: [JSONObject.Member]
        let refreshToken: String?
        var revoked = false
        let audience: String
    }

    struct RefreshToken: Sendable {
        let clientID: String
        let scope: String
        let context: [JSONObject.Member]
        var revoked = false
        let authTime: Int?
    }

    /// A resource an app wrote, every version as the server stored it.
    struct StoredResource: Sendable {
        /// The versions, oldest first: version `n` is at `n - 1`.
        var versions: [JSONObject] = []
        /// The current version.
        var resource: JSONObject { versions.last ?? [:] }
        /// The current version's number.
        var version: Int { versions.count }
    }

    struct Launch: Sendable {
        let launch: SMARTTestServer.EHRLaunch
        let expiresAt: Date
    }

    var settings = SMARTTestServer.Settings()
    var clients: [String: SMARTTestServer.Client] = SMARTTestServer.defaultClients
    var launches: [String: Launch] = [:]
    var prompts: [String: Authorization] = [:]
    var codes: [String: Code] = [:]
    var access: [String: AccessToken] = [:]
    var refresh: [String: RefreshToken] = [:]
    var assertionIDs: Set<String> = []
    var assertionsRejected = 0
    var attackerAuthorizations = 0
    var attackerTokenRequests: [SMARTTestServer.AttackerTokenRequest] = []
    /// Whether each search that reached the attacker carried an `Authorization` header.
    var attackerSearches: [Bool] = []
    /// The resources apps wrote, by `Type/id`.
    var resources: [String: StoredResource] = [:]
    var refuseNextRefresh = false
    var loseNextRefreshResponse = false
    /// Whether the signing keys were rotated.
    var rotatedKeys = false

    /// The key id tokens are signed with now.
    var signingKey: JSONWebKey {
        if settings.idTokenAlgorithm == .es256 {
            return rotatedKeys ? TestSigningKeys.ehrECRotated : TestSigningKeys.ehrEC
        }
        return rotatedKeys ? TestSigningKeys.ehrRSARotated : TestSigningKeys.ehrRSA
    }

    /// The public keys the key set publishes now.
    var publishedKeys: [JSONWebKey] {
        rotatedKeys
            ? [TestSigningKeys.ehrRSARotated.publicKey, TestSigningKeys.ehrECRotated.publicKey]
            : [TestSigningKeys.ehrRSA.publicKey, TestSigningKeys.ehrEC.publicKey]
    }

    /// The client as client authentication sees it.
    func authenticatable(_ id: String) -> AuthenticatableClient? {
        guard let client = clients[id] else { return nil }
        switch client.authentication {
        case .none: return AuthenticatableClient(secret: nil, methods: [.none])
        case .secretBasic(let secret): return AuthenticatableClient(secret: secret, methods: [.secretBasic])
        case .privateKeyJWT: return AuthenticatableClient(secret: nil, methods: [.privateKeyJWT])
        }
    }

    /// Ends a refresh token and, with it, the access tokens issued with it.
    mutating func revoke(refreshToken value: String) {
        refresh[value]?.revoked = true
        for (token, entry) in access where entry.refreshToken == value { access[token]?.revoked = true }
    }
}
