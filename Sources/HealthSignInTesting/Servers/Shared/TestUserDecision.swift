/// What the person at an in-process server's sign-in page does, as ``TestUserBrowser`` plays them.
public enum TestUserDecision: String, Sendable, Hashable, CaseIterable {
    /// Signs in and grants what the app asked for (SMART's consent, HealthVault's Shell authorization).
    case approve
    /// Signs in and declines: the server sends the browser back with its refusal (`error=access_denied`,
    /// `target=AppAuthReject`).
    case deny
    /// Closes the page without deciding: the browser throws `AuthorizationBrowserError.cancelled`.
    case cancel
}
