// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInOAuth
import HealthSignInCore
import HealthSignInSMART

// The code of the README's SMART quick start.

func smartAppQuickStart() async throws {
    // snippet smart-app-quick-start
    // In an app: WebAuthenticationBrowser { window } (ASWebAuthenticationSession); in a tool or on a server, the
    // terminal browser asks a person to open the page and paste back where it ended.
    let browser = TerminalAuthorizationBrowser()
    let session = SMARTSession(configuration: .init(
        clientID: "my-app", redirectURI: "myapp://smart/callback",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
        store: try CredentialStores.secure(service: "com.example.smart")))
    let context = try await session.authorize(with: browser)   // PKCE S256, state, nonce and aud are inside
    let patient = try await session.fhir(.fhir("Patient", id: context.patient))   // no patient: an error, never a search
    print(context.fhirUser as Any, patient.status)
    // end snippet
}

func smartBackendQuickStart() async throws {
    // snippet smart-backend-quick-start
    // The private key whose public half the EHR has for "my-service" (a JWK; keep it out of the source tree).
    let privateJWK = try Data(contentsOf: URL(fileURLWithPath: "/etc/example/smart-backend-key.json"))
    let backend = SMARTBackendClient(configuration: .init(
        clientID: "my-service",
        signer: try ClientAssertionSigner(key: JSONWebKey(json: privateJWK), algorithm: .es384),
        scope: "system/Patient.rs system/Observation.rs",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!))
    let bundle = try await backend.fhir(.fhir("Observation"))   // one token request for any number of callers
    print(bundle.status)
    // end snippet
}

// snippet smart-getting-started
/// What the app's user interface does; this article leaves it to the app.
protocol SMARTScreens {
    /// Where authorization pages open: `WebAuthenticationBrowser { window }` in an app.
    var browser: any AuthorizationBrowser { get }
    func show(patient: Data)
}

/// The app's side of SMART App Launch: launched by an EHR or on its own, then FHIR calls with fresh tokens.
final class SMARTLaunch: Sendable {
    let session = SMARTSession(configuration: .init(
        registrations: [
            OAuthRegistration(
                baseURL: URL(string: "https://ehr.example.com/fhir")!,
                client: OAuthClientCredentials(clientID: "my-app"), redirectURI: "myapp://smart/callback"),
            OAuthRegistration(
                baseURL: URL(string: "https://other-ehr.example.org/fhir")!,
                client: OAuthClientCredentials(clientID: "my-app-at-other-ehr"), redirectURI: "myapp://smart/other-ehr"),
        ],
        standaloneServer: URL(string: "https://ehr.example.com/fhir")!,
        session: OAuthSessionSettings(
            store: (try? CredentialStores.secure(service: "com.example.smart")) ?? InMemoryCredentialStore())))

    /// Handles the URL an EHR opened the app with (`iss` and `launch`), or starts a standalone launch.
    func launch(from launchURL: URL?, screens: some SMARTScreens) async throws {
        let context = if let launchURL {
            try await session.authorize(launchURL: launchURL, with: screens.browser)
        } else {
            try await session.authorize(with: screens.browser)
        }
        print("launched for", context.patient ?? "no patient", "by", context.fhirUser?.absoluteString ?? "?")
    }

    /// Reads the patient in context; tokens are refreshed as needed, and a dead grant launches again.
    func showPatient(screens: some SMARTScreens) async throws {
        guard case .authorized(let context, _) = try await session.status(), let patient = context.patient else {
            return try await launch(from: nil, screens: screens)
        }
        do {
            screens.show(patient: try await session.fhir(.fhir("Patient", id: patient)).body)
        } catch let error as SignInError where error.code == .needsSignIn {
            try await launch(from: nil, screens: screens)
        }
    }

    /// Forgets the grant, revoking it at the server when the server offers revocation.
    func signOut() async throws {
        if case .failed(let error) = try await session.revoke() {
            print("forgotten here; the server may keep the grant until it expires:", error)
        }
    }
}
// end snippet

// The code of the SMART tutorial, one region per step.

func smartTutorialDiscover() async throws -> SMARTSession {
    // snippet smart-tutorial-discover
    // One session for the app's lifetime; discovery reads the server's .well-known/smart-configuration.
    let session = SMARTSession(configuration: .init(
        clientID: "my-app", redirectURI: "myapp://smart/callback",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
        store: try CredentialStores.secure(service: "com.example.smart")))
    let endpoints = try await session.discover()
    print(endpoints.authorization?.absoluteString ?? "no authorization endpoint", endpoints.token, endpoints.capabilities)
    // end snippet
    return session
}

func smartTutorialAuthorize(session: SMARTSession) async throws {
    // snippet smart-tutorial-authorize
    // The page's URL carries PKCE S256, state, nonce and aud; the pending request is stored until the redirect
    // comes back. In an app the browser is WebAuthenticationBrowser { window }.
    let browser = TerminalAuthorizationBrowser()
    let context = try await session.authorize(with: browser)
    print(context.patient ?? "no patient", context.grantedScopes, context.needPatientBanner ?? true)
    // end snippet
}

func smartTutorialStatuses(session: SMARTSession) async throws {
    // snippet smart-tutorial-statuses
    // The current status first, then every change, including a background refresh that ends the grant.
    for await status in session.statuses() {
        if case .signedOut = status { print("show the sign-in button") }
    }
    // end snippet
}

func smartTutorialFHIR(session: SMARTSession) async throws {
    // snippet smart-tutorial-fhir
    // Each call carries a fresh access token; an expired one is refreshed once for every caller.
    let observations = try await session.fhir(.fhir("Observation"), query: FormFields(formEncoded: "patient=123"))
    print(String(decoding: observations.body, as: UTF8.self))
    // end snippet
}

func smartTutorialRevoke(session: SMARTSession) async throws {
    // snippet smart-tutorial-revoke
    // Forgets the grant here in any case; the outcome says what the server did.
    switch try await session.revoke() {
    case .revoked: print("the server ended the grant")
    case .unsupportedByServer: print("the server offers no revocation: the grant ends when its tokens expire")
    case .nothingToRevoke: print("there was no grant")
    case .failed(let error): print("the server could not be told; the grant ends when its tokens expire:", error)
    }
    // end snippet
}
