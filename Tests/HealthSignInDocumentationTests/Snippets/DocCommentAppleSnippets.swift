// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
// The examples in the doc comments of the runtime's Apple-only types. They compile on Apple platforms only; on Linux
// this file compiles to nothing, and the Apple-platforms check type-checks the types themselves.
#if canImport(AuthenticationServices) && !os(tvOS) && !os(watchOS)
import AuthenticationServices
import HealthSignInCore
import HealthSignInSMART

@MainActor
func webAuthenticationBrowserExample(session: SMARTSession, window: ASPresentationAnchor) async throws {
    // snippet doc-web-authentication-browser
    let browser = WebAuthenticationBrowser { window }
    let context = try await session.authorize(with: browser)
    // end snippet
    _ = context
}
#endif

#if canImport(os)
import HealthSignInCore
import HealthSignInVital

func osLogSinkExample(store: any CredentialStore) -> VitalSession {
    // snippet doc-os-log-sink
    let vital = VitalSession(configuration: .init(store: store, logger: OSLogSink(subsystem: "com.example.app")))
    // end snippet
    return vital
}
#endif

#if canImport(WebKit)
import HealthSignInHealthVault
import WebKit

@MainActor
func shellNavigationExample(
    connection: HealthVaultConnection, action: WKNavigationAction,
    finish: (Result<ShellCompletion, any Error>) -> Void
) async -> WKNavigationActionPolicy {
    // snippet doc-shell-navigation
    let navigation = await connection.shellNavigation(to: action.request.url)
    if let outcome = navigation.outcome { finish(outcome) }
    return navigation.allowsLoading ? .allow : .cancel
    // end snippet
}
#endif
