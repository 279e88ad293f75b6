import Foundation
import HealthSignInCore

/// What a HealthVault session is made from and for: the child application's credential, the instance the user
/// authorized in, and the session, once created.
struct HealthVaultAuthorization: Sendable, Equatable {
    var application: HealthVaultApplicationCredential
    var instance: HealthVaultInstance
    var session: HealthVaultSessionCredential?
}

/// HealthVault's rules for the credential lifecycle: a session is created (CreateAuthenticatedSessionToken with the
/// application's signature) when there is none and when a call answers status 65; status 11 needs the user at
/// APPAUTH and status 6 a new provisioning, and neither erases anything.
struct HealthVaultCredentialPolicy: CredentialPolicy {
    let configuration: HealthVaultConnection.Configuration

    func credential(in state: HealthVaultConnectionState) -> HealthVaultAuthorization? {
        state.instance.map {
            HealthVaultAuthorization(application: state.application, instance: $0, session: state.session)
        }
    }

    func state(
        _ state: HealthVaultConnectionState, replacing authorization: HealthVaultAuthorization
    ) -> HealthVaultConnectionState {
        var state = state
        state.session = authorization.session
        return state
    }

    func missingCredentialError(in state: HealthVaultConnectionState?) -> any Error {
        state == nil ? HealthVaultConnectionError.notProvisioned : HealthVaultConnectionError.notAuthorized
    }

    /// The default instance's platform, and the master application the instance was created under.
    func registration(of state: HealthVaultConnectionState) -> CredentialRegistration? {
        configuration.registration(masterApplicationID: state.masterApplicationID)
    }

    /// A connection at the same default platform, under any master application (the configuration names none).
    func accepts(_ registration: CredentialRegistration) -> Bool {
        let ours = configuration.registration(masterApplicationID: nil)
        return registration.family == ours.family && registration.server == ours.server
    }

    func needsRefresh(_ authorization: HealthVaultAuthorization, at now: Date) -> Bool {
        authorization.session == nil
    }

    func refresh(
        _ authorization: HealthVaultAuthorization, lease: CredentialLease
    ) async throws -> HealthVaultAuthorization {
        let client = configuration.client(
            platformURL: authorization.instance.platformURL,
            transport: lease.guarding(configuration.client.options.transport))
        // .NET marks a multi-record app on the session request, and leaves the attribute out otherwise.
        let appID = CreateAuthenticatedSessionToken.Request.AuthInfo.AppID(
            isMultiRecordApp: configuration.isMultiRecordApp ? true : nil)
        let response = try await client.createAuthenticatedSessionToken(
            .init(authInfo: .init(appID: appID)), application: authorization.application)
        var renewed = authorization
        renewed.session = HealthVaultSessionCredential(
            token: response.token.value, sharedSecret: response.sharedSecret, personID: authorization.session?.personID
        )
        return renewed
    }

    func refusal(
        of authorization: HealthVaultAuthorization, error: any Error
    ) -> CredentialRefusal<HealthVaultAuthorization> {
        .keep(configuration.connectionError(for: error, authorization: authorization))
    }
}

extension HealthVaultConnection.Configuration {
    /// A client for the instance at `platformURL`, sending through `transport`.
    func client(platformURL: URL, transport: any HTTPTransport) -> HealthVaultAPIClient {
        var settings = client
        settings.servers.platform = platformURL
        settings.options.transport = transport
        return HealthVaultAPIClient(configuration: settings)
    }

    /// The APPAUTH page where the user authorizes (more) records for the application.
    func appAuthorizationURL(applicationID: UUID, shellURL: URL?) -> URL {
        HealthVaultShell(url: shellURL ?? defaultShellURL).authorizeApplication(
            applicationID: applicationID, isMultiRecordApp: isMultiRecordApp)
    }

    /// The statuses that need the user (11) or a new instance (6) as connection errors; other errors as they are.
    func connectionError(for error: any Error, authorization: HealthVaultAuthorization) -> any Error {
        guard let error = error as? HealthVaultError else { return error }
        switch error.recovery {
        case .reauthorize:
            let page = appAuthorizationURL(
                applicationID: authorization.application.applicationID, shellURL: authorization.instance.shellURL)
            return HealthVaultConnectionError.reauthorizationRequired(appAuthorizationURL: page, underlying: error)
        case .reprovision where error.code == .invalidApp:
            return HealthVaultConnectionError.reprovisionRequired(underlying: error)
        default:
            return error
        }
    }
}
