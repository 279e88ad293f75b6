import Foundation
import SDKRuntime

/// The app's side of Vital sign-in: signs a user in with a sign-in token from your backend, keeps the session across
/// launches, refreshes it transparently, and signs out.
///
/// ```swift
/// let vital = VitalCore(configuration: .init(store: KeychainCredentialStore(service: "com.example.vital")))
/// if try vital.status.isEmpty {
///     try await vital.signIn(token: try await myBackend.vitalSignInToken())
/// }
/// let providers = try await vital.connectedProviders()
/// ```
///
/// Sign in once per installation and reconcile with your own session at launch
/// (``reconcile(appUserID:tokenProvider:)``) rather than signing in on every launch. The session is written to the
/// store before any call returns. Concurrent calls that find the access token expired share one refresh. A refresh
/// answered `invalid_token` means the user was deleted: the SDK signs out and reports
/// ``VitalCoreError/userNoLongerValid(userID:)`` and ``VitalEvent/signedOut(_:)``. Network errors and 5xx never
/// sign out.
public actor VitalCore {
    /// Where the session is kept and how the servers are reached.
    public struct Configuration: Sendable {
        /// Where the session (tokens or API key) is kept.
        public var store: any CredentialStore
        /// The key it is stored under.
        public var storeKey: String
        /// The hosts of each environment; override them for a proxy or a test server.
        public var hosts: VitalHostMap
        /// Which URLs are acceptable (https only, unless loopback is allowed for tests).
        public var urlPolicy: URLPolicy
        /// How long before its expiry an access token is refreshed.
        public var refreshSkew: TimeInterval
        /// Sends requests.
        public var transport: any HTTPTransport
        /// Decides when tokens expire.
        public var clock: any WallClock
        /// How long a request may take, or nil for the transport's default.
        public var timeout: TimeInterval?
        /// Receives redacted log records.
        public var logger: (any LogSink)?

        /// Creates a configuration.
        public init(
            store: any CredentialStore, storeKey: String = "vital.core", hosts: VitalHostMap = .init(),
            urlPolicy: URLPolicy = .init(), refreshSkew: TimeInterval = 60,
            transport: any HTTPTransport = URLSessionTransport(), clock: any WallClock = SystemClock(),
            timeout: TimeInterval? = nil, logger: (any LogSink)? = nil
        ) {
            self.store = store
            self.storeKey = storeKey
            self.hosts = hosts
            self.urlPolicy = urlPolicy
            self.refreshSkew = refreshSkew
            self.transport = transport
            self.clock = clock
            self.timeout = timeout
            self.logger = logger
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private var loaded = false
    private var state = VitalStoredState()
    private let refreshes = SingleFlight<VitalTokenSession>()
    private let lifecycle = SerialQueue()
    private let broadcaster = Broadcaster<VitalEvent>()

    /// Creates the SDK's core; the stored session is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    // MARK: - Status

    /// The status, read from the store without network.
    ///
    /// - Throws: the store's error when it cannot be read (e.g. a locked Keychain): that is not "signed out".
    public nonisolated var status: VitalStatus {
        get throws { try storedState().status }
    }

    /// The signed-in Vital user, read from the store without network.
    public nonisolated var currentUserID: UUID? {
        get throws { try storedState().userID }
    }

    /// Status changes from now on: sign-ins, sign-outs (including automatic ones), re-authentication requests.
    public nonisolated func events() -> AsyncStream<VitalEvent> {
        broadcaster.subscribe()
    }

    private nonisolated func storedState() throws -> VitalStoredState {
        try configuration.store.readValue(VitalStoredState.self, for: configuration.storeKey) ?? VitalStoredState()
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
    /// The session is stored before this returns; the sign-in token itself is never stored.
    ///
    /// - Throws: ``VitalCoreError/invalidSignInToken(_:)`` for a malformed, expired or refused token;
    ///   ``VitalCoreError/alreadySignedIn(userID:)`` when another user is signed in;
    ///   ``VitalCoreError/migrationMismatch(_:)`` when API-key mode is set up for another user or environment.
    @discardableResult
    public func signIn(token: String) async throws -> SignInOutcome {
        try await lifecycle.run { [self] in try await self.performSignIn(try VitalSignInToken(token)) }
    }

    private func performSignIn(_ token: VitalSignInToken) async throws -> SignInOutcome {
        if let expiresAt = token.expiresAt, expiresAt <= configuration.clock.now() {
            throw VitalCoreError.invalidSignInToken(.expired(expiresAt))
        }
        let outcome: SignInOutcome
        switch try current().mode {
        case nil:
            outcome = .signedIn
        case .signInToken(let session):
            guard session.userID == token.userID, session.environment == token.environment else {
                throw VitalCoreError.alreadySignedIn(userID: session.userID)
            }
            guard session.pendingReauthentication else { return .alreadySignedIn }
            outcome = .reauthenticated
        case .apiKey(let session):
            var differing: [String] = []
            if session.userID != token.userID { differing.append("user") }
            if session.environment != token.environment { differing.append("environment") }
            guard differing.isEmpty else { throw VitalCoreError.migrationMismatch(differing) }
            outcome = .migratedFromAPIKey
        }
        try await exchange(token)
        return outcome
    }

    /// Exchanges the token and stores the session.
    private func exchange(_ token: VitalSignInToken) async throws {
        let response: TokenResponse
        do {
            response = try await client(for: token.environment).exchangeSignInToken(.init(subjectToken: token.userToken))
        } catch let error as VitalError where error.code == .invalidToken {
            throw VitalCoreError.invalidSignInToken(.rejectedByServer)
        }
        let session = try tokenSession(from: response, user: token.userID, team: token.teamID, environment: token.environment)
        try current()
        state.mode = .signInToken(session)
        try save()
        log(.info, "signed in")
        broadcaster.send(.signedIn(userID: token.userID))
    }

    /// Erases the session and configuration from the store. No server call is made.
    public func signOut() async throws {
        try await lifecycle.run { [self] in try await self.erase(reason: .requested) }
    }

    private func erase(reason: VitalEvent.SignOutReason) throws {
        let wasSignedIn = try current().mode != nil
        state = VitalStoredState()
        try configuration.store.remove(configuration.storeKey)
        if wasSignedIn {
            log(.info, "signed out")
            broadcaster.send(.signedOut(reason))
        }
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
    public func reconcile(appUserID: String?, tokenProvider: @escaping @Sendable () async throws -> String) async throws -> ReconcileOutcome {
        try await lifecycle.run { [self] in try await self.performReconcile(appUserID: appUserID, tokenProvider: tokenProvider) }
    }

    private func performReconcile(appUserID: String?, tokenProvider: @Sendable () async throws -> String) async throws -> ReconcileOutcome {
        let stored = try current()
        guard let appUserID else {
            guard stored.mode != nil else { return .unchanged }
            try erase(reason: .requested)
            return .signedOut
        }
        let pending = stored.status.contains(.pendingReauthentication)
        if stored.appUserID == appUserID, stored.status.contains(.signedIn), !pending { return .unchanged }
        let token = try VitalSignInToken(try await tokenProvider())
        // A token for the user already signed in only records the app's id (or re-authenticates, or migrates from
        // API-key mode); any other user or environment replaces the current one.
        if stored.mode != nil, stored.userID != token.userID || stored.environment != token.environment {
            try erase(reason: .requested)
        }
        _ = try await performSignIn(token)
        state.appUserID = appUserID
        try save()
        return .signedIn
    }

    // MARK: - API-key mode

    /// Configures API-key mode: data calls send the team API key. **For sandbox prototypes only**: an API key in an
    /// app is readable by anyone who has the app. Use sign-in tokens in production; a later ``signIn(token:)`` for
    /// the same user, environment and region migrates without losing the user.
    ///
    /// - Throws: ``VitalCoreError/wrongMode(_:)`` when signed in with a sign-in token.
    public func configure(apiKey: String, environment: VitalEnvironment.Tier, region: VitalEnvironment.Region) async throws {
        try await lifecycle.run { [self] in try await self.performConfigure(apiKey: apiKey, environment: VitalEnvironment(environment, region)) }
    }

    private func performConfigure(apiKey: String, environment: VitalEnvironment) throws {
        var keptUser: UUID?
        switch try current().mode {
        case .signInToken: throw VitalCoreError.wrongMode(state.status)
        case .apiKey(let session): keptUser = session.environment == environment ? session.userID : nil
        case nil: keptUser = nil
        }
        state.mode = .apiKey(VitalAPIKeySession(apiKey: apiKey, environment: environment, userID: keptUser))
        try save()
        broadcaster.send(.configured(environment))
    }

    /// Signs in the Vital user `userID` in API-key mode.
    ///
    /// - Throws: ``VitalCoreError/notConfigured`` before ``configure(apiKey:environment:region:)``;
    ///   ``VitalCoreError/wrongMode(_:)`` when signed in with a sign-in token.
    public func setUserID(_ userID: UUID) async throws {
        try await lifecycle.run { [self] in try await self.performSetUserID(userID) }
    }

    private func performSetUserID(_ userID: UUID) throws {
        switch try current().mode {
        case nil: throw VitalCoreError.notConfigured
        case .signInToken: throw VitalCoreError.wrongMode(state.status)
        case .apiKey(var session):
            session.userID = userID
            state.mode = .apiKey(session)
            try save()
            broadcaster.send(.userIDSet(userID))
        }
    }

    // MARK: - Authorized calls

    /// What a data-plane call needs: a client for the user's environment, the credential and the user.
    public struct Access: Sendable {
        /// A client for the user's API host.
        public let client: VitalClient
        /// An access token in sign-in-token mode, the API key in API-key mode.
        public let credential: AccessCredential
        /// The signed-in user.
        public let userID: UUID
    }

    /// Runs `call` with the signed-in user's credential. In sign-in-token mode the access token is refreshed first
    /// when it is about to expire, and when the API answers 401 the token is refreshed once for all callers and `call`
    /// replayed once.
    ///
    /// - Throws: ``VitalCoreError/notSignedIn``, ``VitalCoreError/needsReauthentication(userID:)``,
    ///   ``VitalCoreError/userNoLongerValid(userID:)``, or what `call` throws.
    public func withAccess<Result: Sendable>(_ call: @Sendable (Access) async throws -> Result) async throws -> Result {
        switch try current().mode {
        case nil:
            throw VitalCoreError.notSignedIn
        case .apiKey(let session):
            guard let userID = session.userID else { throw VitalCoreError.notSignedIn }
            return try await call(Access(client: try client(for: session.environment), credential: .apiKey(APIKey(session.apiKey)), userID: userID))
        case .signInToken:
            let session = try await usableSession()
            do {
                return try await call(try access(session))
            } catch where Self.meansExpiredAccess(error) {
                log(.info, "the API refused the access token; refreshing")
                return try await call(try access(try await refreshed(replacing: session)))
            }
        }
    }

    /// The data sources the signed-in user has connected.
    public func connectedProviders() async throws -> [ConnectedProvider] {
        try await withAccess { access in
            try await access.client.getConnectedProviders(.init(userID: access.userID), credential: access.credential).providers
        }
    }

    /// A usable access token (sign-in-token mode), refreshed first when it expires within the configured skew; for
    /// calls the SDK does not wrap.
    ///
    /// - Throws: ``VitalCoreError/wrongMode(_:)`` in API-key mode, and as ``withAccess(_:)``.
    public func accessToken() async throws -> BearerToken {
        guard case .signInToken = try current().mode else {
            throw state.mode == nil ? VitalCoreError.notSignedIn : VitalCoreError.wrongMode(state.status)
        }
        return BearerToken(try await usableSession().accessToken)
    }

    private func access(_ session: VitalTokenSession) throws -> Access {
        Access(client: try client(for: session.environment), credential: .bearer(BearerToken(session.accessToken)), userID: session.userID)
    }

    /// Whether `error` says the access token was refused, so that one refresh and replay may help.
    static func meansExpiredAccess(_ error: any Error) -> Bool {
        switch error {
        case let error as VitalError: return error.httpStatus == 401 || error.code == .invalidToken
        case let error as UnexpectedResponseError: return error.status == 401
        default: return false
        }
    }

    // MARK: - Refresh

    private func usableSession() async throws -> VitalTokenSession {
        guard case .signInToken(let session) = try current().mode else { throw VitalCoreError.notSignedIn }
        if session.pendingReauthentication { throw VitalCoreError.needsReauthentication(userID: session.userID) }
        if session.expiresAt.addingTimeInterval(-configuration.refreshSkew) <= configuration.clock.now() {
            return try await refreshed(replacing: session)
        }
        return session
    }

    /// A session to use instead of `stale`: one another caller already got, or a refresh shared by everyone who asks
    /// while it runs.
    private func refreshed(replacing stale: VitalTokenSession) async throws -> VitalTokenSession {
        if case .signInToken(let current) = state.mode, current != stale, !current.pendingReauthentication { return current }
        return try await refreshes.run { [self] in try await self.refresh() }
    }

    /// Redeems the refresh token and stores the new pair before returning it.
    private func refresh() async throws -> VitalTokenSession {
        guard case .signInToken(let session) = try current().mode else { throw VitalCoreError.notSignedIn }
        if session.pendingReauthentication { throw VitalCoreError.needsReauthentication(userID: session.userID) }
        let response: TokenResponse
        do {
            response = try await client(for: session.environment).refreshToken(.init(refreshToken: session.refreshToken))
        } catch let error as VitalError {
            try handleRefusedRefresh(error, of: session)
            throw error
        }
        // The user may have signed out while the request was out.
        guard state.mode == .signInToken(session) else { throw VitalCoreError.notSignedIn }
        let fresh = try tokenSession(from: response, user: session.userID, team: session.teamID, environment: session.environment)
        state.mode = .signInToken(fresh)
        try save()
        log(.info, "refreshed the access token")
        return fresh
    }

    /// Signs out for `invalid_token`, marks the session pending for `reauthentication_required`, and throws the
    /// matching ``VitalCoreError``; returns for any other error, which leaves the session as it was.
    private func handleRefusedRefresh(_ error: VitalError, of session: VitalTokenSession) throws {
        switch error.code {
        case .invalidToken:
            log(.warning, "the server no longer knows the user; signing out")
            try erase(reason: .userNoLongerValid(session.userID))
            throw VitalCoreError.userNoLongerValid(userID: session.userID)
        case .reauthenticationRequired:
            log(.warning, "the refresh token was revoked; re-authentication is needed")
            var pending = session
            pending.pendingReauthentication = true
            state.mode = .signInToken(pending)
            try save()
            broadcaster.send(.reauthenticationRequired(userID: session.userID))
            throw VitalCoreError.needsReauthentication(userID: session.userID)
        default:
            return
        }
    }

    /// A session from a token response.
    private func tokenSession(from response: TokenResponse, user: UUID, team: String?, environment: VitalEnvironment) throws -> VitalTokenSession {
        guard !response.accessToken.isEmpty else { throw VitalCoreError.malformedTokenResponse("access_token is empty") }
        guard !response.refreshToken.isEmpty else { throw VitalCoreError.malformedTokenResponse("refresh_token is empty") }
        guard response.expiresIn >= 0 else { throw VitalCoreError.malformedTokenResponse("expires_in is negative") }
        return VitalTokenSession(
            userID: user, teamID: team, environment: environment, accessToken: response.accessToken,
            refreshToken: response.refreshToken,
            expiresAt: configuration.clock.now().addingTimeInterval(TimeInterval(response.expiresIn)),
            pendingReauthentication: false
        )
    }

    // MARK: - Store and clients

    @discardableResult
    private func current() throws -> VitalStoredState {
        if !loaded {
            state = try storedState()
            loaded = true
        }
        return state
    }

    private func save() throws {
        try configuration.store.writeValue(state, for: configuration.storeKey)
    }

    private func client(for environment: VitalEnvironment) throws -> VitalClient {
        let hosts = configuration.hosts.hosts(for: environment)
        try configuration.urlPolicy.check(hosts.api)
        try configuration.urlPolicy.check(hosts.auth)
        return VitalClient(configuration: .init(
            servers: .init(api: hosts.api, auth: hosts.auth), transport: configuration.transport,
            urlPolicy: configuration.urlPolicy, timeout: configuration.timeout, logger: configuration.logger
        ))
    }

    private func log(_ level: LogLevel, _ message: String) {
        configuration.logger.log(level, "Vital", message)
    }
}
