// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInVital

// The code of the README's section on sandboxes and test servers.

func sandboxConfiguration() throws {
    // snippet sandbox
    // `make emulator` serves all four families here; a vendor sandbox or a proxy in front of one is the same code
    // with its https URLs, and then needs no URL policy.
    let server = URL(string: "http://127.0.0.1:8000")!
    let loopback = URLPolicy(allowsInsecureLoopback: true)   // plain http, to this machine only
    let store = InMemoryCredentialStore()

    let healthVault = HealthVaultConnection(configuration: .init(
        defaultPlatformURL: server.appendingPathComponent("hv/1/platform/wildcat.ashx"),
        defaultShellURL: server.appendingPathComponent("hv/shell/1"),
        store: store, client: .init(urlPolicy: loopback)))

    let portal = KoppeltaalBackend(configuration: .init(
        launchURL: server.appendingPathComponent("kt/OAuth2/Koppeltaal"),
        credentials: BasicCredentials(username: "portal", password: "portal-secret"), urlPolicy: loopback))
    let koppeltaal = KoppeltaalSession(configuration: .init(
        registration: OAuthRegistration(
            baseURL: server.appendingPathComponent("kt/FHIR/Koppeltaal"),
            client: OAuthClientCredentials(clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
            redirectURI: "http://127.0.0.1/after-auth"),
        session: OAuthSessionSettings(store: store, options: ClientOptions(urlPolicy: loopback))))

    // Vital's hosts go to both sides: the backend mints sign-in tokens on `api`, the app exchanges them on `auth`.
    let vitalHosts = VitalHostMap.all(VitalHosts(
        api: server.appendingPathComponent("vital/api"), auth: server.appendingPathComponent("vital/auth")))
    let vitalBackend = VitalBackend(configuration: .init(
        apiKey: APIKey("sk_us_emulator"), environment: .sandboxUS, hosts: vitalHosts, urlPolicy: loopback))
    let vital = VitalSession(configuration: .init(store: store, hosts: vitalHosts, urlPolicy: loopback))

    let smart = SMARTSession(configuration: .init(
        registration: OAuthRegistration(
            baseURL: server.appendingPathComponent("smart/fhir"),
            client: OAuthClientCredentials(clientID: "smart-public"), redirectURI: "http://127.0.0.1/smart/callback"),
        session: OAuthSessionSettings(store: store, options: ClientOptions(urlPolicy: loopback))))
    // end snippet
    _ = (healthVault, portal, koppeltaal, vitalBackend, vital, smart)
}

// The same, one family at a time, for each family's getting-started article.

func sandboxHealthVault() {
    // snippet sandbox-healthvault
    // `make emulator` serves HealthVault here; the default URLs are HealthVault's US pre-production environment.
    let server = URL(string: "http://127.0.0.1:8000")!
    let connection = HealthVaultConnection(configuration: .init(
        defaultPlatformURL: server.appendingPathComponent("hv/1/platform/wildcat.ashx"),
        defaultShellURL: server.appendingPathComponent("hv/shell/1"),
        store: InMemoryCredentialStore(),
        client: .init(urlPolicy: URLPolicy(allowsInsecureLoopback: true))))   // plain http, to this machine only
    // end snippet
    _ = connection
}

func sandboxKoppeltaal() {
    // snippet sandbox-koppeltaal
    // `make emulator` serves Koppeltaal here; a domain's acceptance server is the same with its https URLs.
    let server = URL(string: "http://127.0.0.1:8000")!
    let loopback = URLPolicy(allowsInsecureLoopback: true)   // plain http, to this machine only
    let portal = KoppeltaalBackend(configuration: .init(
        launchURL: server.appendingPathComponent("kt/OAuth2/Koppeltaal"),
        credentials: BasicCredentials(username: "portal", password: "portal-secret"), urlPolicy: loopback))
    let session = KoppeltaalSession(configuration: .init(
        registration: OAuthRegistration(
            baseURL: server.appendingPathComponent("kt/FHIR/Koppeltaal"),
            client: OAuthClientCredentials(clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
            redirectURI: "http://127.0.0.1/after-auth"),
        session: OAuthSessionSettings(store: InMemoryCredentialStore(), options: ClientOptions(urlPolicy: loopback))))
    // end snippet
    _ = (portal, session)
}

func sandboxVital() {
    // snippet sandbox-vital
    // `make emulator` serves Junction's API and auth hosts here; both sides take the same hosts.
    let server = URL(string: "http://127.0.0.1:8000")!
    let loopback = URLPolicy(allowsInsecureLoopback: true)   // plain http, to this machine only
    let hosts = VitalHostMap.all(VitalHosts(
        api: server.appendingPathComponent("vital/api"), auth: server.appendingPathComponent("vital/auth")))
    let backend = VitalBackend(configuration: .init(
        apiKey: APIKey("sk_us_emulator"), environment: .sandboxUS, hosts: hosts, urlPolicy: loopback))
    let vital = VitalSession(configuration: .init(store: InMemoryCredentialStore(), hosts: hosts, urlPolicy: loopback))
    // end snippet
    _ = (backend, vital)
}

func sandboxSMART() {
    // snippet sandbox-smart
    // `make emulator` serves a SMART EHR here; https://launch.smarthealthit.org is a public one.
    let server = URL(string: "http://127.0.0.1:8000")!
    let session = SMARTSession(configuration: .init(
        registration: OAuthRegistration(
            baseURL: server.appendingPathComponent("smart/fhir"),
            client: OAuthClientCredentials(clientID: "smart-public"), redirectURI: "http://127.0.0.1/smart/callback"),
        session: OAuthSessionSettings(
            store: InMemoryCredentialStore(),
            options: ClientOptions(urlPolicy: URLPolicy(allowsInsecureLoopback: true)))))   // plain http, this machine
    // end snippet
    _ = session
}
