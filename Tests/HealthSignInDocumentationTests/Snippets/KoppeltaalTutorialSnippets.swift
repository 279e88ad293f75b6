// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInKoppeltaal
import HealthSignInCore

// The code of the Koppeltaal tutorial, one region per step.

func koppeltaalTutorialLaunch(portalPassword: String, patientURL: String, userURL: String) async throws {
    // snippet koppeltaal-tutorial-launch
    // On the portal's server: MobileLaunch with the application credentials returns a code for the patient.
    let backend = KoppeltaalBackend(configuration: .init(
        launchURL: URL(string: "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal")!,
        credentials: BasicCredentials(username: "portal", password: portalPassword)
    ))
    let activation = try await backend.mobileLaunch(clientID: "RANJKA", patient: patientURL, user: userURL)
    print("Tell the patient:", activation.code, "valid until", activation.expiresAt)
    // end snippet
}

func koppeltaalTutorialSession(clientSecret: String) throws -> KoppeltaalSession {
    // snippet koppeltaal-tutorial-session
    // In the app: one session for the app's lifetime, keeping the grant in the Keychain.
    let session = KoppeltaalSession(configuration: .init(
        fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
        clientID: "RANJKA", clientSecret: clientSecret,
        redirectURI: "ranjka://after-auth",
        store: try CredentialStores.secure(service: "com.example.koppeltaal")
    ))
    // end snippet
    return session
}

func koppeltaalTutorialActivate(session: KoppeltaalSession, codeTypedByThePatient: String) async throws {
    // snippet koppeltaal-tutorial-activate
    // Discovers the OAuth endpoints from the FHIR server, authorizes with the code and exchanges it for tokens.
    let context = try await session.activate(code: codeTypedByThePatient)
    print("Launched for", context.patient ?? "?", "as", context.user ?? "?")
    // end snippet
}

func koppeltaalTutorialFHIR(session: KoppeltaalSession) async throws {
    // snippet koppeltaal-tutorial-fhir
    // FHIR calls carry a fresh access token; an expired one is refreshed once, whoever is calling.
    let patient = try await session.fhir(.fhir("Patient", id: "72308"))
    print(String(decoding: patient.body, as: UTF8.self))
    // end snippet
}

func koppeltaalTutorialRevoke(session: KoppeltaalSession) async throws {
    // snippet koppeltaal-tutorial-revoke
    // Revokes the grant at the server when it can, and forgets it in any case.
    let outcome = try await session.revoke()
    print(outcome)
    // end snippet
}
