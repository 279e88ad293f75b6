import Foundation
import SDKRuntime

/// A HealthVault SODA connection: provisioning the app instance, the Shell hand-off, the session, and every call
/// signed with it.
///
/// ```swift
/// let connection = HealthVaultConnection(configuration: .init(store: KeychainCredentialStore(service: "app.healthvault")))
/// let shellPage = try await connection.provision(masterAppID: master)      // open it in a web view
/// // …the web view reaches …/application/complete?…
/// try await connection.completeAuthorization(redirect: completionURL)
/// for try await person in await connection.authorizedPeople() { print(person.name) }
/// ```
///
/// Everything the connection learns is written to the credential store before it is used. Concurrent calls that
/// find the session expired (status 65) share one new session, and each call is replayed once.
public actor HealthVaultConnection {
    /// How the connection reaches HealthVault and where it keeps credentials.
    public struct Configuration: Sendable {
        /// The platform URL of the default instance, used until the user's instance is known.
        public var defaultPlatformURL: URL
        /// The Shell URL of the default instance.
        public var defaultShellURL: URL
        /// Where credentials are kept.
        public var store: any CredentialStore
        /// The key the connection's state is stored under.
        public var storeKey: String
        /// How the instance appears to the user in HealthVault, e.g. the device's name. Nil uses the child app id.
        public var instanceName: String?
        /// Whether the user may authorize several records.
        public var isMultiRecordApp: Bool
        /// Transport, clock, header settings, timeout and logging for every call.
        public var client: HealthVaultClient.Configuration

        /// Creates a configuration; the URLs default to HealthVault's US pre-production environment.
        public init(
            defaultPlatformURL: URL = URL(string: "https://platform.healthvault-ppe.com/platform/wildcat.ashx")!,
            defaultShellURL: URL = URL(string: "https://account.healthvault-ppe.com")!,
            store: any CredentialStore,
            storeKey: String = "healthvault.connection",
            instanceName: String? = nil,
            isMultiRecordApp: Bool = true,
            client: HealthVaultClient.Configuration = .init()
        ) {
            self.defaultPlatformURL = defaultPlatformURL
            self.defaultShellURL = defaultShellURL
            self.store = store
            self.storeKey = storeKey
            self.instanceName = instanceName
            self.isMultiRecordApp = isMultiRecordApp
            self.client = client
        }
    }

    /// The configuration.
    public let configuration: Configuration
    private var loaded = false
    private var state: HealthVaultConnectionState?
    private let sessionCreation = SingleFlight<HealthVaultSessionCredential>()

    /// Creates a connection; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    // MARK: - Lifecycle

    /// Where the connection is, from the store.
    public func status() throws -> HealthVaultConnectionStatus {
        guard let state = try currentState() else { return .notProvisioned }
        if let instance = state.instance { return .connected(instance) }
        return .awaitingAuthorization(createApplicationURL: createApplicationURL(state))
    }

    /// Creates this app's instance under the master application and returns the Shell page the user must open.
    ///
    /// The child application id, its shared secret and the creation token are stored before this returns. While
    /// the user has not finished the Shell page, calling it again returns the same page without a new instance.
    ///
    /// - Throws: ``HealthVaultConnectionError/alreadyConnected`` when the instance is already authorized.
    public func provision(masterAppID: UUID) async throws -> URL {
        if let state = try currentState() {
            guard state.instance == nil else { throw HealthVaultConnectionError.alreadyConnected }
            if state.masterApplicationID == masterAppID, state.applicationCreationToken != nil {
                return createApplicationURL(state)
            }
        }
        let client = client(platformURL: configuration.defaultPlatformURL)
        let created = try await client.newApplicationCreationInfo(applicationID: masterAppID)
        let state = HealthVaultConnectionState(
            masterApplicationID: masterAppID,
            application: HealthVaultApplicationCredential(applicationID: created.appID, sharedSecret: created.sharedSecret),
            applicationCreationToken: created.appToken
        )
        try save(state)
        log(.info, "provisioned app instance \(created.appID.wireText)")
        return createApplicationURL(state)
    }

    /// Finishes the Shell hand-off from the completion URL the browser reached.
    ///
    /// On `AppAuthSuccess` the instance id is resolved to its URLs (GetServiceDefinition), a session is created
    /// against that instance, and both are stored. Other targets are returned as they are and change nothing.
    ///
    /// - Throws: ``ShellRedirectError`` for a URL that is not this instance's completion page,
    ///   ``HealthVaultConnectionError/authorizationRejected`` when the user declined.
    @discardableResult
    public func completeAuthorization(redirect: URL) async throws -> ShellCompletion {
        guard var state = try currentState() else { throw HealthVaultConnectionError.notProvisioned }
        let completion = try ShellCompletion(redirect: redirect, expectedApplicationID: state.application.applicationID)
        switch completion.target {
        case .appAuthSuccess: break
        case .appAuthReject: throw HealthVaultConnectionError.authorizationRejected
        default: return completion
        }
        let instanceID = completion.instanceID ?? ""
        let definition = try await client(platformURL: configuration.defaultPlatformURL)
            .getServiceDefinition(applicationID: state.masterApplicationID)
        guard let found = definition.instances?.instance.first(where: { $0.id.caseInsensitiveCompare(instanceID) == .orderedSame }) else {
            throw HealthVaultConnectionError.unknownInstance(instanceID)
        }
        state.instance = HealthVaultInstance(id: found.id, platformURL: found.platformURL, shellURL: found.shellURL)
        state.applicationCreationToken = nil
        state.session = nil
        try save(state)
        log(.info, "authorized in instance \(found.id)")
        _ = try await renewedSession(replacing: nil)
        return completion
    }

    /// The APPAUTH page where the user can authorize (more) records for this instance.
    public func appAuthorizationURL() throws -> URL {
        guard let state = try currentState() else { throw HealthVaultConnectionError.notProvisioned }
        return appAuthorizationURL(state)
    }

    /// Forgets everything stored for this connection: app instance, secrets, instance and session.
    public func disconnect() async throws {
        try configuration.store.remove(configuration.storeKey)
        state = nil
        loaded = true
        log(.info, "disconnected")
    }

    // MARK: - Calls

    /// Runs `call` with the current session against the user's instance.
    ///
    /// A session is created first when there is none. When HealthVault answers 65 (session expired), one new
    /// session is created for all callers and `call` is replayed once. Status 11 becomes
    /// ``HealthVaultConnectionError/reauthorizationRequired(appAuthorizationURL:underlying:)``, status 6
    /// ``HealthVaultConnectionError/reprovisionRequired(underlying:)``; other errors are thrown as they are.
    public func withSession<Result: Sendable>(
        _ call: @Sendable (HealthVaultClient, HealthVaultSessionCredential) async throws -> Result
    ) async throws -> Result {
        guard let state = try currentState() else { throw HealthVaultConnectionError.notProvisioned }
        guard let instance = state.instance else { throw HealthVaultConnectionError.notAuthorized }
        let client = client(platformURL: instance.platformURL)
        let session: HealthVaultSessionCredential
        if let stored = state.session { session = stored } else { session = try await renewedSession(replacing: nil) }
        do {
            return try await mapped { try await call(client, session) }
        } catch let error as HealthVaultError where error.code == .authenticatedSessionTokenExpired {
            log(.info, "session expired; creating a new one")
            let fresh = try await renewedSession(replacing: session)
            return try await mapped { try await call(client, fresh) }
        }
    }

    /// Every person who authorized this app instance, fetched page by page as the sequence is iterated.
    ///
    /// Each page goes through ``withSession(_:)``, so an expired session mid-way is renewed. No page is requested
    /// twice, and an empty page ends the sequence.
    public func authorizedPeople(pageSize: Int? = nil) -> PagedItems<GetAuthorizedPeople.Request, GetAuthorizedPeople.Response, PersonInfo> {
        let first = GetAuthorizedPeople.Request(parameters: .init(numResults: pageSize))
        return PageSequence(
            first: first,
            fetch: { [self] request in try await self.withSession { client, session in try await client.getAuthorizedPeople(request, session: session) } },
            next: { request, page in GetAuthorizedPeople.nextPageRequest(after: page, for: request) }
        ).items { $0.responseResults.personInfo }
    }

    // MARK: - Internals

    private func currentState() throws -> HealthVaultConnectionState? {
        if !loaded {
            state = try configuration.store.readValue(HealthVaultConnectionState.self, for: configuration.storeKey)
            loaded = true
        }
        return state
    }

    /// A session to use instead of `stale`: one another caller already created, or a new one shared by everyone
    /// who asks while it is being created.
    private func renewedSession(replacing stale: HealthVaultSessionCredential?) async throws -> HealthVaultSessionCredential {
        if let current = state?.session, current != stale { return current }
        return try await sessionCreation.run { [self] in try await self.createSession() }
    }

    private func save(_ newState: HealthVaultConnectionState) throws {
        try configuration.store.writeValue(newState, for: configuration.storeKey)
        state = newState
        loaded = true
    }

    /// Creates a session with the application secret and stores it before returning it.
    private func createSession() async throws -> HealthVaultSessionCredential {
        guard let before = try currentState() else { throw HealthVaultConnectionError.notProvisioned }
        guard let instance = before.instance else { throw HealthVaultConnectionError.notAuthorized }
        let response = try await mapped {
            try await client(platformURL: instance.platformURL).createAuthenticatedSessionToken(application: before.application)
        }
        // The connection may have been disconnected or re-provisioned while the request was out.
        guard var latest = state, latest.application == before.application, latest.instance == instance else {
            throw HealthVaultConnectionError.notProvisioned
        }
        let session = HealthVaultSessionCredential(
            token: response.token.value, sharedSecret: response.sharedSecret, personID: latest.session?.personID
        )
        latest.session = session
        try save(latest)
        log(.info, "created a session")
        return session
    }

    /// Runs `call`, turning the statuses that need the user or a new instance into connection errors.
    private func mapped<Result: Sendable>(_ call: () async throws -> Result) async throws -> Result {
        do {
            return try await call()
        } catch let error as HealthVaultError {
            switch error.code.recovery {
            case .reauthorize:
                if let state { throw HealthVaultConnectionError.reauthorizationRequired(appAuthorizationURL: appAuthorizationURL(state), underlying: error) }
                throw error
            case .reprovision where error.code == .invalidApp:
                throw HealthVaultConnectionError.reprovisionRequired(underlying: error)
            default:
                throw error
            }
        }
    }

    private func client(platformURL: URL) -> HealthVaultClient {
        var client = configuration.client
        client.servers.platform = platformURL
        return HealthVaultClient(configuration: client)
    }

    private func createApplicationURL(_ state: HealthVaultConnectionState) -> URL {
        HealthVaultShell(url: configuration.defaultShellURL).createApplication(
            masterApplicationID: state.masterApplicationID,
            applicationCreationToken: state.applicationCreationToken ?? "",
            instanceName: configuration.instanceName ?? state.application.applicationID.wireText,
            isMultiRecordApp: configuration.isMultiRecordApp
        )
    }

    private func appAuthorizationURL(_ state: HealthVaultConnectionState) -> URL {
        HealthVaultShell(url: state.instance?.shellURL ?? configuration.defaultShellURL).authorizeApplication(
            applicationID: state.application.applicationID, isMultiRecordApp: configuration.isMultiRecordApp
        )
    }

    private func log(_ level: LogLevel, _ message: String) {
        configuration.client.logger.log(level, "HealthVault", message)
    }
}
