import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import HealthSignInVital

// The SDK's clients as an app or a service configures them for each in-process server, on `store` (under `storeKey`,
// or the derived key), sending through `transport` (the server's own by default, or a network of several).

extension SMARTTestServer {
    /// The public app `smart-public`.
    func appSession(
        store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
        transport: (any HTTPTransport)? = nil
    ) -> SMARTSession {
        SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL, client: OAuthClientCredentials(clientID: SMARTTestServer.publicClientID),
                    redirectURI: SMARTTestServer.redirectURIs[0]),
                session: OAuthSessionSettings(
                    store: store, storeKey: storeKey, options: ClientOptions(transport: transport ?? self.transport),
                    clock: clock)))
    }

    /// The backend service `smart-backend`, signing with the SMART IG's example key.
    func backendClient(
        store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
        transport: (any HTTPTransport)? = nil, scope: String = "system/*.rs"
    ) throws -> SMARTBackendClient {
        SMARTBackendClient(
            configuration: .init(
                clientID: SMARTTestServer.backendClientID,
                signer: try ClientAssertionSigner(key: SMARTTestServer.backendPrivateKey, algorithm: .es384),
                scope: scope, fhirBaseURL: fhirBaseURL, store: store, storeKey: storeKey,
                options: ClientOptions(transport: transport ?? self.transport)))
    }
}

extension KoppeltaalTestServer {
    /// The game `RANJKA`, launched by a portal's activation code.
    func gameSession(
        store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
        transport: (any HTTPTransport)? = nil
    ) -> KoppeltaalSession {
        KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL,
                    client: OAuthClientCredentials(
                        clientID: KoppeltaalTestServer.gameClientID, secret: KoppeltaalTestServer.gameClientSecret,
                        method: .unencodedBasic),
                    redirectURI: KoppeltaalTestServer.redirectURIs[0]),
                session: OAuthSessionSettings(
                    store: store, storeKey: storeKey, options: ClientOptions(transport: transport ?? self.transport))))
    }
}

extension VitalTestServer {
    /// An app whose every environment is this server.
    func appSession(
        store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
        transport: (any HTTPTransport)? = nil, expectedTeamID: String? = nil
    ) -> VitalSession {
        VitalSession(
            configuration: .init(
                store: store, storeKey: storeKey, hosts: .all(VitalHosts(api: apiURL, auth: authURL)),
                transport: transport ?? self.transport, expectedTeamID: expectedTeamID))
    }
}

extension HealthVaultTestServer {
    /// An app whose default instance is this server's instance `1`.
    func connection(
        store: any CredentialStore = InMemoryCredentialStore(), storeKey: String? = nil,
        transport: (any HTTPTransport)? = nil
    ) -> HealthVaultConnection {
        HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: platformURL(), defaultShellURL: shellURL(), store: store, storeKey: storeKey,
                client: .init(transport: transport ?? self.transport)))
    }
}
