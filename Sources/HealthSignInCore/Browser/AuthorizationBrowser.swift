import Foundation

/// Shows an authorization page to the user and gives back the URL the page sent the browser to when it was done: the
/// app's redirect URI (or HealthVault's action URL) with the server's answer in its query.
///
/// `SMARTSession.authorize(with:)` and `HealthVaultConnection.authorize(_:with:)` drive a whole sign-in through one.
/// On Apple platforms `WebAuthenticationBrowser` runs the page in `ASWebAuthenticationSession`; on every platform
/// ``TerminalAuthorizationBrowser`` asks a person to open the page and paste back where it ended, for command-line
/// tools and servers. In `HealthSignInTesting`, `TestUserBrowser` plays the person at an in-process test server's sign-in
/// page, and `RedirectFollowingBrowser` takes the redirect of a server that grants at once.
public protocol AuthorizationBrowser: Sendable {
    /// Opens `page` and returns the first URL it leads to that `callback` matches.
    ///
    /// - Throws: ``AuthorizationBrowserError/cancelled`` when the user closes the page, or another
    ///   ``AuthorizationBrowserError`` when the page cannot be shown.
    func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL
}

/// Where an authorization page returns to the app: a URL, and the rule that tells a return from every other page.
///
/// A redirect URI is one address, and its rule is that address (``init(_:)``). A family whose server may return on
/// any of several pages gives its own rule (``init(_:matching:)``): HealthVault's Shell completes on the Shell of the
/// instance the user was sent to, whichever of the instances the app trusts. ``url`` is then the address a person is
/// told to look for, and its scheme is what a system browser session listens for.
public struct AuthorizationCallback: Sendable {
    /// The redirect URI (or action URL) the server appends its answer to.
    public let url: URL
    /// The family's rule, when a return may come on more than one address.
    private let rule: (@Sendable (URL) -> Bool)?

    /// Creates the callback of `url`: a return is `url` with the server's answer in its query.
    public init(_ url: URL) {
        self.url = url
        rule = nil
    }

    /// Creates a callback whose returns are the URLs `rule` accepts; `url` is the address a person is shown and whose
    /// scheme a system browser session listens for.
    public init(_ url: URL, matching rule: @escaping @Sendable (URL) -> Bool) {
        self.url = url
        self.rule = rule
    }

    /// The callback of a redirect URI as configured, or nil when it is not an absolute URL.
    public init?(redirectURI: String) {
        guard let url = URL(string: redirectURI), url.scheme != nil else { return nil }
        self.init(url)
    }

    /// The scheme a system browser session listens for, lowercased: `myapp` for `myapp://signed-in`.
    public var scheme: String { url.scheme?.lowercased() ?? "" }

    /// Whether `candidate` returns to the app: the family's rule when it has one; otherwise the same scheme and host
    /// as ``url`` (without regard to case), port and path. The query and fragment are the server's answer.
    public func matches(_ candidate: URL) -> Bool {
        if let rule { return rule(candidate) }
        return candidate.scheme?.lowercased() == scheme && candidate.host?.lowercased() == url.host?.lowercased()
            && candidate.port == url.port && Self.path(candidate) == Self.path(url)
    }

    private static func path(_ url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
        return path == "/" ? "" : path
    }
}

/// Why a browser gave back no redirect.
public enum AuthorizationBrowserError: SDKError, Equatable {
    /// The user closed the page before it was done; nothing was authorized.
    case cancelled
    /// The page could not be shown, with why (no window to present from, another session already showing).
    case unavailable(String)
    /// The page ended on a URL the callback does not match (its path is given; the query may hold secrets).
    case unexpectedRedirect(path: String)
    /// The authorization server answered with an error page instead of redirecting back, as it does when it cannot
    /// trust the redirect URI (an unknown client id, a redirect URI it was not given): the status, the server's
    /// explanation when the page has one (`HTTPResponseMessage.serverMessage`), and the page that answered, its query
    /// redacted (it may hold a code or a token).
    case errorPage(status: Int, serverMessage: String?, page: String)

    /// The error of an error page: `response`, which loading `page` answered with.
    public static func errorPage(_ response: HTTPResponseMessage, at page: URL) -> Self {
        .errorPage(status: response.status, serverMessage: response.serverMessage, page: Redaction.url(page))
    }

    /// Nothing for `cancelled` (the user chose it); reconfiguring for the others.
    public var recovery: ErrorRecovery {
        switch self {
        case .cancelled: return .none
        case .unavailable, .unexpectedRedirect, .errorPage: return .reconfigure
        }
    }

    /// `The authorization page was closed before it was done`
    public var description: String {
        switch self {
        case .cancelled: return "The authorization page was closed before it was done"
        case .unavailable(let reason): return "The authorization page could not be shown: \(reason)"
        case .unexpectedRedirect(let path): return "The authorization page ended on \(path), not the app's callback"
        case .errorPage(let status, let message, let page):
            return "The authorization server answered HTTP \(status) at \(page) instead of redirecting back"
                + (message.map { ": \"\($0)\"" } ?? "")
                + "; check the client id and the redirect URI registered with the server"
        }
    }
}
