// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
// The web view recipe of the HealthVault "Records and the Shell" article. WebKit exists only on Apple platforms, so
// on Linux this file compiles to nothing and the recipe is checked on macOS builds only.
#if canImport(WebKit)
import HealthSignInHealthVault
import WebKit

// snippet healthvault-web-view
/// Shows a Shell page and reports how the Shell task ended.
final class ShellWebViewDelegate: NSObject, WKNavigationDelegate {
    let connection: HealthVaultConnection
    let finish: (Result<ShellCompletion, any Error>) -> Void

    init(connection: HealthVaultConnection, finish: @escaping (Result<ShellCompletion, any Error>) -> Void) {
        self.connection = connection
        self.finish = finish
    }

    @MainActor
    func webView(_ webView: WKWebView, decidePolicyFor action: WKNavigationAction) async -> WKNavigationActionPolicy {
        let navigation = await connection.shellNavigation(to: action.request.url)
        if let outcome = navigation.outcome { finish(outcome) }
        return navigation.allowsLoading ? .allow : .cancel
    }
}
// end snippet
#endif
