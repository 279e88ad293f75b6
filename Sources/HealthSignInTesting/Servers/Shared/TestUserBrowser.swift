import Foundation
import HealthSignInCore

/// An `AuthorizationBrowser` that plays the person at an in-process test server's sign-in page: it opens the page
/// through the server's transport, follows the server's redirects, answers the page as ``decision`` says (or closes
/// it), and returns the redirect back to the app.
///
/// ```swift
/// let context = try await session.authorize(with: server.browser(.approve))
/// do {
///     _ = try await session.authorize(with: server.browser(.deny))
///     XCTFail("the user said no")
/// } catch {}
/// ```
///
/// A page that never reaches the app's callback fails as a system browser would report it: the server's error page
/// as `AuthorizationBrowserError.errorPage`, a redirect elsewhere as `.unexpectedRedirect`.
public struct TestUserBrowser: AuthorizationBrowser {
    /// The network the page is loaded through.
    public let transport: TestServerTransport
    /// What the person does at the sign-in page.
    public let decision: TestUserDecision

    /// Creates a browser that loads pages through `transport` and answers sign-in pages with `decision`.
    public init(transport: TestServerTransport, decision: TestUserDecision = .approve) {
        self.transport = transport
        self.decision = decision
    }

    /// Opens `page` and returns the first URL it leads to that `callback` matches.
    public func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
        var request = HTTPRequestMessage(method: .get, url: page)
        // A sign-in is a handful of pages; more than that is a redirect loop.
        for _ in 0..<16 {
            let response = try await transport.send(request)
            if (300..<400).contains(response.status), let location = response.headers["Location"],
                let next = URL(string: location, relativeTo: request.url)?.absoluteURL
            {
                if callback.matches(next) { return next }
                guard transport.serves(next) else {
                    throw AuthorizationBrowserError.unexpectedRedirect(path: next.path)
                }
                request = HTTPRequestMessage(method: .get, url: next)
            } else if response.status >= 400 {
                throw AuthorizationBrowserError.errorPage(response, at: request.url)
            } else if let prompt = response.headers[SignInPrompt.header], let action = URL(string: prompt) {
                guard decision != .cancel else { throw AuthorizationBrowserError.cancelled }
                request = SignInPrompt.answer(decision, at: action)
            } else {
                throw AuthorizationBrowserError.unavailable(
                    "the page answered HTTP \(response.status) without a redirect or a sign-in form")
            }
        }
        throw AuthorizationBrowserError.unavailable("the page redirected more than 16 times")
    }
}

/// The sign-in page of an in-process server: a form the person answers. The page names where the answer goes in a
/// header, so the scripted person needs no HTML parser.
enum SignInPrompt {
    static let header = "X-Test-Server-Prompt"

    /// The page asking the person to sign in and decide; its answer is posted to `action`.
    static func page(action: URL, asking question: String) -> HTTPResponseMessage {
        let html = """
            <!doctype html><title>Sign in</title><p>\(question)</p>\
            <form method="post" action="\(action.absoluteString)">\
            <button name="decision" value="approve">Allow</button><button name="decision" value="deny">Deny</button>\
            </form>
            """
        return .text(200, html, type: "text/html; charset=utf-8", headers: [header: action.absoluteString])
    }

    /// The form post of `decision`.
    static func answer(_ decision: TestUserDecision, at action: URL) -> HTTPRequestMessage {
        HTTPRequestMessage(
            method: .post, url: action, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("decision=\(decision.rawValue)".utf8))
    }

    /// The decision a form post carries, or nil when it carries none.
    static func decision(in request: ReceivedRequest) -> TestUserDecision? {
        request.form["decision"].flatMap(TestUserDecision.init(rawValue:))
    }
}
