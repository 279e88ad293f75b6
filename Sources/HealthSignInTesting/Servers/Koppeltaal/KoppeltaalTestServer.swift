import Foundation
import HealthSignInCore

/// A Koppeltaal server in the test process, speaking the emulator's wire (`Tests/Emulator/koppeltaal.py`): the
/// portal's MobileLaunch, the Conformance discovery (every `oauth-uris` form, JSON and XML), the JSON Authorize of
/// the mobile launch, the token endpoint with refresh-token rotation, revocation, and FHIR reads that answer an
/// expired token with the `expired` OperationOutcome.
///
/// Give a `KoppeltaalBackend` and a `KoppeltaalSession` its ``TestServer/transport`` and URLs, and the whole launch
/// runs in memory in milliseconds:
///
/// ```swift
/// let server = KoppeltaalTestServer()
/// let code = server.activationCode(clientID: KoppeltaalTestServer.gameClientID)
/// server.expireAccessTokens()          // the next FHIR call refreshes
/// server.revokeAllGrants()             // the user signed out elsewhere
/// ```
///
/// Its clients are the emulator's: ``gameClientID`` (secret ``gameClientSecret``, Basic or post), ``publicClientID``,
/// one without refresh tokens and one whose secret holds a space; ``register(_:)`` adds your own.
public final class KoppeltaalTestServer: TestServer {
    /// The confidential client of the emulator, `KTSTESTGAME`.
    public static let gameClientID = "KTSTESTGAME"
    /// Its secret, `kt-secret`.
    public static let gameClientSecret = "kt-secret"
    /// A public client, `KTPUBLIC`.
    public static let publicClientID = "KTPUBLIC"
    /// A confidential client that is issued no refresh token, `KTNOREFRESH` (secret `kt-secret`).
    public static let noRefreshClientID = "KTNOREFRESH"
    /// A confidential client whose secret, `Who@re U123?`, holds a space, `KTSPACE`.
    public static let spaceClientID = "KTSPACE"
    /// The redirect URIs every default client registered.
    public static let redirectURIs = ["http://127.0.0.1/after-auth", "koppeltaal-game://after-auth"]

    /// The origin and root the server answers under, such as `https://koppeltaal.test`.
    public let baseURL: URL
    /// The portal's credentials for MobileLaunch.
    public let portalCredentials: BasicCredentials
    let core: TestServerCore<Operation>
    let state: LockedValue<KoppeltaalServerState>

    /// Creates a server under `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: where the server answers; its FHIR base is `<baseURL>/FHIR/Koppeltaal`.
    ///   - portalCredentials: the Basic credentials MobileLaunch accepts.
    ///   - clock: the time tokens and activation codes expire by; a ``ManualClock`` lets a test move it.
    ///   - random: where tokens and codes come from; a ``SeededRandomSource`` makes them the same on every run.
    public init(
        baseURL: URL = URL(string: "https://koppeltaal.test")!,
        portalCredentials: BasicCredentials = BasicCredentials(username: "portal", password: "portal-secret"),
        clock: any TimeSource = SystemClock(), random: any RandomSource = SystemRandomSource()
    ) {
        self.baseURL = baseURL
        self.portalCredentials = portalCredentials
        core = TestServerCore(origins: [baseURL], clock: clock, random: random)
        state = LockedValue(KoppeltaalServerState())
    }

    /// The FHIR base an app registers: `<baseURL>/FHIR/Koppeltaal`.
    public var fhirBaseURL: URL { baseURL.appendingPathComponent("FHIR/Koppeltaal") }
    /// The launch base a portal's `KoppeltaalBackend` takes: `<baseURL>/OAuth2/Koppeltaal`.
    public var launchURL: URL { baseURL.appendingPathComponent("OAuth2/Koppeltaal") }
    /// The authorization endpoint.
    public var authorizationURL: URL { launchURL.appendingPathComponent("Authorize") }
    /// The token endpoint.
    public var tokenURL: URL { launchURL.appendingPathComponent("Token") }
    /// The revocation endpoint.
    public var revocationURL: URL { launchURL.appendingPathComponent("Revoke") }
    /// The value the token response gives for `domain`.
    public var domain: String { "Test" }

    /// How the server behaves; change it at any time.
    public var settings: Settings {
        get { state.current.settings }
        set { state.withValue { $0.settings = newValue } }
    }

    /// Registers `client` (replacing one with its id).
    public func register(_ client: Client) { state.withValue { $0.clients[client.id] = client } }

    /// A fresh activation code for `clientID`, as MobileLaunch mints one for the portal, without a request.
    public func activationCode(
        clientID: String = KoppeltaalTestServer.gameClientID, patient: String = "Patient/1",
        user: String = "RelatedPerson/1", resource: String? = nil, intent: String? = nil
    ) -> String {
        let activation = KoppeltaalServerState.Activation(
            clientID: clientID, patient: patient, user: user, resource: resource, intent: intent, domain: domain,
            expiresAt: core.now.addingTimeInterval(settings.activationLifetime))
        return state.withValue { $0.mint(activation, random: core.random) }
    }

    /// Ends the life of every access token issued so far, as time passing would: the next FHIR call gets the
    /// `expired` OperationOutcome and the app refreshes.
    public func expireAccessTokens() {
        state.withValue { state in
            for index in state.tokens.indices { state.tokens[index].expiresAt = .distantPast }
        }
    }

    /// Answers the next refresh with `invalid_grant` and ends its grant, as a server that lost the grant does.
    ///
    /// The SDK erases the grant: the call fails with `SignInError` (the server's `invalid_grant`) and the session's
    /// status is `.needsActivation`, because Koppeltaal 1.x has no way back but a new launch from the portal. SMART's
    /// session does the same (it signs out); Vital's keeps its user, marked for re-authentication (see
    /// ``VitalTestServer/refuseNextRefresh()``).
    public func refuseNextRefresh() { state.withValue { $0.refuseNextRefresh = true } }

    /// Rotates the next refresh token and then loses the response: the app gets a dropped connection, and the
    /// refresh token it still holds is already dead.
    public func loseNextRefreshResponse() { state.withValue { $0.loseNextRefreshResponse = true } }

    /// Revokes every grant, as the user does by signing out on another device: access and refresh tokens stop
    /// working.
    public func revokeAllGrants() {
        state.withValue { state in
            for index in state.tokens.indices {
                state.tokens[index].accessRevoked = true
                state.tokens[index].refreshRevoked = true
            }
        }
    }

    /// How many refresh tokens would still be accepted.
    public var liveRefreshTokens: Int {
        state.current.tokens.filter { $0.refreshToken != nil && !$0.refreshRevoked }.count
    }

    /// How many activation codes are waiting to be used.
    public var pendingActivations: Int { state.current.activations.count }
}

extension KoppeltaalTestServer: InProcessServer {
    func operation(of request: ReceivedRequest) -> Operation? {
        guard let path = path(of: request) else { return nil }
        switch (request.method, path) {
        case (.get, "/OAuth2/Koppeltaal/MobileLaunch"): return .mobileLaunch
        case (.get, "/OAuth2/Koppeltaal/Authorize"): return .authorize
        case (.post, "/OAuth2/Koppeltaal/Token"):
            switch request.form["grant_type"] {
            case "authorization_code": return .redeemCode
            case "refresh_token": return .refreshToken
            default: return .unsupportedGrant
            }
        case (.post, "/OAuth2/Koppeltaal/Revoke"): return .revoke
        case (.get, "/FHIR/Koppeltaal/metadata"): return .conformance
        case (.get, "/FHIR/Koppeltaal/.well-known/smart-configuration"): return .smartConfiguration
        case (.get, _), (.post, _): return path.hasPrefix("/FHIR/Koppeltaal/") ? .resource : nil
        default: return nil
        }
    }

    func handle(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        switch operation {
        case .mobileLaunch: return Handled(mobileLaunch(request))
        case .authorize: return Handled(authorize(request))
        case .revoke: return Handled(revoke(request))
        case .conformance: return Handled(metadata(request))
        case .smartConfiguration: return Handled(smartConfiguration(request))
        case .resource:
            let path = self.path(of: request) ?? ""
            return Handled(resource(request, path: String(path.dropFirst("/FHIR/Koppeltaal/".count))))
        default: return token(request, as: operation)
        }
    }

    /// The request's path below the base URL's, or nil when it is not under it.
    private func path(of request: ReceivedRequest) -> String? {
        let base = baseURL.path == "/" ? "" : baseURL.path
        guard request.path.hasPrefix(base + "/") else { return nil }
        return String(request.path.dropFirst(base.count))
    }

    /// The server's root as the request reached it: its origin and the base path.
    func root(of request: ReceivedRequest) -> String {
        let origin = TestServerNames.origin(request.message.url) ?? ""
        let base = baseURL.path == "/" ? "" : baseURL.path
        return origin + base
    }
}
