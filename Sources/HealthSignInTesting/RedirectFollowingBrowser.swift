import Foundation
import HealthSignInCore

/// An `AuthorizationBrowser` for tests against a server that grants at once without a person (the emulator, a test
/// provider): it loads the page through `transport`, follows its redirects while they stay on that server (an
/// identity provider's sign-in there takes a few), and returns the redirect that reaches the callback. It signs in as whoever the server grants to; a real sign-in needs a person, in a system browser
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

    /// The most redirects on the page's own server followed before the callback (an identity provider's sign-in
    /// on the same server takes a few).
    public static let maximumRedirects = 5

    /// Loads `page` and follows its redirects while they stay on the page's server, until one reaches `callback`.
    ///
    /// - Throws: `AuthorizationBrowserError.errorPage` with the server's explanation and the page when a page answers
    ///   with an error status, `AuthorizationBrowserError.unavailable` when it answers with a page for a person or
    ///   redirects too often, `AuthorizationBrowserError.unexpectedRedirect` when it redirects to another server that
    ///   is not the callback.
    public func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
        var current = page
        for _ in 0..<Self.maximumRedirects {
            let response = try await transport.send(HTTPRequestMessage(method: .get, url: current))
            guard (300..<400).contains(response.status), let location = response.headers["Location"],
                let redirect = URL(string: location, relativeTo: current)?.absoluteURL
            else {
                guard response.status < 400 else { throw AuthorizationBrowserError.errorPage(response, at: current) }
                throw AuthorizationBrowserError.unavailable(
                    "the page answered HTTP \(response.status) without a redirect: it waits for a person, and this "
                        + "browser completes only a server that grants at once")
            }
            if callback.matches(redirect) { return redirect }
            guard Self.origin(of: redirect) == Self.origin(of: page) else {
                throw AuthorizationBrowserError.unexpectedRedirect(path: redirect.path)
            }
            current = redirect
        }
        throw AuthorizationBrowserError.unavailable(
            "the page redirected more than \(Self.maximumRedirects) times without reaching the callback")
    }

    private static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")"
    }
}
