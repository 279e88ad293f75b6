// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInKoppeltaal
import HealthSignInCore

// The code of the Koppeltaal tutorial, one region per step.

func koppeltaalTutorialLaunch() async throws {
    // snippet koppeltaal-tutorial-launch
    // On the portal's server: MobileLaunch with the application credentials returns a code for the patient.
    let portalPassword = ProcessInfo.processInfo.environment["KOPPELTAAL_PORTAL_PASSWORD"] ?? ""
    let patient = "https://ggz.koppeltaal.nl/FHIR/Koppeltaal/Patient/72308"          // the patient's FHIR URL
    let user = "https://ggz.koppeltaal.nl/FHIR/Koppeltaal/RelatedPerson/452"         // who launches, as a FHIR URL
    let backend = KoppeltaalBackend(configuration: .init(
        launchURL: URL(string: "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal")!,
        credentials: BasicCredentials(username: "portal", password: portalPassword)
    ))
    let activation = try await backend.mobileLaunch(clientID: "RANJKA", patient: patient, user: user)
    print("Tell the patient:", activation.code, "valid until", activation.expiresAt)
    // end snippet
}

func koppeltaalTutorialSession() throws -> KoppeltaalSession {
    // snippet koppeltaal-tutorial-session
    // In the app: one session for the app's lifetime, keeping the grant in the Keychain.
    let clientSecret = "the app's client secret"   // from the Koppeltaal domain administrator
    let session = KoppeltaalSession(configuration: .init(
        fhirBaseURL: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal")!,
        clientID: "RANJKA", clientSecret: clientSecret,
        redirectURI: "ranjka://after-auth",
        store: try CredentialStores.secure(service: "com.example.koppeltaal")
    ))
    // end snippet
    return session
}

func koppeltaalTutorialActivate(session: KoppeltaalSession) async throws {
    // snippet koppeltaal-tutorial-activate
    let codeTypedByThePatient = "123456"   // the six digits the portal showed the patient, typed into the app
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
    // Forgets the grant here in any case; the outcome says what the server did.
    switch try await session.revoke() {
    case .revoked: print("the server ended the grant")
    case .unsupportedByServer: print("no revocation endpoint in the Conformance: the tokens end when they expire")
    case .nothingToRevoke: print("there was no grant")
    case .failed(let error): print("the server could not be told; the tokens end when they expire:", error)
    }
    // end snippet
}
