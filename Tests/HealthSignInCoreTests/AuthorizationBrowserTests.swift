import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// The browser adapter's callback matching and the testing browser, which the integration tests drive sign-ins with.
final class AuthorizationBrowserTests: XCTestCase {
    func testACallbackMatchesItsSchemeHostPortAndPathWhateverTheQuery() throws {
        let callback = try XCTUnwrap(AuthorizationCallback(redirectURI: "MyApp://Signed-In/done"))
        XCTAssertEqual(callback.scheme, "myapp")
        XCTAssertTrue(callback.matches(try XCTUnwrap(URL(string: "myapp://signed-in/done?code=c&state=s"))))
        XCTAssertFalse(callback.matches(try XCTUnwrap(URL(string: "myapp://signed-in/other?code=c"))))
        XCTAssertFalse(callback.matches(try XCTUnwrap(URL(string: "evil://signed-in/done?code=c"))))
        let https = AuthorizationCallback(try XCTUnwrap(URL(string: "https://app.example:8443/cb")))
        XCTAssertTrue(https.matches(try XCTUnwrap(URL(string: "https://APP.example:8443/cb?code=c"))))
        XCTAssertFalse(https.matches(try XCTUnwrap(URL(string: "https://app.example/cb?code=c"))))
        XCTAssertNil(AuthorizationCallback(redirectURI: "/relative/cb"))
    }

    /// A family's rule decides what is a return, for every browser: here, a completion page on any of two hosts.
    func testACallbackWithARuleMatchesWhatTheRuleAccepts() async throws {
        let trusted: Set<String> = ["shell-1.example", "shell-2.example"]
        let callback = AuthorizationCallback(try XCTUnwrap(URL(string: "https://shell-1.example/application/complete")))
        {
            trusted.contains($0.host ?? "") && $0.path == "/application/complete"
        }
        XCTAssertEqual(callback.scheme, "https")
        XCTAssertTrue(callback.matches(try XCTUnwrap(URL(string: "https://shell-2.example/application/complete?a=1"))))
        XCTAssertFalse(callback.matches(try XCTUnwrap(URL(string: "https://evil.example/application/complete?a=1"))))
        XCTAssertFalse(callback.matches(try XCTUnwrap(URL(string: "https://shell-1.example/elsewhere"))))
        let page = try XCTUnwrap(URL(string: "https://shell-1.example/redirect.aspx?target=CREATEAPPLICATION"))
        // A page that answers 404 is named in the error, without its query.
        let bouncing = RecordingTransport { request in
            request.url.path == "/redirect.aspx"
                ? HTTPResponseMessage(status: 302, headers: ["Location": "/bounce?appid=secret"])
                : HTTPResponseMessage(status: 404)
        }
        // The redirect-following browser stops at the first URL the rule accepts, wherever the bounce led.
        let stopping = RecordingTransport { request in
            request.url.path == "/redirect.aspx"
                ? HTTPResponseMessage(status: 302, headers: ["Location": "/shell/2/go"])
                : HTTPResponseMessage(
                    status: 302, headers: ["Location": "https://shell-2.example/application/complete?instanceid=2"])
        }
        let returned = try await RedirectFollowingBrowser(transport: stopping).authorize(page, callback: callback)
        XCTAssertEqual(returned.absoluteString, "https://shell-2.example/application/complete?instanceid=2")
        await XCTAssertThrowsErrorAsync(
            try await RedirectFollowingBrowser(transport: bouncing).authorize(page, callback: callback)
        ) { error in
            XCTAssertEqual(
                error as? AuthorizationBrowserError,
                .errorPage(status: 404, serverMessage: nil, page: "https://shell-1.example/bounce?<redacted>"))
        }
    }

    func testTheRedirectFollowingBrowserReturnsTheRedirectOnlyWhenItIsTheCallback() async throws {
        let page = try XCTUnwrap(URL(string: "https://as.example/authorize?state=s"))
        let callback = AuthorizationCallback(try XCTUnwrap(URL(string: "myapp://cb")))
        let granting = RecordingTransport { _ in
            HTTPResponseMessage(status: 302, headers: ["Location": "myapp://cb?code=c&state=s"])
        }
        let redirect = try await RedirectFollowingBrowser(transport: granting).authorize(page, callback: callback)
        XCTAssertEqual(redirect.absoluteString, "myapp://cb?code=c&state=s")
        XCTAssertEqual(granting.requests.map(\.url), [page])

        let identityProvider = RecordingTransport { request in
            switch request.url.path {
            case "/authorize": return HTTPResponseMessage(status: 302, headers: ["Location": "/idp/login"])
            case "/idp/login": return HTTPResponseMessage(status: 302, headers: ["Location": "/callback?s=1"])
            default: return HTTPResponseMessage(status: 302, headers: ["Location": "myapp://cb?code=c&state=s"])
            }
        }
        let signedIn = try await RedirectFollowingBrowser(transport: identityProvider).authorize(
            page, callback: callback)
        XCTAssertEqual(signedIn.absoluteString, "myapp://cb?code=c&state=s")
        XCTAssertEqual(identityProvider.requests.map(\.url.path), [page.path, "/idp/login", "/callback"])
        let looping = RecordingTransport { _ in HTTPResponseMessage(status: 302, headers: ["Location": "/again"]) }
        await XCTAssertThrowsErrorAsync(
            try await RedirectFollowingBrowser(transport: looping).authorize(page, callback: callback)
        ) { error in
            guard case .unavailable = error as? AuthorizationBrowserError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(looping.requests.count, RedirectFollowingBrowser.maximumRedirects)

        let elsewhere = RecordingTransport { _ in
            HTTPResponseMessage(status: 302, headers: ["Location": "https://collector.example/steal?code=c"])
        }
        await XCTAssertThrowsErrorAsync(
            try await RedirectFollowingBrowser(transport: elsewhere).authorize(page, callback: callback)
        ) { error in
            XCTAssertEqual(error as? AuthorizationBrowserError, .unexpectedRedirect(path: "/steal"))
        }
        let noRedirect = RecordingTransport { _ in HTTPResponseMessage(status: 200) }
        await XCTAssertThrowsErrorAsync(
            try await RedirectFollowingBrowser(transport: noRedirect).authorize(page, callback: callback)
        ) { error in
            guard case .unavailable(let reason)? = error as? AuthorizationBrowserError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(reason.contains("HTTP 200 without a redirect: it waits for a person"), reason)
        }
        let refused = RecordingTransport { _ in
            HTTPResponseMessage(
                status: 400, headers: ["Content-Type": "application/json"],
                body: Data(#"{"error": "invalid_client", "error_description": "No such client"}"#.utf8))
        }
        await XCTAssertThrowsErrorAsync(
            try await RedirectFollowingBrowser(transport: refused).authorize(page, callback: callback)
        ) { error in
            XCTAssertEqual(
                error as? AuthorizationBrowserError,
                .errorPage(
                    status: 400, serverMessage: "invalid_client: No such client",
                    page: "https://as.example/authorize?<redacted>"))
            XCTAssertTrue(
                "\(error)".contains("HTTP 400 at https://as.example/authorize?<redacted>"),
                "the page is named: \(error)")
            XCTAssertFalse("\(error)".contains("state=s"), "its query is not")
        }
    }
}
