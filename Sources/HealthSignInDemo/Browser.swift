import HealthSignInCore
import HealthSignInTesting

extension DemoOptions.ShellMode {
    /// The SDK's browser for this mode: the terminal's, where a person opens the page and pastes back where it ended,
    /// or the one that takes the redirect of a server that grants at once (the emulator), reporting what the server
    /// said when it answers with an error page instead.
    func browser(transport: any HTTPTransport) -> any AuthorizationBrowser {
        switch self {
        case .prompt: return TerminalAuthorizationBrowser()
        case .auto: return RedirectFollowingBrowser(transport: transport)
        }
    }
}
