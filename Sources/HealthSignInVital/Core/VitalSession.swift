import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// The app's side of Vital sign-in: signs a user in with a sign-in token from your backend, keeps the session across
/// launches, refreshes it transparently, and signs out.
///
/// ```swift
/// let vital = VitalSession(configuration: .init(store: try CredentialStores.secure(service: "com.example.vital")))
/// if try await vital.status.isEmpty {
///     try await vital.signIn(token: try await myBackend.vitalSignInToken())
/// }
/// let providers = try await vital.connectedProviders()
/// ```
///
/// Sign in once per installation and reconcile with your own session at launch
/// (``reconcile(appUserID:tokenProvider:)``) rather than signing in on every launch. The session lives in a
/// `CredentialSession`: it is written to the store before any call returns, sign-in, sign-out, reconciliation and
/// configuration run one at a time, and concurrent calls that find the access token expired share one refresh
/// (also with other instances and processes sharing the store). A refresh answered `invalid_token` means the user
/// was deleted: the SDK signs out and reports ``VitalSessionError/userNoLongerValid(userID:)`` and
/// ``VitalEvent/signedOut(_:)``. Network errors and 5xx never sign out, and a refusal for a user who has meanwhile
/// signed out never touches the next one. After ``signOut()`` returns, nothing of the session is stored, and no
/// request carries its tokens again.
public final class VitalSession: Sendable {
    /// Where the session is kept and how the servers are reached.
    public struct Configuration: Sendable {
        /// Where the session (tokens or API key) is kept.
        public var store: any CredentialStore
        /// The key it is stored under; nil (the default) derives one from the hosts, the expected environment and the
        /// expected team, so that sessions configured for other ones never read it. Give one key to several sessions
        /// only when they are configured alike (an app and its extension).
        public var storeKey: String?
        /// The hosts of each environment; override them for a proxy or a test server.
        public var hosts: VitalHostMap
        /// The transport, URL policy, timeout and logger of every request; the clients the flow makes share them.
        public var options: ClientOptions
        /// How long before its expiry an access token is refreshed, in seconds: 0 to a day.
        public var refreshSkew: TimeInterval
        /// Decides when tokens expire.
        public var clock: any TimeSource
        /// The only environment sign-in tokens may be for, or nil for any: a token for another one is refused before
        /// any request.
        public var expectedEnvironment: VitalEnvironment?
        /// The only team sign-in tokens may be for (`vital_team_id`), or nil for any: a token for another team is
        /// refused before any request.
        public var expectedTeamID: String?
        /// Whether API-key mode accepts a production team key (`pk_…`). Team keys on devices are for sandbox
        /// evaluation only, so a production key is refused unless this is set.
        public var allowsProductionAPIKey: Bool

        /// Creates a configuration.
        public init(
            store: any CredentialStore, storeKey: String? = nil, hosts: VitalHostMap = .init(),
            urlPolicy: URLPolicy = .init(), refreshSkew: TimeInterval = 60,
            transport: any HTTPTransport = DefaultHTTPTransport(), clock: any TimeSource = SystemClock(),
            timeout: TimeInterval? = nil, logger: (any LogSink)? = nil,
            middlewares: [any HTTPClientMiddleware] = [], expectedEnvironment: VitalEnvironment? = nil,
            expectedTeamID: String? = nil, allowsProductionAPIKey: Bool = false
        ) {
            self.expectedEnvironment = expectedEnvironment
            self.expectedTeamID = expectedTeamID
            self.allowsProductionAPIKey = allowsProductionAPIKey
            self.store = store
            self.storeKey = storeKey
            self.hosts = hosts
            self.options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)
            self.refreshSkew = refreshSkew
            self.clock = clock
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private let session: CredentialSession<VitalCredentialPolicy>
    private let broadcaster: Broadcaster<VitalEvent>
    /// The data-API client of the last access, reused while the lease and environment are the same.
    private let leasedClient = LockedValue<
        (lease: CredentialLease, environment: VitalEnvironment, client: VitalAPIClient)?
    >(nil)

    /// Creates the SDK's core; the stored session is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let broadcaster = Broadcaster<VitalEvent>()
        self.broadcaster = broadcaster
        session = CredentialSession(
            store: configuration.store,
            key: CredentialKey(
                configured: configuration.storeKey, prefix: "vital.core", registrations: configuration.registrations),
            policy: VitalCredentialPolicy(configuration: configuration),
            clock: configuration.clock, logger: configuration.options.logger, category: "Vital",
            observe: { change in Self.event(for: change).map(broadcaster.send) }
        )
    }

    /// The key the session is stored under: the configured one, or `vital.core.` and a digest of the hosts and the
    /// expected environment and team. The session is stored with its environment's auth host and its team, and one
    /// stored for hosts or a team this configuration does not allow is never used; when the configured key holds one,
    /// the session is kept under the derived key.
    public var storeKey: String { session.key }

    // MARK: - Status

    /// The status, read from the store without network. A stored session that cannot be decoded reads as signed out.
    ///
    /// - Throws: the store's error when it cannot be read (e.g. a locked Keychain): that is not "signed out".
    public var status: VitalStatus {
        get async throws { (try await session.storedState() ?? VitalStoredState()).status }
    }

    /// The signed-in Vital user, read from the store without network.
    public var currentUserID: UUID? {
        get async throws { try await session.storedState()?.userID }
    }

    /// The status now, then every change: sign-ins, sign-outs (also automatic ones and an unreadable stored session),
    /// a session marked pending re-authentication by a background refresh.
    public func statuses() -> AsyncStream<VitalStatus> {
        session.statuses { ($0 ?? VitalStoredState()).status }
    }

    /// Status changes from now on, with their reasons: sign-ins, sign-outs (including automatic ones),
    /// re-authentication requests.
    public func events() -> AsyncStream<VitalEvent> {
        broadcaster.subscribe()
    }

    /// The event a lifecycle change means for the app, when the session itself made it (a refresh's refusal, an
    /// unreadable stored value); the flow's own steps send theirs as they finish.
    private static func event(for change: CredentialChange<VitalStoredState>) -> VitalEvent? {
        switch change.event {
        case .discardedAfterRefusal: return change.before?.userID.map { .signedOut(.userNoLongerValid($0)) }
        case .markedAfterRefusal: return change.before?.userID.map { .reauthenticationRequired(userID: $0) }
        case .unreadableStoredValue: return .signedOut(.storedSessionUnreadable)
        default: return nil
        }
    }

    // MARK: - Signing in and out

    /// What ``signIn(token:)`` did.
    public enum SignInOutcome: Sendable, Hashable {
        /// The user is now signed in.
        case signedIn
        /// The same user was already signed in; the token was not used.
        case alreadySignedIn
        /// The same user was pending re-authentication and is signed in again.
        case reauthenticated
        /// The same user, environment and region were signed in with an API key; now with the token.
        case migratedFromAPIKey
    }

    /// Signs in with a sign-in token from your backend, exchanging it at the auth host of the environment it names.
    ///
    /// The session is stored before this returns; the sign-in token itself is never stored. A stored session that
    /// cannot be decoded is replaced.
    ///
    /// The token's `exp` is not checked against the device clock, which may be wrong: the auth server decides.
    /// Signing in the user, environment and team already signed in is a no-op (``SignInOutcome/alreadySignedIn``).
    /// In API-key mode, a token for the same user and environment, or any token before a user id was set, migrates.
    ///
    /// - Throws: ``VitalSessionError/invalidSignInToken(_:)`` for a malformed or refused token;
    ///   ``VitalSessionError/unexpectedSignInToken(_:)`` for a token outside the configured environment or team;
    ///   ``VitalSessionError/alreadySignedIn(userID:)`` when another user (or team) is signed in;
    ///   ``VitalSessionError/migrationMismatch(_:)`` when API-key mode is set up for another user or environment;
    ///   `ConfigurationError.invalidSetting` for a `refreshSkew` that is not 0 to a day.
    @discardableResult
    public func signIn(token: String) async throws -> SignInOutcome {
        _ = try ConfigurationError.checked(configuration.refreshSkew, named: "refreshSkew", in: 0...86_400)
        let token = try VitalSignInToken(token)
        return try await session.transition { transition in try await self.signIn(token, in: transition) }
    }

    private func signIn(
        _ token: VitalSignInToken, in transition: CredentialTransition<VitalCredentialPolicy>
    ) async throws -> SignInOutcome {
        var unexpected: [String] = []
        if let expected = configuration.expectedEnvironment, expected != token.environment {
            unexpected.append("environment")
        }
        if let expected = configuration.expectedTeamID, expected != token.teamID { unexpected.append("team") }
        guard unexpected.isEmpty else { throw VitalSessionError.unexpectedSignInToken(unexpected) }
        let stored = try await transition.current()
        let outcome: SignInOutcome
        switch stored?.mode {
        case nil:
            outcome = .signedIn
        case .signInToken(let session)?:
            guard session.userID == token.userID, session.environment == token.environment,
                token.teamID == nil || session.teamID == nil || session.teamID == token.teamID
            else {
                throw VitalSessionError.alreadySignedIn(userID: session.userID)
            }
            guard session.pendingReauthentication else { return .alreadySignedIn }
            outcome = .reauthenticated
        case .apiKey(let session)?:
            // Before a user id is set there is nobody to keep, so any token takes over (vital-ios: `useApiKey`).
            if let userID = session.userID {
                var differing: [String] = []
                if userID != token.userID { differing.append("user") }
                if session.environment != token.environment { differing.append("environment") }
                guard differing.isEmpty else { throw VitalSessionError.migrationMismatch(differing) }
            }
            outcome = .migratedFromAPIKey
        }
        let fresh = try await exchange(token)
        try await transition.store(VitalStoredState(mode: .signInToken(fresh), appUserID: stored?.appUserID))
        log(.info, "signed in")
        broadcaster.send(.signedIn(userID: token.userID))
        return outcome
    }

    /// Exchanges the token for a session.
    private func exchange(_ token: VitalSignInToken) async throws -> VitalTokenSession {
        let response: TokenResponse
        do {
            let client = try configuration.client(for: token.environment, transport: configuration.options.transport)
            response = try await client.exchangeSignInToken(.init(subjectToken: token.userToken))
        } catch let error as VitalError where error.code == .invalidToken {
            throw VitalSessionError.invalidSignInToken(.rejectedByServer)
        }
        return try VitalTokenSession(
            response, userID: token.userID, teamID: token.teamID, environment: token.environment,
            receivedAt: configuration.clock.now()
        )
    }

    /// Erases the session and configuration from the store (also when they could not be decoded). No server call is
    /// made. Once this returns nothing is stored, no refresh in flight writes its tokens back, and no request
    /// carries the old tokens again.
    public func signOut() async throws {
        try await session.transition { transition in try await self.erase(in: transition) }
    }

    private func erase(in transition: CredentialTransition<VitalCredentialPolicy>) async throws {
        guard try await transition.erase()?.mode != nil else { return }
        log(.info, "signed out")
        broadcaster.send(.signedOut(.requested))
    }

    // MARK: - Reconciliation

    /// What ``reconcile(appUserID:tokenProvider:)`` did.
    public enum ReconcileOutcome: Sendable, Hashable {
        /// The SDK already matched the app; nothing was asked of the backend.
        case unchanged
        /// The app's user is now signed in (after signing out another one, if needed).
        case signedIn
        /// The app has no user, so the SDK signed out.
        case signedOut
    }

    /// Brings the SDK in line with the app's own session: signs out when the app has no user, and signs in (asking
    /// `tokenProvider` for a sign-in token) only when the SDK is signed out, pending re-authentication, or signed in
    /// for another app user. Call it at launch and after your own sign-in and sign-out.
    ///
    /// - Parameters:
    ///   - appUserID: your app's id for its signed-in user (e.g. the `client_user_id`), or nil when signed out.
    ///   - tokenProvider: asks your backend for a sign-in token for that user.
    @discardableResult
    public func reconcile(
        appUserID: String?, tokenProvider: @escaping @Sendable () async throws -> String
    ) async throws -> ReconcileOutcome {
        try await session.transition { transition in
            try await self.reconcile(appUserID: appUserID, tokenProvider: tokenProvider, in: transition)
        }
    }

    private func reconcile(
        appUserID: String?, tokenProvider: @Sendable () async throws -> String,
        in transition: CredentialTransition<VitalCredentialPolicy>
    ) async throws -> ReconcileOutcome {
        let stored = try await transition.current() ?? VitalStoredState()
        guard let appUserID else {
            guard stored.mode != nil else { return .unchanged }
            try await erase(in: transition)
            return .signedOut
        }
        let pending = stored.status.contains(.pendingReauthentication)
        if stored.appUserID == appUserID, stored.status.contains(.signedIn), !pending { return .unchanged }
        let token = try VitalSignInToken(try await tokenProvider())
        // A token for the user already signed in only records the app's id (or re-authenticates, or migrates from
        // API-key mode); any other user or environment replaces the current one.
        if stored.mode != nil, stored.userID != token.userID || stored.environment != token.environment {
            try await erase(in: transition)
        }
        _ = try await signIn(token, in: transition)
        try await transition.update { state in
            var state = state
            state.appUserID = appUserID
            return state
        }
        return .signedIn
    }

    // MARK: - API-key mode

    /// Configures API-key mode: data calls send the team API key. **For sandbox prototypes only**: an API key in an
    /// app is readable by anyone who has the app. Use sign-in tokens in production; a later ``signIn(token:)`` for
    /// the same user, environment and region migrates without losing the user.
    ///
    /// - Throws: ``VitalSessionError/wrongMode(_:)`` when signed in with a sign-in token;
    ///   ``VitalSessionError/productionAPIKeyRefused`` for a production key (`pk_…`) unless
    ///   ``Configuration/allowsProductionAPIKey`` is set.
    public func configure(
        apiKey: String, environment: VitalEnvironment.Tier, region: VitalEnvironment.Region
    ) async throws {
        if apiKey.hasPrefix("pk_"), !configuration.allowsProductionAPIKey {
            throw VitalSessionError.productionAPIKeyRefused
        }
        let environment = VitalEnvironment(environment, region)
        try await session.transition { transition in
            let stored = try await transition.current()
            let keptUser: UUID?
            switch stored?.mode {
            case .signInToken?: throw VitalSessionError.wrongMode(stored?.status ?? [])
            case .apiKey(let session)?: keptUser = session.environment == environment ? session.userID : nil
            case nil: keptUser = nil
            }
            let mode = VitalStoredState.Mode.apiKey(
                VitalAPIKeySession(apiKey: apiKey, environment: environment, userID: keptUser))
            try await transition.store(VitalStoredState(mode: mode, appUserID: stored?.appUserID))
            self.broadcaster.send(.configured(environment))
        }
    }

    /// Signs in the Vital user `userID` in API-key mode.
    ///
    /// - Throws: ``VitalSessionError/notConfigured`` before ``configure(apiKey:environment:region:)``;
    ///   ``VitalSessionError/wrongMode(_:)`` when signed in with a sign-in token.
    public func setUserID(_ userID: UUID) async throws {
        try await session.transition { transition in
            let stored = try await transition.current()
            switch stored?.mode {
            case nil: throw VitalSessionError.notConfigured
            case .signInToken?: throw VitalSessionError.wrongMode(stored?.status ?? [])
            case .apiKey(var session)?:
                session.userID = userID
                try await transition.store(VitalStoredState(mode: .apiKey(session), appUserID: stored?.appUserID))
                self.broadcaster.send(.userIDSet(userID))
            }
        }
    }

    // MARK: - Authorized calls

    /// What a data-plane call needs: a client for the user's environment, the credential and the user.
    public struct Access: Sendable {
        /// A client for the user's API host. In sign-in-token mode it sends nothing once the session is signed out.
        public let client: VitalAPIClient
        /// An access token in sign-in-token mode, the API key in API-key mode.
        public let credential: AccessCredential
        /// The signed-in user.
        public let userID: UUID
    }

    /// Runs `call` with the signed-in user's credential. In sign-in-token mode the access token is refreshed first
    /// when it is about to expire, and when the API answers 401 the token is refreshed once for all callers and `call`
    /// replayed once.
    ///
    /// - Throws: ``VitalSessionError/notSignedIn``, ``VitalSessionError/needsReauthentication(userID:)``,
    ///   ``VitalSessionError/userNoLongerValid(userID:)``, `CredentialLifecycleError` when the session was signed out
    ///   or replaced while the call ran, or what `call` throws.
    public func withAccess<Result: Sendable>(_ call: @Sendable (Access) async throws -> Result) async throws -> Result {
        switch try await session.current()?.mode {
        case nil:
            throw VitalSessionError.notSignedIn
        case .apiKey(let session)?:
            guard let userID = session.userID else { throw VitalSessionError.notSignedIn }
            let client = try configuration.client(for: session.environment, transport: configuration.options.transport)
            return try await call(Access(client: client, credential: .apiKey(APIKey(session.apiKey)), userID: userID))
        case .signInToken?:
            return try await session.withCredential { access in
                let client = try client(for: access.credential.environment, lease: access.lease)
                return try await call(
                    Access(
                        client: client, credential: .bearer(BearerToken(access.credential.accessToken)),
                        userID: access.credential.userID))
            }
        }
    }

    /// A client for `environment` whose requests go out only while `lease` is valid.
    private func client(for environment: VitalEnvironment, lease: CredentialLease) throws -> VitalAPIClient {
        if let cached = leasedClient.current, cached.lease === lease, cached.environment == environment {
            return cached.client
        }
        let client = try configuration.client(
            for: environment, transport: lease.guarding(configuration.options.transport))
        leasedClient.withValue { $0 = (lease, environment, client) }
        return client
    }

    /// The data sources the signed-in user has connected.
    public func connectedProviders() async throws -> [ConnectedProvider] {
        try await withAccess { access in
            try await access.client.getConnectedProviders(.init(userID: access.userID), credential: access.credential)
                .providers
        }
    }

    /// A usable access token (sign-in-token mode), refreshed first when it expires within the configured skew; for
    /// calls the SDK does not wrap.
    ///
    /// - Throws: ``VitalSessionError/wrongMode(_:)`` in API-key mode, and as ``withAccess(_:)``.
    public func accessToken() async throws -> BearerToken {
        let stored = try await session.current()
        guard case .signInToken? = stored?.mode else {
            throw stored?.mode == nil
                ? VitalSessionError.notSignedIn : VitalSessionError.wrongMode(stored?.status ?? [])
        }
        return BearerToken(try await session.access().credential.accessToken)
    }

    private func log(_ level: LogEntry.Level, _ message: LogMessage) {
        configuration.options.logger.log(level, "Vital", message)
    }
}
