import Foundation
import HealthSignInCore

/// What an OAuth family adds to the session every OAuth family shares: what it keeps beside the tokens, how its
/// servers advertise their endpoints, and how apps see the session.
///
/// The family's session (`KoppeltaalSession`, `SMARTSession`) holds an ``OAuthSession`` with its profile; the layer
/// does the rest: discovery with trust per registration, the authorization request and its answer, redeeming the
/// code, OpenID Connect, storing, refreshing once for all callers, discarding a grant the server proved dead, bearer
/// calls and revocation, with one error vocabulary (``SignInError``).
public protocol OAuthProfile: Sendable {
    /// What the family keeps beside the tokens, such as its launch context.
    associatedtype Context: Codable & Sendable & Equatable
    /// Where a session of the family stands, as apps see it.
    associatedtype Status: Sendable & Equatable

    /// The family's name, for errors, log records and operation ids.
    var family: String { get }
    /// How the session reaches servers and keeps its state.
    var settings: OAuthSessionSettings { get }
    /// The servers the app is registered at; every grant belongs to one of them.
    var registrations: [OAuthRegistration] { get }
    /// How id tokens are checked; nil for a family that does not sign in with OpenID Connect (an id token it is
    /// sent is not kept).
    var openID: OpenIDPolicy? { get }
    /// What the user does to get a new grant, for the errors: `launch again`, `ask for a new activation code`.
    var signInAgain: String { get }
    /// The parameters the family's authorization request sets besides the layer's reserved ones (its generated
    /// request's names), which neither the app nor a server's authorization endpoint may set.
    var authorizationParameterNames: Set<String> { get }

    /// What the server at `base` advertises about its endpoints (its metadata).
    func advertisedEndpoints(at base: URL) async throws -> AdvertisedEndpoints
    /// What apps see for `state`.
    func status(of state: OAuthSessionState<Context>?) -> Status
    /// The base URL of the registration that issued `grant`.
    func baseURL(of grant: OAuthSessionGrant<Context>) -> URL
    /// The context a token response gives: at sign-in (`previous` nil) or over the grant it refreshes (a refresh
    /// response may leave the context out).
    func context(_ response: TokenResponse, previous: Context?, registration: OAuthRegistration) throws -> Context
    /// `context` once the sign-in's id token was validated: who signed in. The default keeps `context`.
    func context(_ context: Context, signedInAs identity: IDToken, registration: OAuthRegistration) -> Context
    /// The server `grant`'s access token is for, at `registration`.
    func resourceServer(of grant: OAuthSessionGrant<Context>, registration: OAuthRegistration) -> ResourceServer
    /// Whether `grant`, stored by an earlier version of the SDK without the registration that issued it, may be this
    /// session's: it is then used and stored with its registration; otherwise it counts as nothing stored. The default
    /// claims a grant whose ``baseURL(of:)`` is one of ``registrations``.
    func claimsUnrecorded(_ grant: OAuthSessionGrant<Context>) -> Bool
}

/// How an OAuth session reaches its servers and keeps its state.
public struct OAuthSessionSettings: Sendable {
    /// Where the state is kept.
    public var store: any CredentialStore
    /// The key it is kept under; nil (the default) derives one from the registrations (their base URLs and client
    /// ids, and the scope of a service's token), so that clients of different registrations sharing the store never
    /// share a value. Give one key to several clients only when they are the same registration: instances of one
    /// service, or an app and its extension.
    public var storeKey: String?
    /// The transport, URL policy, timeout, logger and middlewares of every request.
    public var options: ClientOptions
    /// How long before its expiry an access token with a refresh token is refreshed, in seconds: 0 to a day.
    public var refreshSkew: TimeInterval
    /// How long an authorization may wait for its answer, in seconds: 0 to a day.
    public var pendingLifetime: TimeInterval
    /// Decides when tokens expire and id tokens are current.
    public var clock: any TimeSource
    /// Makes `state`, `nonce` and PKCE verifiers.
    public var random: any RandomSource

    /// Creates settings.
    public init(
        store: any CredentialStore, storeKey: String? = nil, options: ClientOptions = .init(),
        refreshSkew: TimeInterval = 60, pendingLifetime: TimeInterval = 600, clock: any TimeSource = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.store = store
        self.storeKey = storeKey
        self.options = options
        self.refreshSkew = refreshSkew
        self.pendingLifetime = pendingLifetime
        self.clock = clock
        self.random = random
    }

    /// When grants are refreshed.
    public var refresh: RefreshPolicy { RefreshPolicy(skew: refreshSkew) }

    /// Checks the times, where a sign-in starts: ``refreshSkew`` and ``pendingLifetime`` 0 to a day.
    ///
    /// - Throws: `ConfigurationError.invalidSetting` for one that is NaN, negative, infinite or longer.
    func checkTimes() throws(ConfigurationError) {
        _ = try ConfigurationError.checked(refreshSkew, named: "refreshSkew", in: 0...86_400)
        _ = try ConfigurationError.checked(pendingLifetime, named: "pendingLifetime", in: 0...86_400)
    }
}

extension OAuthProfile {
    /// Keeps `context`.
    public func context(_ context: Context, signedInAs identity: IDToken, registration: OAuthRegistration) -> Context {
        context
    }

    /// A grant of one of the registrations.
    public func claimsUnrecorded(_ grant: OAuthSessionGrant<Context>) -> Bool {
        registrations.registration(for: baseURL(of: grant)) != nil
    }

    /// The registration that issued `grant`.
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/unknownServer`` when the configuration no longer allows
    ///   its server (a stored grant cannot name another).
    public func registration(of grant: OAuthSessionGrant<Context>) throws -> OAuthRegistration {
        try registration(for: baseURL(of: grant))
    }

    /// The registration at `base`.
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/unknownServer`` for a server no registration covers.
    public func registration(for base: URL) throws -> OAuthRegistration {
        guard let registration = registrations.registration(for: base) else {
            throw SignInError(
                .unknownServer,
                "\(base.absoluteString) is not a server of the configuration's registrations; nothing was sent to it",
                family: family)
        }
        return registration
    }

    /// The error of a session without a usable grant; `refusal` is the server's answer that ended it.
    func needsSignIn(_ refusal: OAuthError? = nil) -> SignInError {
        SignInError(
            .needsSignIn,
            refusal == nil
                ? "there is no usable grant; \(signInAgain)"
                : "the server ended the grant; \(signInAgain)", family: family, serverError: refusal)
    }

    /// The error of a token endpoint that refused the client's credentials.
    func clientRejected(_ refusal: OAuthError) -> SignInError {
        SignInError(
            .clientRejected,
            "the token endpoint refused the client's credentials; check the registration's client id, secret or key",
            family: family, serverError: refusal)
    }

    /// Logs `message` under the family's name.
    package func log(_ level: LogEntry.Level, _ message: LogMessage) {
        settings.options.logger.log(level, family, message)
    }
}
