import Foundation
import HealthSignInCore

/// What the Vital test server remembers: its users, the sign-in tokens used, and the sessions and access tokens it
/// issued.
struct VitalServerState: Sendable {
    struct User: Sendable {
        let clientUserID: String
        let createdOn: String
        let environment: VitalTestServer.TeamEnvironment
        var deleted = false
    }

    struct AccessGrant: Sendable {
        let userID: String
        var expiresAt: Date
    }

    var settings = VitalTestServer.Settings()
    /// By user id, in the order created.
    var users: [(id: String, user: User)] = []
    var usedTokenIDs: Set<String> = []
    /// Refresh token → (user id, revoked).
    var sessions: [String: (userID: String, revoked: Bool)] = [:]
    var access: [String: AccessGrant] = [:]
    var refuseNextRefresh = false
    var loseNextRefreshResponse = false

    func user(_ id: String) -> User? { users.first { $0.id == id }?.user }

    mutating func update(_ id: String, _ change: (inout User) -> Void) {
        guard let index = users.firstIndex(where: { $0.id == id }) else { return }
        change(&users[index].user)
    }

    /// A new access and refresh token pair for `userID`.
    mutating func issue(_ userID: String, now: Date, tokens: (access: String, refresh: String)) -> HTTPResponseMessage {
        let ttl = settings.accessTokenLifetime
        access[tokens.access] = AccessGrant(userID: userID, expiresAt: now.addingTimeInterval(TimeInterval(ttl)))
        sessions[tokens.refresh] = (userID, false)
        let lifetime: JSONValue = settings.expiresInAsString ? .string(String(ttl)) : .integer(ttl)
        return .json(
            200,
            [
                "access_token": .string(tokens.access), "expires_in": lifetime,
                "refresh_token": .string(tokens.refresh),
            ])
    }
}
