// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import SDKRuntime
import SMART

// The code of the README's SMART quick start.

func smartAppQuickStart(openInBrowser: (URL) async throws -> URL) async throws {
    // snippet smart-app-quick-start
    let session = SMARTSession(configuration: .init(
        clientID: "my-app", redirectURI: "myapp://smart/callback",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
        store: try CredentialStores.secure(service: "com.example.smart")))
    let authorizationURL = try await session.standaloneAuthorizationURL()   // PKCE S256, state and nonce inside
    let redirect = try await openInBrowser(authorizationURL)                 // e.g. ASWebAuthenticationSession
    let context = try await session.completeAuthorization(redirectURL: redirect)
    let patient = try await session.fhir(path: "Patient/\(context.patient ?? "")")
    print(context.fhirUser as Any, patient.status)
    // end snippet
}

func smartBackendQuickStart(privateJWK: Data) async throws {
    // snippet smart-backend-quick-start
    let backend = SMARTBackendClient(configuration: .init(
        clientID: "my-service",
        signer: try ClientAssertionSigner(key: JSONWebKey(json: privateJWK), algorithm: .es384),
        scope: "system/Patient.rs system/Observation.rs",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!))
    let bundle = try await backend.fhir(path: "Observation")   // one token request for any number of callers
    print(bundle.status)
    // end snippet
}
