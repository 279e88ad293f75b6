// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInCore

// The code of the README's Koppeltaal quick start and of the Koppeltaal getting-started article.

func koppeltaalQuickStart() async throws {
    // snippet koppeltaal-quick-start
    // Backend: application credentials (MobileLaunch and FHIR)
    let portalPassword = ProcessInfo.processInfo.environment["KOPPELTAAL_PORTAL_PASSWORD"] ?? ""
    let patient = "https://ggz.koppeltaal.nl/FHIR/Koppeltaal/Patient/72308"          // the patient's FHIR URL
    let user = "https://ggz.koppeltaal.nl/FHIR/Koppeltaal/RelatedPerson/452"         // who launches, as a FHIR URL
    let backend = KoppeltaalBackend(configuration: .init(
        launchURL: URL(string: "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal")!,
        credentials: BasicCredentials(username: "portal", password: portalPassword)
    ))
    let activation = try await backend.mobileLaunch(clientID: "RANJKA", patient: patient, user: user)
    print("Give the patient this code:", activation.code, "valid until", activation.expiresAt)

    // App: the OAuth client (Token and Revoke)
    let clientSecret = "the app's client secret"   // from the Koppeltaal domain administrator
    let codeTypedByThePatient = "123456"          // the six digits activation.code showed the patient
    let session = KoppeltaalSession(configuration: .init(
        fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
        clientID: "RANJKA", clientSecret: clientSecret,
        redirectURI: "ranjka://after-auth",
        store: try CredentialStores.secure(service: "com.example.koppeltaal")
    ))
    let context = try await session.activate(code: codeTypedByThePatient)   // patient, user, resource, intent, scope
    let response = try await session.fhir(.fhir("Patient", id: "72308"))
    // Forgets the grant here; .unsupportedByServer when the Conformance names no revocation endpoint (the default),
    // and the tokens then end when they expire.
    print(try await session.revoke())
    // end snippet
    _ = (context, response)
}

// snippet koppeltaal-getting-started
/// What the app's user interface does; this article leaves it to the app.
protocol KoppeltaalScreens {
    /// Asks the patient for the six-digit code their care provider gave them.
    func askForActivationCode() async -> String
    func show(messages: Data)
}

/// The app's side of a Koppeltaal mobile launch: activate once, then call FHIR with fresh tokens.
final class KoppeltaalLaunch: Sendable {
    let session = KoppeltaalSession(configuration: .init(
        fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
        clientID: "RANJKA", clientSecret: "the client secret",
        redirectURI: "ranjka://after-auth",
        store: (try? CredentialStores.secure(service: "com.example.koppeltaal")) ?? InMemoryCredentialStore()
    ))

    /// Activates with a code from the patient when there is no usable grant.
    func start(screens: some KoppeltaalScreens) async throws {
        guard case .needsActivation = try await session.status() else { return }
        let context = try await session.activate(code: await screens.askForActivationCode())
        print("launched for", context.patient ?? "an unknown patient")
    }

    /// Reads the next messages; tokens are refreshed as needed, and a dead grant asks for a new code.
    func nextMessages(screens: some KoppeltaalScreens) async throws {
        var query = FormFields()
        query.append("_query", "MessageHeader.GetNextNewAndClaim")
        do {
            screens.show(messages: try await session.fhir(ResourcePath("MessageHeader", "_search"), query: query).body)
        } catch let error as SignInError where error.code == .needsSignIn {
            try await start(screens: screens)
        }
    }

    /// Forgets the grant, telling the server when it offers revocation (the tokens otherwise end when they expire).
    func signOut() async throws {
        if case .failed(let error) = try await session.revoke() { print("forgotten here only:", error) }
    }
}
// end snippet
