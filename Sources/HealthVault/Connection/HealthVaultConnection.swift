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
    private let session: CredentialSession<HealthVaultCredentialPolicy>

    /// Creates a connection; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        session = CredentialSession(
            store: configuration.store, key: configuration.storeKey,
            policy: HealthVaultCredentialPolicy(configuration: configuration),
            clock: configuration.client.clock, logger: configuration.client.logger, category: "HealthVault"
        )
    }

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

    private func status(of state: HealthVaultConnectionState?) -> HealthVaultConnectionStatus {
        guard let state else { return .notProvisioned }
        if let instance = state.instance { return .connected(instance) }
        return .awaitingAuthorization(createApplicationURL: createApplicationURL(state))
    }

    /// Creates this app's instance under the master application and returns the Shell page the user must open.
    ///
    /// The child application id, its shared secret and the creation token are stored before this returns. While
    /// the user has not finished the Shell page, calling it again (also while a first call is still running) returns
    /// the same page without a new instance. A stored state that cannot be decoded is replaced.
    ///
    /// - Throws: ``HealthVaultConnectionError/alreadyConnected`` when the instance is already authorized.
    public func provision(masterAppID: UUID) async throws -> URL {
        try await session.transition { transition in
            if let state = try await transition.current() {
                guard state.instance == nil else { throw HealthVaultConnectionError.alreadyConnected }
                if state.masterApplicationID == masterAppID, state.applicationCreationToken != nil {
                    return self.createApplicationURL(state)
                }
            }
            let client = self.configuration.client(
                platformURL: self.configuration.defaultPlatformURL, transport: self.configuration.client.transport)
            let created = try await client.newApplicationCreationInfo(applicationID: masterAppID)
            let state = HealthVaultConnectionState(
                masterApplicationID: masterAppID,
                application: HealthVaultApplicationCredential(
                    applicationID: created.appID, sharedSecret: created.sharedSecret),
                applicationCreationToken: created.appToken
            )
            try await transition.store(state)
            self.log(.info, "provisioned app instance \(created.appID.wireText)")
            return self.createApplicationURL(state)
        }
    }

    /// Finishes the Shell hand-off from the completion URL the browser reached.
    ///
    /// On `AppAuthSuccess` the instance id is resolved to its URLs (GetServiceDefinition), a session is created
    /// against that instance, and both are stored. Other targets are returned as they are and change nothing. A
    /// ``disconnect()`` called meanwhile runs after this has finished, and erases what it stored. The same return
    /// for an instance already authorized changes nothing.
    ///
    /// - Throws: ``ShellRedirectError`` for a URL that is not this instance's completion page,
    ///   ``HealthVaultConnectionError/authorizationRejected`` when the user declined.
    @discardableResult
    public func completeAuthorization(redirect: URL) async throws -> ShellCompletion {
        try await session.transition { transition in
            guard var state = try await transition.current() else { throw HealthVaultConnectionError.notProvisioned }
            let completion = try ShellCompletion(
                redirect: redirect, expectedApplicationID: state.application.applicationID)
            switch completion.target {
            case .appAuthSuccess: break
            case .appAuthReject: throw HealthVaultConnectionError.authorizationRejected
            default: return completion
            }
            let instanceID = completion.instanceID ?? ""
            // The same return delivered twice (a reloaded page) keeps the session it already opened.
            if let instance = state.instance, instance.id.caseInsensitiveCompare(instanceID) == .orderedSame {
                return completion
            }
            let definition = try await self.configuration.client(
                platformURL: self.configuration.defaultPlatformURL, transport: self.configuration.client.transport
            )
            .getServiceDefinition(applicationID: state.masterApplicationID)
            guard
                let found = definition.instances?.instance.first(where: {
                    $0.id.caseInsensitiveCompare(instanceID) == .orderedSame
                })
            else {
                throw HealthVaultConnectionError.unknownInstance(instanceID)
            }
            state.instance = HealthVaultInstance(id: found.id, platformURL: found.platformURL, shellURL: found.shellURL)
            state.applicationCreationToken = nil
            state.session = nil
            try await transition.store(state)
            self.log(.info, "authorized in instance \(found.id)")
            let access = try await self.session.access()
            // Learning the people now saves a round trip before the first record call; when it fails, the
            // authorization still stands and ``refreshPeople()`` fetches them later.
            if let people = try? await self.fetchPeople(access) {
                try await transition.update { state in Self.storing(people, in: state) }
            }
            return completion
        }
    }

    /// The APPAUTH page where the user can authorize (more) records for this instance.
    public func appAuthorizationURL() async throws -> URL {
        guard let state = try await session.current() else { throw HealthVaultConnectionError.notProvisioned }
        return configuration.appAuthorizationURL(
            applicationID: state.application.applicationID, shellURL: state.instance?.shellURL)
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
            self.log(.info, "disconnected; \(released) record(s) released, \(unreleased) not")
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
        _ call: @Sendable (HealthVaultClient, HealthVaultSessionCredential) async throws -> Result
    ) async throws -> Result {
        let configuration = configuration
        return try await session.withCredential { access in
            guard let credential = access.credential.session else { throw HealthVaultConnectionError.notAuthorized }
            let client = configuration.client(
                platformURL: access.credential.instance.platformURL,
                transport: access.lease.guarding(configuration.client.transport))
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

    private func fetchPeople(
        _ access: CredentialSession<HealthVaultCredentialPolicy>.Access
    ) async throws -> [HealthVaultPerson] {
        guard let credential = access.credential.session else { throw HealthVaultConnectionError.notAuthorized }
        let client = configuration.client(
            platformURL: access.credential.instance.platformURL,
            transport: access.lease.guarding(configuration.client.transport))
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

    private static func storing(
        _ people: [HealthVaultPerson], in state: HealthVaultConnectionState
    ) -> HealthVaultConnectionState {
        var state = state
        state.people = people
        let records = records(of: people)
        if !records.contains(where: { $0.id == state.selectedRecordID }) { state.selectedRecordID = records.first?.id }
        return state
    }

    // MARK: - Internals

    private func createApplicationURL(_ state: HealthVaultConnectionState) -> URL {
        HealthVaultShell(url: configuration.defaultShellURL).createApplication(
            masterApplicationID: state.masterApplicationID,
            applicationCreationToken: state.applicationCreationToken ?? "",
            instanceName: configuration.instanceName ?? state.application.applicationID.wireText,
            isMultiRecordApp: configuration.isMultiRecordApp
        )
    }

    private func log(_ level: LogLevel, _ message: String) {
        configuration.client.logger.log(level, "HealthVault", message)
    }
}
