// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInVital

// The code of the Vital tutorial, one region per step.

func vitalTutorialBackend() async throws -> String {
    // snippet vital-tutorial-backend
    // On your server: the team API key never leaves it.
    let teamAPIKey = ProcessInfo.processInfo.environment["VITAL_API_KEY"] ?? ""   // from Junction's dashboard
    let userID = "user-42"                                                        // your own id for the user
    let backend = VitalBackend(configuration: .init(apiKey: APIKey(teamAPIKey), environment: .sandboxUS))
    let grant = try await backend.signInToken(forClientUserID: userID)   // creates the Vital user the first time
    return grant.signInToken                                              // send this to the app
    // end snippet
}

func vitalTutorialCore() throws -> VitalSession {
    // snippet vital-tutorial-core
    // In the app: one VitalSession for the app's lifetime, keeping the session in the Keychain.
    let vital = VitalSession(configuration: .init(store: try CredentialStores.secure(service: "com.example.vital")))
    // end snippet
    return vital
}

func vitalTutorialSignIn(vital: VitalSession) async throws {
    // snippet vital-tutorial-sign-in
    let signInTokenFromYourBackend = "the signInToken your server sent"   // from the backend step
    let outcome = try await vital.signIn(token: signInTokenFromYourBackend)   // one token exchange
    print(outcome, try await vital.status)   // read from the store, without network, at every later launch too
    // end snippet
}

func vitalTutorialData(vital: VitalSession) async throws {
    // snippet vital-tutorial-data
    // Expired access tokens are refreshed on the way, once for all concurrent calls.
    let providers = try await vital.connectedProviders()
    print(providers.map(\.slug))
    Task {
        for await status in vital.statuses() { print("Vital is now", status) }
    }
    // end snippet
}

func vitalTutorialSignOut(vital: VitalSession) async throws {
    // snippet vital-tutorial-sign-out
    try await vital.signOut()   // the stored session is erased; no call sends it afterwards
    // end snippet
}
