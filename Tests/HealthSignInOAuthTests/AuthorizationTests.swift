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

    func testSecretsAreFreshAndTheChallengeIsTheVerifiers() {
        let request = pending()
        XCTAssertEqual(request.codeVerifier.count, 43)
        XCTAssertEqual(request.state.count, 43)
        XCTAssertNotNil(request.nonce)
        XCTAssertNil(pending(openID: false).nonce)
        XCTAssertEqual(request.pkce.challenge, PKCEPair(verifier: request.codeVerifier).challenge)
        XCTAssertFalse(request.description.contains(request.state))
    }

    func testTheRedirectIsCheckedStateFirst() throws {
        let request = pending()
        func code(_ query: String, after seconds: TimeInterval = 10) throws(AuthorizationResponseError) -> String {
            try request.code(
                from: URL(string: "app://cb?" + query)!, at: start.addingTimeInterval(seconds), lifetime: 600)
        }
        XCTAssertEqual(try code("code=c1&state=\(request.state)"), "c1")
        XCTAssertThrowsError(try code("code=c1&state=other")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .stateMismatch)
        }
        XCTAssertThrowsError(try code("error=access_denied")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .stateMismatch, "no state: not this request's answer")
        }
        XCTAssertThrowsError(try code("code=c1&state=\(request.state)", after: 601)) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .expired)
        }
        XCTAssertThrowsError(try code("error=access_denied&error_description=no&state=\(request.state)")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .denied(error: "access_denied", description: "no"))
        }
        XCTAssertThrowsError(try code("state=\(request.state)")) {
            XCTAssertEqual(
                $0 as? AuthorizationResponseError,
                .denied(error: "invalid_request", description: "the redirect has no code"))
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
        func code(_ request: PendingAuthorization, _ tail: String, at uri: String = "app://cb/ehr-1") throws -> String {
            try request.code(
                from: URL(string: "\(uri)?code=c1&state=\(request.state)" + tail)!, at: start, lifetime: 600)
        }
        let named = pending(issuer: "https://auth.fhir.example")
        XCTAssertEqual(try code(named, "&iss=https%3A%2F%2Fauth.fhir.example"), "c1")
        XCTAssertEqual(try code(named, ""), "c1", "a server that does not say it always sends iss may leave it out")
        XCTAssertThrowsError(try code(named, "&iss=https%3A%2F%2Fhonest.example")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .issuerMismatch("https://honest.example"))
        }
        XCTAssertThrowsError(try code(named, "&error=access_denied&iss=https%3A%2F%2Fhonest.example")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .issuerMismatch("https://honest.example"), "errors too")
        }
        XCTAssertThrowsError(try code(pending(issuer: "https://auth.fhir.example", always: true), "")) {
            XCTAssertEqual($0 as? AuthorizationResponseError, .issuerMismatch(nil))
        }
        XCTAssertEqual(try code(pending(issuer: nil), "&iss=https%3A%2F%2Ffhir.example"), "c1", "the base URL")
        let withQuery = PendingAuthorization(
            random: SeededRandomSource(seed: "query"), openID: false, redirectURI: "https://app.example/cb?tenant=a",
            endpoints: named.endpoints, startedAt: start)
        XCTAssertEqual(
            try withQuery.code(
                from: URL(string: "https://app.example/cb?tenant=a&code=c2&state=\(withQuery.state)")!, at: start,
                lifetime: 600), "c2", "a redirect URI may have a query of its own")
        for other in ["app://cb/ehr-2", "app://cb", "app://cb/ehr-1/x", "https://evil.example/app://cb/ehr-1"] {
            XCTAssertThrowsError(try code(named, "", at: other), other) {
                XCTAssertEqual($0 as? AuthorizationResponseError, .redirectMismatch)
                XCTAssertEqual(($0 as? AuthorizationResponseError)?.recovery, ErrorRecovery.none, "it keeps waiting")
            }
        }
    }

    func testOfflineAccessWithOpenIDAsksForConsentUnlessTheAppChoseAPrompt() throws {
        let offline = ["openid", "fhirUser", "offline_access"]
        XCTAssertEqual(try AuthorizationParameters().prompt(for: offline), "consent")
        XCTAssertNil(try AuthorizationParameters().prompt(for: ["openid", "online_access"]))
        XCTAssertNil(try AuthorizationParameters().prompt(for: ["offline_access", "patient/*.rs"]))
        XCTAssertEqual(try AuthorizationParameters(prompt: "login").prompt(for: offline), "login")
        XCTAssertEqual(try AuthorizationParameters(prompt: "login consent").prompt(for: []), "login consent")
        XCTAssertNil(try AuthorizationParameters(prompt: "").prompt(for: offline), "an empty prompt sends none")
        for invalid in ["none login", "login  consent", " consent"] {
            XCTAssertThrowsError(try AuthorizationParameters(prompt: invalid).prompt(for: [])) {
                XCTAssertEqual($0 as? AuthorizationRequestError, .invalidPrompt(invalid))
            }
        }
    }

    func testAdditionalParametersMayNotTakeTheProtocolsNames() throws {
        let parameters = AuthorizationParameters(additional: ["ui_locales": "nl en", "acr_values": "urn:a/b"])
        XCTAssertEqual(try parameters.additionalParameters(reserved: ["state"]), parameters.additional)
        for reserved in ["state", "prompt"] {
            XCTAssertThrowsError(
                try AuthorizationParameters(additional: [reserved: "x", "login_hint": "a"]).additionalParameters(
                    reserved: ["state"])
            ) { error in
                XCTAssertEqual(error as? AuthorizationRequestError, .reservedParameter(reserved))
            }
        }
    }
}
