import Foundation
import HealthSignInCore

/// What the Koppeltaal test server remembers: its clients, the activation codes, authorization codes and tokens it
/// issued.
struct KoppeltaalServerState: Sendable {
    struct Activation: Sendable {
        let clientID: String
        let patient: String
        let user: String
        let resource: String?
        let intent: String?
        let domain: String
        let expiresAt: Date

        /// The launch context the token response carries: the members that have a value.
        var context: [(String, String)] {
            [("patient", patient), ("user", user), ("resource", resource), ("intent", intent), ("domain", domain)]
                .compactMap { name, value in value.flatMap { $0.isEmpty ? nil : (name, $0) } }
        }
    }

    struct AuthorizationCode: Sendable {
        let clientID: String
        let redirectURI: String?
        let scope: String
        let context: [(String, String)]
        let challenge: String?
        let challengeMethod: String?
        let expiresAt: Date
    }

    struct Token: Sendable {
        let accessToken: String
        let refreshToken: String?
        var expiresAt: Date
        let clientID: String
        let scope: String
        let context: [(String, String)]
        var accessRevoked = false
        var refreshRevoked = false
    }

    var settings = KoppeltaalTestServer.Settings()
    var clients: [String: KoppeltaalTestServer.Client] = Dictionary(
        uniqueKeysWithValues: [
            .init(
                id: KoppeltaalTestServer.gameClientID, secret: KoppeltaalTestServer.gameClientSecret,
                authentication: [.basic, .post]),
            .init(id: KoppeltaalTestServer.publicClientID, authentication: [.none]),
            .init(
                id: KoppeltaalTestServer.noRefreshClientID, secret: KoppeltaalTestServer.gameClientSecret,
                authentication: [.basic], refreshes: false),
            .init(id: KoppeltaalTestServer.spaceClientID, secret: "Who@re U123?", authentication: [.basic, .post]),
        ].map { ($0.id, $0) })
    var activations: [String: Activation] = [:]
    var codes: [String: AuthorizationCode] = [:]
    var tokens: [Token] = []
    var refuseNextRefresh = false
    var loseNextRefreshResponse = false

    /// Stores `activation` under a fresh six-digit code and returns the code.
    mutating func mint(_ activation: Activation, random: any RandomSource) -> String {
        while true {
            let bytes = random.bytes(count: 4)
            let number = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 900_000 + 100_000
            let code = String(number)
            if activations[code] == nil {
                activations[code] = activation
                return code
            }
        }
    }

    func token(access value: String) -> Token? { tokens.first { $0.accessToken == value } }

    func tokenIndex(refresh value: String) -> Int? { tokens.firstIndex { $0.refreshToken == value } }

    /// The registered client as client authentication sees it.
    func authenticatable(_ id: String) -> AuthenticatableClient? {
        clients[id].map { client in
            AuthenticatableClient(
                secret: client.secret,
                methods: Set(client.authentication.compactMap { ClientAuthenticationMethod(rawValue: $0.rawValue) }))
        }
    }
}
