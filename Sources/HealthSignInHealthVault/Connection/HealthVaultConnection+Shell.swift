import Foundation
import HealthSignInCore

extension HealthVaultConnection {
    /// Creates a new app instance under the master application and returns the Shell page the user must open.
    ///
    /// Each call that is not connected yet creates a fresh instance with a fresh single-use creation token, because
    /// an earlier page may have been rejected, abandoned or used without its completion reaching the app; calls made
    /// while one is running share its page. The child application id, its shared secret and the creation token are
    /// stored before this returns. A stored state that cannot be decoded is replaced.
    ///
    /// - Throws: ``HealthVaultConnectionError/alreadyConnected`` when the instance is already authorized,
    ///   `ConfigurationError.insecureURL(host:)` when the Shell or platform URL is not https.
    public func provision(masterAppID: UUID) async throws -> URL {
        let run = provisioning.withValue { flight -> SharedRun<URL> in
            if let flight, flight.masterAppID == masterAppID, !flight.run.isFinished { return flight.run }
            let run = SharedRun { [self] in try await self.provisionInstance(masterAppID: masterAppID) }
            flight = (masterAppID, run)
            return run
        }
        return try await run.value()
    }

    private func provisionInstance(masterAppID: UUID) async throws -> URL {
        try configuration.client.options.urlPolicy.check(configuration.defaultShellURL)
        return try await session.transition { transition in
            guard try await transition.current()?.instance == nil else {
                throw HealthVaultConnectionError.alreadyConnected
            }
            let created = try await self.defaultClient().newApplicationCreationInfo(applicationID: masterAppID)
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

    /// Runs a Shell page (from ``provision(masterAppID:)`` or a Shell URL of this instance) in `browser`, then
    /// ``completeAuthorization(redirect:)`` with where it returned.
    ///
    /// The browser returns at the app's action URL when the configuration has one, which a system browser session
    /// (`WebAuthenticationBrowser`) needs: it listens for the action URL's own scheme, such as `myapp`. Without one,
    /// Shell ends on its completion page, which only a browser that can stop at an https page can return.
    ///
    /// - Throws: what ``completeAuthorization(redirect:)`` throws, and `AuthorizationBrowserError`
    ///   (`cancelled` when the user closes the page; the instance stays provisioned, so the page can be opened again).
    @discardableResult
    public func authorize(_ page: URL, with browser: any AuthorizationBrowser) async throws -> ShellCompletion {
        let returnURL =
            configuration.actionURL
            ?? configuration.defaultShellURL.appendingPathComponent("application").appendingPathComponent("complete")
        return try await completeAuthorization(
            redirect: try await browser.authorize(page, callback: AuthorizationCallback(returnURL)))
    }

    /// Finishes a Shell task from the URL the browser reached: the completion page or the app's action URL.
    ///
    /// The completion page is accepted only over https from the default Shell host, the instance's Shell host or a
    /// Shell host of the topology. On `AppAuthSuccess` for a new instance, the instance id is resolved to its URLs
    /// (GetServiceDefinition), a session is created there, and the people who authorized it are learned. A return
    /// for the instance already connected (an APPAUTH page, which may name neither the application nor the
    /// instance, or the same return again) learns the people again, since the user may have changed the records.
    /// Any other target spends the creation token, so ``provision(masterAppID:)`` fetches a fresh one. A
    /// ``disconnect(releasingRecords:)`` called meanwhile runs after this has finished.
    ///
    /// - Throws: ``ShellRedirectError`` for a URL that is not a completion of this instance,
    ///   ``HealthVaultConnectionError/authorizationRejected`` when the user declined.
    @discardableResult
    public func completeAuthorization(redirect: URL) async throws -> ShellCompletion {
        try await session.transition { transition in
            guard var state = try await transition.current() else { throw HealthVaultConnectionError.notProvisioned }
            var topology = Topology(connection: self, masterAppID: state.masterApplicationID)
            switch self.configuration.shellReturns.kind(of: redirect) {
            case .actionURL?: break
            case .completionPage?: try await self.checkShellHost(of: redirect, in: state, topology: &topology)
            case nil: throw ShellRedirectError.notACompletionPage(path: redirect.path)
            }
            let completion = try ShellCompletion(
                redirect: redirect, expectedApplicationID: state.application.applicationID)
            guard completion.target == .appAuthSuccess else {
                if state.instance == nil, state.applicationCreationToken != nil {
                    try await transition.update { state in
                        var state = state
                        state.applicationCreationToken = nil
                        return state
                    }
                }
                if completion.target == .appAuthReject { throw HealthVaultConnectionError.authorizationRejected }
                return completion
            }
            guard let instanceID = completion.instanceID ?? state.instance?.id else {
                throw ShellRedirectError.missingParameter("instanceid")
            }
            if let instance = state.instance, instance.id.caseInsensitiveCompare(instanceID) == .orderedSame {
                try await self.learnPeople(in: transition)
                return completion
            }
            let found = try await topology.instance(instanceID)
            try self.configuration.client.options.urlPolicy.check(found.platformURL)
            try self.configuration.client.options.urlPolicy.check(found.shellURL)
            state.instance = found
            state.applicationCreationToken = nil
            state.session = nil
            try await transition.store(state)
            self.log(.info, "authorized in instance \(found.id)")
            try await self.learnPeople(in: transition)
            return completion
        }
    }

    /// What a web view showing a Shell page should do with the URL it is about to load: go on, stop because the
    /// Shell task completed (``completeAuthorization(redirect:)`` has run), or stop because it failed.
    ///
    /// ```swift
    /// let navigation = await connection.shellNavigation(to: action.request.url)
    /// if let outcome = navigation.outcome { finish(outcome) }
    /// return navigation.allowsLoading ? .allow : .cancel
    /// ```
    ///
    /// Completion pages and the action URL complete; other `http` and `https` pages must satisfy the URL policy;
    /// other schemes (`about:`, `data:`) load as the web view decides.
    public func shellNavigation(to url: URL?) async -> ShellNavigation {
        guard let url else { return .continue }
        if configuration.shellReturns.kind(of: url) != nil {
            do {
                return .completed(try await completeAuthorization(redirect: url))
            } catch {
                return .failed(error)
            }
        }
        guard ["http", "https"].contains(url.scheme?.lowercased()) else { return .continue }
        do {
            try configuration.client.options.urlPolicy.check(url)
            return .continue
        } catch {
            return .failed(error)
        }
    }

    /// The APPAUTH page where the user can authorize (more) records for this instance.
    public func appAuthorizationURL() async throws -> URL {
        guard let state = try await session.current() else { throw HealthVaultConnectionError.notProvisioned }
        return configuration.appAuthorizationURL(
            applicationID: state.application.applicationID, shellURL: state.instance?.shellURL)
    }

    // MARK: - Internals

    private func checkShellHost(
        of url: URL, in state: HealthVaultConnectionState, topology: inout Topology
    ) async throws {
        try configuration.client.options.urlPolicy.check(url)
        let host = url.host?.lowercased()
        let known = [configuration.defaultShellURL, state.instance?.shellURL].compactMap { $0?.host?.lowercased() }
        if let host, known.contains(host) { return }
        guard let host, try await topology.shellHosts().contains(host) else {
            throw ShellRedirectError.untrustedHost(url.host)
        }
    }

    /// Opens a session when there is none (its errors, such as a refused signing time, are the caller's), then
    /// learns the people; when only that fails the return still stands, and ``people()`` or ``refreshPeople()``
    /// fetch them later.
    private func learnPeople(in transition: CredentialTransition<HealthVaultCredentialPolicy>) async throws {
        _ = try await session.access()
        guard let people = try? await session.withCredential({ try await self.fetchPeople($0) }) else { return }
        try await transition.update { state in Self.storing(people, in: state) }
    }

    func defaultClient() -> HealthVaultAPIClient {
        configuration.client(
            platformURL: configuration.defaultPlatformURL, transport: configuration.client.options.transport)
    }

    func createApplicationURL(_ state: HealthVaultConnectionState) -> URL {
        HealthVaultShell(url: configuration.defaultShellURL).createApplication(
            masterApplicationID: state.masterApplicationID,
            applicationCreationToken: state.applicationCreationToken ?? "",
            instanceName: configuration.instanceName ?? state.application.applicationID.wireText,
            isMultiRecordApp: configuration.isMultiRecordApp
        )
    }
}

/// The HealthVault topology (GetServiceDefinition), fetched at most once per Shell return.
private struct Topology {
    let connection: HealthVaultConnection
    let masterAppID: UUID
    private var instances: [HealthVaultInstance]?

    init(connection: HealthVaultConnection, masterAppID: UUID) {
        self.connection = connection
        self.masterAppID = masterAppID
    }

    mutating func all() async throws -> [HealthVaultInstance] {
        if let instances { return instances }
        let definition = try await connection.defaultClient().getServiceDefinition(applicationID: masterAppID)
        let fetched = (definition.instances?.instance ?? []).map {
            HealthVaultInstance(id: $0.id, platformURL: $0.platformURL, shellURL: $0.shellURL)
        }
        instances = fetched
        return fetched
    }

    mutating func shellHosts() async throws -> [String] {
        try await all().compactMap { $0.shellURL.host?.lowercased() }
    }

    mutating func instance(_ id: String) async throws -> HealthVaultInstance {
        guard let found = try await all().first(where: { $0.id.caseInsensitiveCompare(id) == .orderedSame }) else {
            throw HealthVaultConnectionError.unknownInstance(id)
        }
        return found
    }
}
