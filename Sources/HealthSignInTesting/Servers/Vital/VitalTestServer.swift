import Foundation
import HealthSignInCore

/// A Junction (Vital) server in the test process, speaking the emulator's wire (`Tests/Emulator/vital.py`): the team
/// API (Create User with its conflict answer, resolve, delete, Create Sign-In Token), the auth host's `/v1/token`
/// (the RFC 8693 sign-in token exchange, and refresh with rotation), and the data API's connected providers.
///
/// Point a `VitalBackend` and a `VitalSession` at ``apiURL`` and ``authURL`` with its ``TestServer/transport``:
///
/// ```swift
/// let server = VitalTestServer()
/// let user = server.createUser(clientUserID: "alice")
/// let token = server.signInToken(userID: user)   // what your backend would hand the app
/// server.expireAccessTokens()                    // the next call refreshes
/// server.deleteUser(user)                        // the next call signs the app out
/// ```
///
/// Sign-in tokens are signed with a key the kit publishes, and the team keys are ``sandboxUSKey`` and its siblings;
/// the environment a key belongs to is read from its prefix, as Junction does.
public final class VitalTestServer: TestServer {
    /// The environment a team key belongs to, which names the sign-in token's issuer.
    public struct TeamEnvironment: Sendable, Hashable {
        /// `stg` for the sandbox, `prd` for production.
        public let tier: String
        /// `us` or `eu`.
        public let region: String
    }

    /// How the server behaves.
    public struct Settings: Sendable, Hashable {
        /// The `expires_in` of access tokens, in seconds.
        public var accessTokenLifetime = 3600
        /// How long a minted sign-in token is valid, in seconds.
        public var signInTokenLifetime = 3600
        /// Whether `expires_in` is a string (`"3600"`), as some responses have it.
        public var expiresInAsString = false

        /// The defaults, which the emulator has too.
        public init() {}
    }

    /// The sandbox team key for the US region.
    public static let sandboxUSKey = "sk_us_test"
    /// The sandbox team key for the EU region.
    public static let sandboxEUKey = "sk_eu_test"
    /// The production team key for the US region.
    public static let productionUSKey = "pk_us_test"
    /// The production team key for the EU region.
    public static let productionEUKey = "pk_eu_test"
    /// The team every user belongs to.
    public static let teamID = "8f1d5f5e-3c1a-4f5e-9a57-2b4f6c7d8e90"

    static let keys: [String: TeamEnvironment] = [
        sandboxUSKey: .init(tier: "stg", region: "us"), sandboxEUKey: .init(tier: "stg", region: "eu"),
        productionUSKey: .init(tier: "prd", region: "us"), productionEUKey: .init(tier: "prd", region: "eu"),
    ]

    /// The API host (the team API and the data API).
    public let apiURL: URL
    /// The auth host (`/v1/token`).
    public let authURL: URL
    let core: TestServerCore<Operation>
    let state = LockedValue(VitalServerState())

    /// Creates a server at `apiURL` and `authURL`.
    ///
    /// - Parameters:
    ///   - apiURL: the API host, where the team API and the data API answer.
    ///   - authURL: the auth host, where `/v1/token` answers.
    ///   - clock: the time tokens expire by; a ``ManualClock`` lets a test move it.
    ///   - random: where user ids and tokens come from; a ``SeededRandomSource`` makes them the same on every run.
    public init(
        apiURL: URL = URL(string: "https://api.junction.test")!,
        authURL: URL = URL(string: "https://auth.junction.test")!, clock: any TimeSource = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.apiURL = apiURL
        self.authURL = authURL
        core = TestServerCore(origins: [apiURL, authURL], clock: clock, random: random)
    }

    /// The token endpoint: `<authURL>/v1/token`.
    public var tokenURL: URL { authURL.appendingPathComponent("v1/token") }

    /// How the server behaves; change it at any time.
    public var settings: Settings {
        get { state.current.settings }
        set { state.withValue { $0.settings = newValue } }
    }

    /// Creates a user of the team key `teamKey`'s environment, as Create User does, and returns its id (an existing
    /// user with that client user id is returned instead).
    public func createUser(clientUserID: String, teamKey: String = VitalTestServer.sandboxUSKey) -> String {
        let environment = Self.keys[teamKey] ?? .init(tier: "stg", region: "us")
        let id = core.uuid()
        let created = Self.timestamp(core.now)
        return state.withValue { state in
            if let existing = state.users.first(where: { $0.user.clientUserID == clientUserID && !$0.user.deleted }) {
                return existing.id
            }
            state.users.append((id, .init(clientUserID: clientUserID, createdOn: created, environment: environment)))
            return id
        }
    }

    /// A sign-in token for `userID`, valid for `lifetime` seconds (a negative value mints an expired one), as the
    /// emulator's `mint` control makes one; nil for an unknown user.
    public func signInToken(userID: String, lifetime: TimeInterval? = nil) -> String? {
        guard let user = state.current.user(userID.lowercased()) else { return nil }
        let ttl = lifetime ?? TimeInterval(settings.signInTokenLifetime)
        return mintSignInToken(userID: userID.lowercased(), environment: user.environment, lifetime: ttl)
    }

    /// Deletes a user, as the team API's DELETE does: its access tokens and refresh tokens stop working.
    public func deleteUser(_ userID: String) {
        state.withValue { $0.update(userID.lowercased()) { $0.deleted = true } }
    }

    /// Ends the life of every access token issued so far: the next data call gets `invalid_token` and refreshes.
    public func expireAccessTokens() {
        state.withValue { state in
            for key in state.access.keys { state.access[key]?.expiresAt = .distantPast }
        }
    }

    /// Revokes every refresh token, as signing out on another device does: the next refresh answers
    /// `reauthentication_required`.
    public func revokeSessions() {
        state.withValue { state in
            for key in state.sessions.keys { state.sessions[key]?.revoked = true }
        }
    }

    /// Answers the next refresh with `reauthentication_required` (`invalid_grant`) and ends its session.
    ///
    /// The SDK keeps the user signed in, marked `pendingReauthentication`: the call fails with
    /// `VitalSessionError.needsReauthentication(userID:)`, and the app gets the same user back with a new sign-in
    /// token from its backend (`signIn(token:)` or `reconcile`), without asking the user anything. Junction's
    /// refusal says the same user needs a new sign-in token, which SMART's and Koppeltaal's `invalid_grant` does not
    /// say; that is why those two sign the user out instead.
    public func refuseNextRefresh() { state.withValue { $0.refuseNextRefresh = true } }

    /// Rotates the next refresh token and then loses the response: the app gets a dropped connection, and the
    /// refresh token it still holds is already spent.
    public func loseNextRefreshResponse() { state.withValue { $0.loseNextRefreshResponse = true } }

    /// How many refresh tokens would still be accepted.
    public var liveSessions: Int { state.current.sessions.values.filter { !$0.revoked }.count }

    /// How many users were created.
    public var userCount: Int { state.current.users.count }

    /// `2026-01-01T12:00:00.000000+00:00`, as Python's `isoformat` writes a UTC time.
    static func timestamp(_ date: Date) -> String {
        let text = DateTimeText.format(date)
        return text.hasSuffix("Z") ? String(text.dropLast()) + "+00:00" : text
    }
}

extension VitalTestServer: InProcessServer {
    func operation(of request: ReceivedRequest) -> Operation? {
        if let path = Self.path(of: request, under: authURL) {
            guard request.method == .post, path == "/v1/token" else { return nil }
            switch request.form["grant_type"] {
            case "urn:ietf:params:oauth:grant-type:token-exchange": return .exchangeSignInToken
            case "refresh_token": return .refreshToken
            default: return .unsupportedGrant
            }
        }
        let segments = apiSegments(of: request) ?? []
        switch (request.method, segments.count, segments.first, segments.dropFirst().first) {
        case (.post, 2, "v2", "user"): return .createUser
        case (.post, 3, "v2", "user") where segments.last == "": return .createUser
        case (.get, 4, "v2", "user") where segments[2] == "resolve": return .resolveUser
        case (.delete, 3, "v2", "user"): return .deleteUser
        case (.post, 4, "v2", "user") where segments[3] == "sign_in_token": return .createSignInToken
        case (.get, 4, "v2", "user") where segments[2] == "providers": return .getConnectedProviders
        default: return nil
        }
    }

    func handle(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        let segments = apiSegments(of: request) ?? []
        switch operation {
        case .createUser: return Handled(createUser(request))
        case .resolveUser: return Handled(resolveUser(request, clientUserID: segments[3]))
        case .deleteUser: return Handled(deleteUser(request, id: segments[2]))
        case .createSignInToken: return Handled(createSignInToken(request, userID: segments[2]))
        case .getConnectedProviders: return Handled(providers(request, userID: segments[3]))
        default: return token(request, as: operation)
        }
    }

    /// The segments of the request's path under the API host (`["v2", "user", …]`), or nil when it is not there.
    private func apiSegments(of request: ReceivedRequest) -> [String]? {
        guard let path = Self.path(of: request, under: apiURL) else { return nil }
        return path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }

    /// The request's path below `root`, or nil when it is not under it.
    private static func path(of request: ReceivedRequest, under root: URL) -> String? {
        guard TestServerNames.origin(request.message.url) == TestServerNames.origin(root) else { return nil }
        let base = root.path == "/" ? "" : root.path
        guard request.path.hasPrefix(base + "/") else { return nil }
        return String(request.path.dropFirst(base.count))
    }
}
