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
    /// The browser stops at the app's action URL when the configuration has one, which a system browser session
    /// (`WebAuthenticationBrowser`) needs: it listens for the action URL's own scheme, such as `myapp`. Without one,
    /// Shell ends on its completion page, which only a browser that can stop at an https page can return. That page
    /// is on the Shell of the instance that holds the user's account, which need not be the one the page opened
    /// (instance bounce): the browser stops at it on the default Shell, the instance's Shell, or any Shell the
    /// topology names (GetServiceDefinition, read before the page opens), and on no other host.
    ///
    /// - Throws: what ``completeAuthorization(redirect:)`` throws, and `AuthorizationBrowserError`
    ///   (`cancelled` when the user closes the page; the instance stays provisioned, so the page can be opened again).
    @discardableResult
    public func authorize(_ page: URL, with browser: any AuthorizationBrowser) async throws -> ShellCompletion {
        let callback = await shellCallback()
        return try await completeAuthorization(redirect: try await browser.authorize(page, callback: callback))
    }

    /// Finishes a Shell task from the URL the browser reached: the completion page or the app's action URL.
    ///
    /// The completion page is accepted only over https from the default Shell, the instance's Shell or a Shell the
    /// topology names (compared by scheme, host and port; the topology is read again once when it names none). On
    /// `AppAuthSuccess` for a new instance, the instance id is resolved to its URLs (GetServiceDefinition), a session
    /// is created there, and the people who authorized it are learned. A return for the instance already connected
    /// (an APPAUTH page, which may name neither the application nor the instance, or the same return again) learns
    /// the people again, since the user may have changed the records.
    /// Any other target spends the creation token, so ``provision(masterAppID:)`` fetches a fresh one. A
    /// ``disconnect(releasingRecords:)`` called meanwhile runs after this has finished.
    ///
    /// - Throws: ``ShellRedirectError`` for a URL that is not a completion of this instance,
    ///   ``HealthVaultConnectionError/authorizationRejected`` when the user declined.
    @discardableResult
    public func completeAuthorization(redirect: URL) async throws -> ShellCompletion {
        try await session.transition { transition in
            guard var state = try await transition.current() else { throw HealthVaultConnectionError.notProvisioned }
            switch self.configuration.shellReturns.kind(of: redirect) {
            case .actionURL?: break
            case .completionPage?: try await self.checkShellHost(of: redirect, in: state)
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
            let found = try await self.topology.instance(instanceID, of: state.masterApplicationID)
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

    /// Checks that a completion page is on a Shell this connection trusts: the default Shell, the instance's, or one
    /// the topology names.
    ///
    /// - Throws: ``ShellRedirectError/untrustedHost(_:)``; `ConfigurationError.insecureURL` for a URL the URL policy
    ///   refuses.
    private func checkShellHost(of url: URL, in state: HealthVaultConnectionState) async throws {
        try configuration.client.options.urlPolicy.check(url)
        if knownShells(in: state).contains(url) { return }
        guard try await topology.hasShell(at: url, of: state.masterApplicationID) else {
            throw ShellRedirectError.untrustedHost(url.host)
        }
    }

    /// The Shells known without asking HealthVault: the default one, and the instance's.
    private func knownShells(in state: HealthVaultConnectionState?) -> ShellOrigins {
        ShellOrigins([configuration.defaultShellURL, state?.instance?.shellURL].compactMap { $0 })
    }

    /// Where a browser stops a Shell page: the action URL, or a completion page on a trusted Shell (see
    /// ``authorize(_:with:)``) that the URL policy allows. The topology is read first; when it cannot be read, the
    /// default Shell and the instance's are trusted alone, and ``completeAuthorization(redirect:)`` tries it again.
    func shellCallback() async -> AuthorizationCallback {
        let state = try? await session.current()
        var shells = knownShells(in: state)
        if let masterAppID = state?.masterApplicationID {
            do {
                shells = shells.union(ShellOrigins(try await topology.instances(of: masterAppID).map(\.shellURL)))
            } catch {
                log(
                    .warning,
                    "the topology could not be read; the browser stops only on the default and instance Shells")
            }
        }
        let (returns, policy) = (configuration.shellReturns, configuration.client.options.urlPolicy)
        let returnURL =
            configuration.actionURL
            ?? configuration.defaultShellURL.appendingPathComponent("application").appendingPathComponent("complete")
        return AuthorizationCallback(returnURL) { [shells] url in
            switch returns.kind(of: url) {
            case .actionURL?: return true
            case .completionPage?: return shells.contains(url) && (try? policy.check(url)) != nil
            case nil: return false
            }
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
