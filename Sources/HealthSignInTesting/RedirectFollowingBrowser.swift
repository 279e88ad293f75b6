import Foundation
import HealthSignInCore

/// An `AuthorizationBrowser` for tests against a server that grants at once without a person (the emulator, a test
/// provider): it loads the page through `transport`, without following redirects, and returns the redirect it
/// answers with. It signs in as whoever the server grants to; a real sign-in needs a person, in a system browser
/// (`WebAuthenticationBrowser`) or through `TerminalAuthorizationBrowser`.
///
/// ```swift
/// let context = try await session.authorize(with: RedirectFollowingBrowser(transport: DefaultHTTPTransport()))
/// ```
public struct RedirectFollowingBrowser: AuthorizationBrowser {
    /// The transport the page is loaded through.
    public let transport: any HTTPTransport

    /// Creates a browser that loads pages through `transport`.
    public init(transport: any HTTPTransport) { self.transport = transport }

    /// Loads `page` and returns its redirect, which `callback` must match.
    ///
    /// - Throws: `AuthorizationBrowserError.errorPage` with the server's explanation when the page answers with an
    ///   error status, `AuthorizationBrowserError.unavailable` when it answers with a page for a person,
    ///   `AuthorizationBrowserError.unexpectedRedirect` when it redirects elsewhere.
    public func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
        let response = try await transport.send(HTTPRequestMessage(method: .get, url: page))
        guard (300..<400).contains(response.status), let location = response.headers["Location"],
            let redirect = URL(string: location, relativeTo: page)?.absoluteURL
        else {
            guard response.status < 400 else {
                throw AuthorizationBrowserError.errorPage(
                    status: response.status, serverMessage: response.serverMessage)
            }
            throw AuthorizationBrowserError.unavailable(
                "the page answered HTTP \(response.status) without a redirect: it waits for a person, and this browser "
                    + "completes only a server that grants at once")
        }
        guard callback.matches(redirect) else {
            throw AuthorizationBrowserError.unexpectedRedirect(path: redirect.path)
        }
        return redirect
    }
}
