import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTesting
import XCTest

/// A pending authorization's secrets, what its redirect may say, and the parameters an app adds to the request.
final class AuthorizationTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func pending(openID: Bool = true) -> PendingAuthorization {
        PendingAuthorization(
            random: SeededRandomSource(seed: "authorization"), openID: openID, redirectURI: "app://cb",
            endpoints: OAuthEndpoints(
                baseURL: URL(string: "https://fhir.example")!, token: URL(string: "https://fhir.example/token")!),
            startedAt: start)
    }

    /// The code of `redirect`, or the code of the ``SignInError`` it throws.
    private func outcome(_ request: PendingAuthorization, _ redirect: String, after seconds: TimeInterval = 10)
        -> String
    {
        do {
            return try request.code(
                from: URL(string: redirect)!, at: start.addingTimeInterval(seconds), lifetime: 600, family: "Test")
        } catch {
            return "error \(error.code)"
        }
    }

    func testSecretsAreFreshAndTheChallengeIsTheVerifiers() {
        let request = pending()
        XCTAssertEqual(request.codeVerifier.count, 43)
        XCTAssertEqual(request.state.count, 43)
        XCTAssertNotNil(request.nonce)
        XCTAssertNil(pending(openID: false).nonce)
        XCTAssertEqual(request.pkce.challenge, PKCEPair(verifier: request.codeVerifier).challenge)
        XCTAssertEqual(request.verifierToSend, request.codeVerifier)
        XCTAssertFalse(request.description.contains(request.state))
        XCTAssertTrue(request.accepts(state: request.state))
        XCTAssertFalse(request.accepts(state: request.state + "x"))
        let withoutPKCE = PendingAuthorization(
            random: SeededRandomSource(seed: "authorization"), openID: false, usesPKCE: false, redirectURI: "app://cb",
            endpoints: request.endpoints, startedAt: start)
        XCTAssertNil(withoutPKCE.verifierToSend)
    }

    func testTheRedirectIsCheckedStateFirst() throws {
        let request = pending()
        let state = request.state
        XCTAssertEqual(outcome(request, "app://cb?code=c1&state=\(state)"), "c1")
        XCTAssertEqual(outcome(request, "app://cb?code=c1&state=other"), "error stateMismatch")
        XCTAssertEqual(outcome(request, "app://cb?error=access_denied"), "error stateMismatch")
        XCTAssertEqual(outcome(request, "app://cb?code=c1&state=\(state)", after: 601), "error authorizationExpired")
        XCTAssertEqual(outcome(request, "app://cb?state=\(state)"), "error authorizationDenied")
        do {
            _ = try request.code(
                from: URL(string: "app://cb?error=access_denied&error_description=no&state=\(state)")!, at: start,
                lifetime: 600, family: "Test")
            XCTFail("an error redirect gave a code")
        } catch {
            XCTAssertEqual(error.code, .authorizationDenied)
            XCTAssertEqual(error.serverError?.code, .accessDenied)
            XCTAssertEqual(error.serverError?.message, "no")
            XCTAssertTrue(error.description.contains("access_denied: no"), error.description)
        }
    }

    /// RFC 6749 §4.1.2: the answer is form-encoded, so `+` is a space and `%2B` a plus.
    func testTheRedirectsParametersAreFormDecoded() {
        let request = pending()
        do {
            _ = try request.code(
                from: URL(
                    string:
                        "app://cb?error=access_denied&error_description=The+user+said+no%2Bthanks&state=\(request.state)"
                )!,
                at: start, lifetime: 600, family: "Test")
            XCTFail("an error redirect gave a code")
        } catch {
            XCTAssertEqual(error.serverError?.message, "The user said no+thanks")
        }
    }

    /// RFC 6749 §3.1: no parameter may be repeated; first-wins would let a query kept on the redirect URI put an
    /// attacker's value before the server's.
    func testAResponseThatRepeatsAParameterIsRefused() {
        let request = pending()
        let state = request.state
        for repeated in [
            "app://cb?code=c1&state=\(state)&code=c2", "app://cb?state=\(state)&code=c1&state=\(state)",
            "app://cb?iss=https%3A%2F%2Fevil.example&code=c1&state=\(state)&iss=https%3A%2F%2Ffhir.example",
            "app://cb?error=a&code=c1&state=\(state)&error=b",
        ] {
            XCTAssertEqual(outcome(request, repeated), "error malformedAuthorizationResponse", repeated)
        }
    }

    func testTheResponseMustArriveAtTheRequestsRedirectURIAndNameItsIssuer() throws {
        let base = URL(string: "https://fhir.example")!
        func pending(issuer: String?, always: Bool = false) -> PendingAuthorization {
            PendingAuthorization(
                random: SeededRandomSource(seed: "issuer"), openID: true, redirectURI: "app://cb/ehr-1",
                endpoints: OAuthEndpoints(
                    baseURL: base, issuer: issuer, issuerParameterSupported: always,
                    token: URL(string: "https://fhir.example/token")!),
                startedAt: start)
        }
        func code(_ request: PendingAuthorization, _ tail: String, at uri: String = "app://cb/ehr-1") -> String {
            outcome(request, "\(uri)?code=c1&state=\(request.state)" + tail, after: 0)
        }
        let named = pending(issuer: "https://auth.fhir.example")
        XCTAssertEqual(code(named, "&iss=https%3A%2F%2Fauth.fhir.example"), "c1")
        XCTAssertEqual(code(named, ""), "c1", "a server that does not say it always sends iss may leave it out")
        XCTAssertEqual(code(named, "&iss=https%3A%2F%2Fhonest.example"), "error issuerMismatch")
        XCTAssertEqual(code(named, "&error=access_denied&iss=https%3A%2F%2Fhonest.example"), "error issuerMismatch")
        XCTAssertEqual(code(pending(issuer: "https://auth.fhir.example", always: true), ""), "error issuerMismatch")
        XCTAssertEqual(code(pending(issuer: nil), "&iss=https%3A%2F%2Ffhir.example"), "c1", "the base URL")
        let withQuery = PendingAuthorization(
            random: SeededRandomSource(seed: "query"), openID: false, redirectURI: "https://app.example/cb?tenant=a",
            endpoints: named.endpoints, startedAt: start)
        XCTAssertEqual(
            outcome(withQuery, "https://app.example/cb?tenant=a&code=c2&state=\(withQuery.state)", after: 0), "c2",
            "a redirect URI may have a query of its own")
        for other in ["app://cb/ehr-2", "app://cb", "app://cb/ehr-1/x", "https://evil.example/app://cb/ehr-1"] {
            XCTAssertEqual(code(named, "", at: other), "error redirectMismatch", other)
        }
        XCTAssertEqual(SignInError.Code.redirectMismatch.recovery, ErrorRecovery.none, "it keeps waiting")
    }

    func testOfflineAccessWithOpenIDAsksForConsentUnlessTheAppChoseAPrompt() throws {
        let offline = ["openid", "fhirUser", "offline_access"]
        func prompt(_ parameters: AuthorizationParameters, _ scopes: [String]) throws -> String? {
            try parameters.prompt(for: scopes, family: "Test")
        }
        XCTAssertEqual(try prompt(AuthorizationParameters(), offline), "consent")
        XCTAssertNil(try prompt(AuthorizationParameters(), ["openid", "online_access"]))
        XCTAssertNil(try prompt(AuthorizationParameters(), ["offline_access", "patient/*.rs"]))
        XCTAssertEqual(try prompt(AuthorizationParameters(prompt: "login"), offline), "login")
        XCTAssertEqual(try prompt(AuthorizationParameters(prompt: "login consent"), []), "login consent")
        XCTAssertNil(try prompt(AuthorizationParameters(prompt: ""), offline), "an empty prompt sends none")
        for invalid in ["none login", "login  consent", " consent"] {
            XCTAssertThrowsError(try prompt(AuthorizationParameters(prompt: invalid), [])) {
                XCTAssertEqual(($0 as? SignInError)?.code, .invalidAuthorizationParameters)
            }
        }
    }

    /// Reserved names are compared without regard to case, and include what would replace the SDK's parameters:
    /// a request object or its URI, and the response mode.
    func testAdditionalParametersMayNotTakeTheProtocolsNames() throws {
        let parameters = AuthorizationParameters(additional: ["ui_locales": "nl en", "acr_values": "urn:a/b"])
        XCTAssertEqual(
            try parameters.additionalParameters(protocolNames: ["launch"], family: "Test"), parameters.additional)
        for reserved in [
            "state", "prompt", "Redirect_URI", "CLIENT_ID", "request", "Request_URI", "response_mode", "Launch",
            "vendor_param",
        ] {
            XCTAssertThrowsError(
                try AuthorizationParameters(additional: [reserved: "x", "login_hint": "a"]).additionalParameters(
                    protocolNames: ["vendor_param"], family: "Test")
            ) { error in
                XCTAssertEqual((error as? SignInError)?.code, .invalidAuthorizationParameters, reserved)
            }
        }
    }
}
