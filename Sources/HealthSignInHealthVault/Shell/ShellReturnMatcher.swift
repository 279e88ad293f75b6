import Foundation

/// Decides which URLs end a Shell task: HealthVault's completion page (`…/application/complete`, on whichever Shell
/// host instance bounce led to), or the action URL configured for the app, which may use a custom scheme.
public struct ShellReturnMatcher: Sendable, Hashable {
    /// How a URL ends a Shell task.
    public enum Kind: Sendable, Hashable {
        /// `…/application/complete`: valid only on a HealthVault Shell host.
        case completionPage
        /// The app's own action URL, e.g. `myapp://healthvault/done` or `https://app.example/hv/return`.
        case actionURL
    }

    /// The app's action URL, when its HealthVault configuration has one; Shell returns there with the same query.
    public let actionURL: URL?

    /// Creates a matcher; without an action URL only the completion page ends a task.
    public init(actionURL: URL? = nil) {
        self.actionURL = actionURL
    }

    /// How `url` ends a Shell task, or nil when it does not. The query is not compared: Shell appends its own.
    public func kind(of url: URL) -> Kind? {
        if let actionURL, Self.sameEndpoint(url, actionURL) { return .actionURL }
        let path = url.path.lowercased()
        return path.hasSuffix("/application/complete") || path.hasSuffix("/application/complete/")
            ? .completionPage : nil
    }

    /// Same scheme, host and port (without regard to case) and the same path (without regard to a trailing slash).
    private static func sameEndpoint(_ url: URL, _ other: URL) -> Bool {
        func path(_ url: URL) -> String {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            var path = components?.percentEncodedPath ?? ""
            while path.hasSuffix("/") { path.removeLast() }
            return path
        }
        return url.scheme?.lowercased() == other.scheme?.lowercased()
            && url.host?.lowercased() == other.host?.lowercased()
            && url.port == other.port && path(url) == path(other)
    }
}
