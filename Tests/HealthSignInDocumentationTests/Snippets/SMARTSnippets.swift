// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInOAuth
import HealthSignInCore
import HealthSignInSMART

// The code of the README's SMART quick start.

func smartAppQuickStart(browser: any AuthorizationBrowser) async throws {
    // snippet smart-app-quick-start
    let session = SMARTSession(configuration: .init(
        clientID: "my-app", redirectURI: "myapp://smart/callback",
        fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
        store: try CredentialStores.secure(service: "com.example.smart")))
    // browser: WebAuthenticationBrowser { window } on Apple platforms (ASWebAuthenticationSession), any
    // AuthorizationBrowser elsewhere; PKCE S256, state and nonce are inside.
    let context = try await session.authorize(with: browser)
    let patient = try await session.fhir(.fhir("Patient", id: context.patient))   // no patient: an error, never a search
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
    let bundle = try await backend.fhir(.fhir("Observation"))   // one token request for any number of callers
    print(bundle.status)
    // end snippet
}

/// What the app's user interface does; the getting-started article leaves it to the app.
protocol SMARTScreens {
    /// Opens `url` in the system browser (ASWebAuthenticationSession, Custom Tabs) and returns the redirect URL.
    func authenticate(at url: URL) async throws -> URL
    func show(patient: Data)
}

// snippet smart-getting-started
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
        let url = if let launchURL {
            try await session.ehrAuthorizationURL(launchURL: launchURL)
        } else {
            try await session.standaloneAuthorizationURL()
        }
        let context = try await session.completeAuthorization(redirectURL: try await screens.authenticate(at: url))
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

    /// Forgets the grant, revoking it at the server when it can.
    func signOut() async throws {
        _ = try await session.revoke()
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

func smartTutorialAuthorize(session: SMARTSession, openInBrowser: (URL) async throws -> URL) async throws {
    // snippet smart-tutorial-authorize
    // The URL carries PKCE S256, state, nonce and aud; the pending request is stored until the redirect comes back.
    let url = try await session.standaloneAuthorizationURL()
    let redirect = try await openInBrowser(url)
    let context = try await session.completeAuthorization(redirectURL: redirect)
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
    // Revokes the refresh token at the server when it can, and forgets the grant in any case.
    let outcome = try await session.revoke()
    print(outcome)
    // end snippet
}
