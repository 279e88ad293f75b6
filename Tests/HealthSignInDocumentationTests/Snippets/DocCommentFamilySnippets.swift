// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInVital

// The examples in the doc comments of the families' sessions, connections and backends.

func healthVaultConnectionExample(master: UUID, completionURL: URL) async throws {
    // snippet doc-healthvault-connection
    let store = try CredentialStores.secure(service: "app.healthvault")
    let connection = HealthVaultConnection(configuration: .init(store: store))
    let shellPage = try await connection.provision(masterAppID: master)      // open it in a web view
    // …the web view reaches …/application/complete?…
    try await connection.completeAuthorization(redirect: completionURL)
    for try await person in connection.authorizedPeople() { print(person.name) }
    // end snippet
    _ = shellPage
}

func koppeltaalSessionExample(secret: String, query: FormFields) async throws {
    // snippet doc-koppeltaal-session
    let session = KoppeltaalSession(configuration: .init(
        fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
        clientID: "RANJKA", clientSecret: secret,
        redirectURI: "ranjka://after-auth",
        store: try CredentialStores.secure(service: "app.koppeltaal")
    ))
    let context = try await session.activate(code: "593740")
    let bundle = try await session.fhir(ResourcePath("MessageHeader", "_search"), query: query)
    // end snippet
    _ = (context, bundle)
}

func signInErrorExample(session: SMARTSession, url: URL, show: (String) -> Void) async throws {
    // snippet doc-sign-in-error
    do {
        _ = try await session.completeAuthorization(redirectURL: url)
    } catch let error as SignInError where error.code == .authorizationDenied {
        show(error.serverError?.body.errorDescription ?? error.description)
    }
    // end snippet
}

func resourcePathExample(context: SMARTLaunchContext) throws {
    // snippet doc-resource-path
    let patient = try ResourcePath.fhir("Patient", id: context.patient)     // Patient/123
    let search = try ResourcePath("Observation")                            // a search is asked for by name
    let history = try ResourcePath("Patient", "123", "_history")
    // end snippet
    _ = (patient, search, history)
}

func smartBackendExample(privateKey: JSONWebKey) async throws {
    // snippet doc-smart-backend-client
    let backend = SMARTBackendClient(configuration: .init(
        clientID: "my-service", signer: try ClientAssertionSigner(key: privateKey, algorithm: .es384),
        scope: "system/Patient.rs system/Observation.rs",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!))
    let bundle = try await backend.fhir(.fhir("Patient"))
    // end snippet
    _ = bundle
}

func smartSessionExample(browser: any AuthorizationBrowser) async throws {
    // snippet doc-smart-session
    let session = SMARTSession(configuration: .init(
        clientID: "my-app", redirectURI: "myapp://smart/callback",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
        store: try CredentialStores.secure(service: "app.smart")))
    let context = try await session.authorize(with: browser)
    let patient = try await session.fhir(.fhir("Patient", id: context.patient))
    // end snippet
    _ = patient
}

func vitalBackendExample(teamKey: String, user: (id: String, name: String)) async throws -> [String: String] {
    // snippet doc-vital-backend
    let vital = VitalBackend(configuration: .init(apiKey: APIKey(teamKey), environment: .sandboxUS))
    let grant = try await vital.signInToken(forClientUserID: user.id)
    return ["sign_in_token": grant.signInToken]
    // end snippet
}

func vitalSessionExample(myBackend: (vitalSignInToken: @Sendable () async throws -> String, name: String)) async throws {
    // snippet doc-vital-session
    let vital = VitalSession(configuration: .init(store: try CredentialStores.secure(service: "com.example.vital")))
    if try await vital.status.isEmpty {
        try await vital.signIn(token: try await myBackend.vitalSignInToken())
    }
    let providers = try await vital.connectedProviders()
    // end snippet
    _ = providers
}
