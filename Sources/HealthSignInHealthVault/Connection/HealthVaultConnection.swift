import Foundation
import HealthSignInCore

/// A HealthVault SODA connection: provisioning the app instance, the Shell hand-off, the session, and every call
/// signed with it.
///
/// ```swift
/// let store = try CredentialStores.secure(service: "app.healthvault")
/// let connection = HealthVaultConnection(configuration: .init(store: store))
/// let shellPage = try await connection.provision(masterAppID: master)      // open it in a web view
/// // …the web view reaches …/application/complete?…
/// try await connection.completeAuthorization(redirect: completionURL)
/// for try await person in connection.authorizedPeople() { print(person.name) }
/// ```
///
/// The connection's state lives in a `CredentialSession`: everything it learns is written to the store before it
/// is used, provisioning, authorization and disconnection run one at a time, and concurrent calls that find the
/// session expired (status 65) share one new session (also with other connections and processes sharing the
/// store), each call being replayed once.
public final class HealthVaultConnection: Sendable {
    /// How the connection reaches HealthVault and where it keeps credentials.
    public struct Configuration: Sendable {
        /// The platform URL of the default instance, used until the user's instance is known.
        public var defaultPlatformURL: URL
        /// The Shell URL of the default instance.
        public var defaultShellURL: URL
        /// Where credentials are kept.
        public var store: any CredentialStore
        /// The key the connection's state is stored under; nil (the default) derives one from the default platform
        /// URL, so that connections to other platforms sharing the store never read it. Give one key to several
        /// connections only when they are configured alike (an app and its extension).
        public var storeKey: String?
        /// How the instance appears to the user in HealthVault, e.g. the device's name. Nil uses the child app id.
        public var instanceName: String?
        /// Whether the user may authorize several records.
        public var isMultiRecordApp: Bool
        /// The action URL configured for the app in HealthVault, when it has one: Shell returns there (it may be a
        /// custom scheme) instead of its own completion page.
        public var actionURL: URL?
        /// Transport, clock, header settings, timeout and logging for every call.
        public var client: HealthVaultAPIClient.Configuration

        /// Creates a configuration; the URLs default to HealthVault's US pre-production environment.
        public init(
            defaultPlatformURL: URL = URL(string: "https://platform.healthvault-ppe.com/platform/wildcat.ashx")!,
            defaultShellURL: URL = URL(string: "https://account.healthvault-ppe.com")!,
            store: any CredentialStore,
            storeKey: String? = nil,
            instanceName: String? = nil,
            isMultiRecordApp: Bool = true,
            actionURL: URL? = nil,
            client: HealthVaultAPIClient.Configuration = .init()
        ) {
            self.defaultPlatformURL = defaultPlatformURL
            self.defaultShellURL = defaultShellURL
            self.store = store
            self.storeKey = storeKey
            self.instanceName = instanceName
            self.isMultiRecordApp = isMultiRecordApp
            self.actionURL = actionURL
            self.client = client
        }

        /// Which URLs end a Shell task.
        var shellReturns: ShellReturnMatcher { ShellReturnMatcher(actionURL: actionURL) }

        /// What the state is stored with: the default platform, and the master application when known.
        func registration(masterApplicationID: UUID?) -> CredentialRegistration {
            CredentialRegistration(
                family: "HealthVault", server: defaultPlatformURL.absoluteString,
                client: masterApplicationID?.uuidString.lowercased() ?? "")
        }
    }

    /// The configuration.
    public let configuration: Configuration
    let session: CredentialSession<HealthVaultCredentialPolicy>
    /// The provisioning in flight, which concurrent calls join.
    let provisioning = LockedValue<(masterAppID: UUID, run: SharedRun<URL>)?>(nil)
    /// The instances and Shells HealthVault names for the master application, learned once and again when one is
    /// missing.
    let topology: ShellTopology

    /// Creates a connection; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        topology = ShellTopology { masterAppID in
            let client = configuration.client(
                platformURL: configuration.defaultPlatformURL, transport: configuration.client.options.transport)
            let definition = try await client.getServiceDefinition(applicationID: masterAppID)
            return (definition.instances?.instance ?? []).map {
                HealthVaultInstance(id: $0.id, platformURL: $0.platformURL, shellURL: $0.shellURL)
            }
        }
        session = CredentialSession(
            store: configuration.store,
            key: CredentialKey(
                configured: configuration.storeKey, prefix: "healthvault.connection",
                registrations: [configuration.registration(masterApplicationID: nil)]),
            policy: HealthVaultCredentialPolicy(configuration: configuration),
            clock: configuration.client.clock, logger: configuration.client.options.logger, category: "HealthVault"
        )
    }

    /// The key the state is stored under: the configured one, or `healthvault.connection.` and a digest of the
    /// default platform URL. The state is stored with that platform, and one stored for another platform is never
    /// used; when the configured key holds one, the state is kept under the derived key.
    public var storeKey: String { session.key }

    // MARK: - Lifecycle

    /// Where the connection is, from the store. A stored state that cannot be decoded reads as
    /// ``HealthVaultConnectionStatus/notProvisioned``.
    ///
    /// - Throws: the store's error when it cannot be read (e.g. a locked Keychain).
    public func status() async throws -> HealthVaultConnectionStatus {
        status(of: try await session.current())
    }

    /// The status now, then every change: provisioning, authorization, disconnection, an unreadable stored state.
    public func statuses() -> AsyncStream<HealthVaultConnectionStatus> {
        session.statuses { [self] in status(of: $0) }
    }

    /// What happens to the stored state from now on (stored, a new session, erased, found unreadable).
    public func events() -> AsyncStream<CredentialEvent> {
        session.events()
    }

    func status(of state: HealthVaultConnectionState?) -> HealthVaultConnectionStatus {
        guard let state else { return .notProvisioned }
        if let instance = state.instance { return .connected(instance) }
        // Without a creation token the last Shell page was used up: provisioning starts again.
        guard state.applicationCreationToken != nil else { return .notProvisioned }
        return .awaitingAuthorization(createApplicationURL: createApplicationURL(state))
    }

    /// Removes this app instance's authorization from every record the user granted, then forgets everything
    /// stored for this connection: app instance, secrets, instance and session (also a stored state that cannot be
    /// decoded).
    ///
    /// Releasing is best effort, one record at a time, with the usual session renewal: the records are listed again
    /// (the stored list when that fails), and a record that cannot be released (offline, refused) is reported in the
    /// result. The local state is erased in every case, and after this returns no request carries the secrets again.
    /// Without the secrets the records can no longer be released from this device, so call it while online when
    /// you can.
    ///
    /// - Parameter releasingRecords: false forgets the local state only and sends nothing.
    /// - Throws: the store's error when the state cannot be erased.
    @discardableResult
    public func disconnect(releasingRecords: Bool = true) async throws -> HealthVaultDisconnection {
        try await session.transition { transition in
            var outcome = HealthVaultDisconnection.nothingToRelease
            if releasingRecords, let state = try? await transition.current(), state.instance != nil {
                outcome = await self.releaseRecords(knownPeople: state.people)
            }
            try await transition.erase(settlingRefresh: true)
            let (released, unreleased) = (outcome.releasedRecords.count, outcome.unreleasedRecords.count)
            self.log(.info, "disconnected; \(public: released) record(s) released, \(public: unreleased) not")
            return outcome
        }
    }

    private func releaseRecords(knownPeople: [HealthVaultPerson]?) async -> HealthVaultDisconnection {
        let people: [HealthVaultPerson]
        do {
            people = try await session.withCredential { try await self.fetchPeople($0) }
        } catch {
            guard let knownPeople else {
                return HealthVaultDisconnection(releasedRecords: [], unreleasedRecords: [], recordListingError: error)
            }
            people = knownPeople
        }
        var released: [HealthVaultRecordSummary] = []
        var unreleased: [HealthVaultDisconnection.UnreleasedRecord] = []
        for record in Self.records(of: people) {
            do {
                try await HealthVaultRecordCalls(record: record, connection: self).send {
                    try await $0.removeApplicationRecordAuthorization(recordID: $2, session: $1)
                }
                released.append(record)
            } catch let error as HealthVaultError where error.code == .recordAuthorizationDoesNotExist {
                released.append(record)
            } catch {
                unreleased.append(.init(record: record, error: error))
            }
        }
        return HealthVaultDisconnection(
            releasedRecords: released, unreleasedRecords: unreleased, recordListingError: nil)
    }

    // MARK: - Calls

    /// Runs `call` with the current session against the user's instance.
    ///
    /// A session is created first when there is none. When HealthVault answers 65 (session expired), one new
    /// session is created for all callers and `call` is replayed once. Status 11 becomes
    /// ``HealthVaultConnectionError/reauthorizationRequired(appAuthorizationURL:underlying:)``, status 6
    /// ``HealthVaultConnectionError/reprovisionRequired(underlying:)``; other errors are thrown as they are.
    public func withSession<Result: Sendable>(
        _ call: @Sendable (HealthVaultAPIClient, HealthVaultSessionCredential) async throws -> Result
    ) async throws -> Result {
        let configuration = configuration
        return try await session.withCredential { access in
            guard let credential = access.credential.session else { throw HealthVaultConnectionError.notAuthorized }
            let client = configuration.client(
                platformURL: access.credential.instance.platformURL,
                transport: access.lease.guarding(configuration.client.options.transport))
            do {
                return try await call(client, credential)
            } catch {
                throw configuration.connectionError(for: error, authorization: access.credential)
            }
        }
    }

    /// Every person who authorized this app instance, fetched page by page as the sequence is iterated.
    ///
    /// Each page goes through ``withSession(_:)``, so an expired session mid-way is renewed. No page is requested
    /// twice, and an empty page ends the sequence.
    public func authorizedPeople(
        pageSize: Int? = nil
    ) -> PagedItems<GetAuthorizedPeople.Request, GetAuthorizedPeople.Response, PersonInfo> {
        let first = GetAuthorizedPeople.Request(parameters: .init(numResults: pageSize))
        return PageSequence(
            first: first,
            fetch: { [self] request in
                try await self.withSession { client, session in
                    try await client.getAuthorizedPeople(request, session: session)
                }
            },
            next: { request, page in GetAuthorizedPeople.nextPageRequest(after: page, for: request) }
        ).items { $0.responseResults.personInfo }
    }

    // MARK: - People and records

    /// The people who authorized this app instance and their records, as stored; fetched first when not yet known.
    public func people() async throws -> [HealthVaultPerson] {
        if let people = try await session.current()?.people { return people }
        return try await refreshPeople()
    }

    /// Fetches the people who authorized this app instance (every page of GetAuthorizedPeople) and stores them.
    /// The selected record is kept while it is still authorized, otherwise the first record is selected.
    @discardableResult
    public func refreshPeople() async throws -> [HealthVaultPerson] {
        var fetched: [HealthVaultPerson] = []
        for try await person in authorizedPeople() { fetched.append(HealthVaultPerson(person)) }
        let people = fetched
        try await session.transition { transition in
            try await transition.update { state in Self.storing(people, in: state) }
        }
        return people
    }

    /// The record calls use unless they name another one, or nil when no record is authorized.
    public func selectedRecord() async throws -> HealthVaultRecordSummary? {
        let people = try await people()
        let selected = try await session.current()?.selectedRecordID
        return Self.records(of: people).first { $0.id == selected }
    }

    /// Makes `recordID` the record calls use.
    ///
    /// - Throws: ``HealthVaultConnectionError/unknownRecord(_:)`` when no person authorized that record.
    public func selectRecord(_ recordID: UUID) async throws {
        guard Self.records(of: try await people()).contains(where: { $0.id == recordID }) else {
            throw HealthVaultConnectionError.unknownRecord(recordID)
        }
        try await session.transition { transition in
            try await transition.update { state in
                var state = state
                state.selectedRecordID = recordID
                return state
            }
        }
    }

    /// Runs record calls for `recordID` (by default the selected record): every request of `calls` carries
    /// `<record-id>` and the record person's `<offline-person-id>`, and is renewed and sent again on its own when the
    /// session has expired.
    ///
    /// - Throws: ``HealthVaultConnectionError/noRecord`` or ``HealthVaultConnectionError/unknownRecord(_:)``, or what
    ///   `calls` throws.
    public func withRecord<Result: Sendable>(
        _ recordID: UUID? = nil, _ calls: @Sendable (HealthVaultRecordCalls) async throws -> Result
    ) async throws -> Result {
        let records = Self.records(of: try await people())
        let selected = try await session.current()?.selectedRecordID
        guard let wanted = recordID ?? selected else { throw HealthVaultConnectionError.noRecord }
        guard let record = records.first(where: { $0.id == wanted }) else {
            throw HealthVaultConnectionError.unknownRecord(wanted)
        }
        return try await calls(HealthVaultRecordCalls(record: record, connection: self))
    }

    /// Every thing `query` finds in the record `recordID` (by default the selected record), in batches: the first
    /// response's full things, then the things it listed only by key, fetched by key (see ``HealthVaultThingBatches``).
    /// Each request goes through ``withRecord(_:_:)``, so an expired session renews and only the failed batch is sent
    /// again.
    public func things(_ query: GetThings3.QueryGroup, in recordID: UUID? = nil) -> HealthVaultThingBatches {
        HealthVaultThingBatches(
            query: query,
            send: { [self] group in try await withRecord(recordID) { try await $0.resultGroup(of: group) } },
            dropped: { [self] in logUnrequestedThings($0) })
    }

    func fetchPeople(
        _ access: CredentialSession<HealthVaultCredentialPolicy>.Access
    ) async throws -> [HealthVaultPerson] {
        guard let credential = access.credential.session else { throw HealthVaultConnectionError.notAuthorized }
        let client = configuration.client(
            platformURL: access.credential.instance.platformURL,
            transport: access.lease.guarding(configuration.client.options.transport))
        var people: [HealthVaultPerson] = []
        var request: GetAuthorizedPeople.Request? = GetAuthorizedPeople.Request()
        while let next = request {
            let page = try await client.getAuthorizedPeople(next, session: credential)
            people += page.responseResults.personInfo.map(HealthVaultPerson.init)
            request = GetAuthorizedPeople.nextPageRequest(after: page, for: next)
        }
        return people
    }

    private static func records(of people: [HealthVaultPerson]) -> [HealthVaultRecordSummary] {
        people.flatMap(\.records)
    }

    static func storing(
        _ people: [HealthVaultPerson], in state: HealthVaultConnectionState
    ) -> HealthVaultConnectionState {
        var state = state
        state.people = people
        let records = records(of: people)
        if !records.contains(where: { $0.id == state.selectedRecordID }) { state.selectedRecordID = records.first?.id }
        return state
    }

    // MARK: - Internals

    func log(_ level: LogEntry.Level, _ message: LogMessage) {
        configuration.client.options.logger.log(level, "HealthVault", message)
    }

    /// Warns that a GetThings follow-up answer held `count` things it did not ask for, which were dropped; the
    /// things themselves are health data and are not logged.
    func logUnrequestedThings(_ count: Int) {
        log(
            .warning, "a GetThings follow-up answer held \(public: count) thing(s) it did not ask for; they are dropped"
        )
    }
}
