// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInKoppeltaal2
import HealthSignInTesting

// The test kit's part of the Koppeltaal 2.0 catalog's article on serving a module.

func koppeltaal2ModuleTestSignIn(signIn: SHOFSignIn) {
    // snippet koppeltaal2-module-test-sign-in
    // The test server's browser signs the launch's user in and follows the redirects, with no person.
    func signInWithoutAPerson(_ launch: HTILaunch, at server: Koppeltaal2TestServer) async throws -> SHOFUser {
        let (url, pending) = try await signIn.start(launch)
        let redirect = try await server.browser.authorize(
            url, callback: AuthorizationCallback(redirectURI: "https://module.example/shof")!)
        return try await signIn.finish(redirect, pending: pending)
    }
    // end snippet
    _ = signInWithoutAPerson
}
