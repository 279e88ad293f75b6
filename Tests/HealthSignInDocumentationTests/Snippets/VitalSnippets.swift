// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInVital

// The code of the README's Vital quick start and of the Vital getting-started article.

func vitalQuickStart() async throws {
    // snippet vital-quick-start
    // Backend (server-side Swift): the team key never leaves the server
    let teamAPIKey = ProcessInfo.processInfo.environment["VITAL_API_KEY"] ?? ""   // from Junction's dashboard
    let userID = "user-42"                                                        // your own id for the user
    let vitalBackend = VitalBackend(configuration: .init(apiKey: APIKey(teamAPIKey), environment: .sandboxUS))
    let grant = try await vitalBackend.signInToken(forClientUserID: userID)   // creates the Vital user when needed
    // respond with grant.signInToken

    // App
    let signedInUserID: String? = "user-42"   // who is signed in to your app now (nil: nobody)
    let vital = VitalSession(configuration: .init(store: try CredentialStores.secure(service: "com.example.vital")))
    try await vital.reconcile(appUserID: signedInUserID) {
        grant.signInToken     // in the app: ask your backend; asked for only when signed out or another user
    }
    let providers = try await vital.connectedProviders()
    print(try await vital.status)                  // [configured, signedIn, useSignInToken], read without network
    // end snippet
    _ = providers
}

// snippet vital-getting-started
/// Your backend's endpoint that returns a sign-in token for the signed-in user.
protocol MyBackend: Sendable {
    func vitalSignInToken() async throws -> String
}

/// Keeps Vital signed in as the app's own user, and reads the user's data.
final class VitalAccount: Sendable {
    let vital = VitalSession(configuration: .init(
        store: (try? CredentialStores.secure(service: "com.example.vital")) ?? InMemoryCredentialStore()
    ))

    /// Call at launch and whenever your own user signs in or out: Vital follows, asking the backend for a sign-in
    /// token only when it must.
    func follow(appUserID: String?, backend: some MyBackend) async throws {
        try await vital.reconcile(appUserID: appUserID) { try await backend.vitalSignInToken() }
    }

    /// The user's connected data sources; reports when Vital signed out because the user was deleted.
    func providers(backend: some MyBackend) async throws -> [ConnectedProvider] {
        do {
            return try await vital.connectedProviders()
        } catch VitalSessionError.needsReauthentication {
            // The session was revoked: a new sign-in token for the same user revives it.
            try await vital.signIn(token: try await backend.vitalSignInToken())
            return try await vital.connectedProviders()
        } catch VitalSessionError.userNoLongerValid {
            return []   // Vital has signed out; the next follow(appUserID:backend:) signs in again
        }
    }

    /// Logs status changes, including the automatic sign-out of a deleted user.
    func watch() async {
        for await event in vital.events() {
            print("Vital:", event)
        }
    }
}
// end snippet
