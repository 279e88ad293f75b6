import Foundation
import HealthSignInCore

/// Plays the user's browser for a page that ends in a redirect back to the app (HealthVault's Shell, a SMART
/// authorization): a person completes it, or, for the emulator (which grants at once), its own redirect is taken.
struct Browser: AuthorizationBrowser {
    let mode: DemoOptions.ShellMode
    let transport: DefaultHTTPTransport

    /// The URL the browser ends on after `page`.
    func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
        switch mode {
        case .auto:
            let response = try await transport.send(HTTPRequestMessage(method: .get, url: page))
            guard let location = response.headers["Location"],
                let url = URL(string: location, relativeTo: page)?.absoluteURL
            else {
                throw DemoError("the page answered HTTP \(response.status) without a redirect")
            }
            return url
        case .prompt:
            return try await TerminalAuthorizationBrowser().authorize(page, callback: callback)
        }
    }
}
