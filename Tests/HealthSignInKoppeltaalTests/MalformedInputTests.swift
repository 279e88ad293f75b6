import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInKoppeltaal

/// Every malformed Conformance, token response and error body becomes a typed error (fixtures in
/// Tests/Fixtures/Koppeltaal/Malformed).
final class MalformedInputTests: XCTestCase {
    private static let base = URL(string: "https://kt.example/FHIR/Koppeltaal")!

    /// A session whose transport answers Conformance with `conformance` and the token endpoint with `token`.
    private func session(conformance: (String, String)? = nil, token: (Int, String)? = nil) throws -> KoppeltaalSession
    {
        let conformanceBody = try conformance.map { (try Fixtures.data("Koppeltaal/" + $0.0), $0.1) }
        let tokenBody = try token.map { ($0.0, try Fixtures.data("Koppeltaal/" + $0.1)) }
        let authorize = Data(#"{"authorization_code": "code-1"}"#.utf8)
        let transport = RecordingTransport { request in
            let path = request.url.path
            if path.hasSuffix("/metadata"), let (body, type) = conformanceBody {
                return HTTPResponseMessage(status: 200, headers: ["Content-Type": type], body: body)
            }
            if path.hasSuffix("/Authorize") {
                return HTTPResponseMessage(status: 200, headers: ["Content-Type": "application/json"], body: authorize)
            }
            if path.hasSuffix("/Token"), let (status, body) = tokenBody {
                return HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: body)
            }
            return HTTPResponseMessage(status: 404)
        }
        let overrides =
            conformance == nil
            ? EndpointOverrides(
                authorization: URL(string: "https://kt.example/OAuth2/Koppeltaal/Authorize"),
                token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token"))
            : EndpointOverrides()
        // Every error surfaces at once (activationRetryWindow 0): waiting out outages is ActivationOutageTests' subject.
        return KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: Self.base,
                    client: OAuthClientCredentials(clientID: "c", secret: "s", method: .unencodedBasic),
                    redirectURI: "app://cb", endpoints: overrides), readsSMARTConfiguration: false,
                activationRetryWindow: 0,
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport),
                    clock: ManualClock(Date(timeIntervalSince1970: 1_000_000)), random: SeededRandomSource(seed: "t"))))
    }

    private func activationError(token fixture: String, status: Int = 200) async throws -> any Error {
        do {
            _ = try await session(token: (status, "Malformed/" + fixture)).activate(code: "123456")
        } catch {
            return error
        }
        XCTFail("\(fixture): activation succeeded")
        throw CancellationError()
    }

    func testTokenResponses() async throws {
        var error = try await activationError(token: "token-missing-access-token.json")
        XCTAssertEqual(String(describing: error), "access_token: missing required field")
        error = try await activationError(token: "token-type-mac.json")
        XCTAssertEqual(
            String(describing: error),
            #"Koppeltaal: the token response cannot be used: token_type is "mac", expected Bearer"#)
        error = try await activationError(token: "token-expires-in-garbage.json")
        XCTAssertEqual(String(describing: error), #"expires_in: expected Int, found "soon""#)
        error = try await activationError(token: "token-expires-in-negative.json")
        XCTAssertEqual(
            String(describing: error), "Koppeltaal: the token response cannot be used: expires_in is negative")
    }

    func testLenientTokenResponses() async throws {
        let stringLifetime = try session(token: (200, "Malformed/token-expires-in-string.json"))
        _ = try await stringLifetime.activate(code: "123456")
        await XCTAssertEqualAsync(
            try await stringLifetime.status(),
            .active(LaunchContext(), accessTokenExpiresAt: Date(timeIntervalSince1970: 1_003_600)))
        let noLifetime = try session(token: (200, "Malformed/token-expires-in-absent.json"))
        _ = try await noLifetime.activate(code: "123456")
        await XCTAssertEqualAsync(
            try await noLifetime.status(), .active(LaunchContext(), accessTokenExpiresAt: nil),
            "unknown expiry: only the reactive path refreshes")
    }

    func testErrorBodies() async throws {
        var error = try await activationError(token: "oauth-error-without-code.json", status: 400)
        XCTAssertEqual((error as? UnexpectedResponseError)?.status, 400, "a body without `error` is not an OAuth error")
        error = try await activationError(token: "oauth-error-transient.json", status: 400)
        guard let failure = error as? SignInError, failure.code == .codeRejected, let oauth = failure.serverError else {
            return XCTFail("\(error)")
        }
        XCTAssertEqual(oauth.code, .temporarilyUnavailable)
        XCTAssertEqual(oauth.recovery, .retryLater)
        XCTAssertEqual(oauth.body.errorURI, "https://as.example/errors")
        let outcome = HTTPResponseMessage(
            status: 401, headers: ["Content-Type": "application/json+fhir"],
            body: try Fixtures.data("Koppeltaal/Malformed/outcome-issue-not-array.json"))
        XCTAssertTrue(
            HTTPClientCore.error(
                for: outcome, operation: "FHIR", formats: [KoppeltaalAPIClient.ErrorFormats.operationOutcomeError])
                is UnexpectedResponseError)
    }

    func testConformances() async throws {
        let cases: [(String, String, String)] = [
            (
                "conformance-html.html", "text/html",
                "Conformance: unexpected HTTP 200 response (text/html, 32 bytes): the body is not JSON"
            ),
            (
                "conformance-wrong-resource.json", "application/json",
                #"resourceType: expected "Conformance" or "CapabilityStatement", found "Patient""#
            ),
            (
                "conformance-no-rest.json", "application/json",
                "Koppeltaal: the server at https://kt.example/FHIR/Koppeltaal names no authorization_endpoint or "
                    + "token_endpoint; configure it in the registration's endpoints"
            ),
            (
                "conformance-token-missing.json", "application/json",
                "Koppeltaal: the server at https://kt.example/FHIR/Koppeltaal names no token_endpoint; configure it in "
                    + "the registration's endpoints"
            ),
            (
                "conformance-truncated.xml", "application/xml+fhir",
                "malformed XML at line 2, column 1: unexpected end of the document inside <Conformance>"
            ),
        ]
        for (fixture, type, message) in cases {
            do {
                _ = try await session(conformance: ("Malformed/" + fixture, type)).discover()
                XCTFail("\(fixture): discovery succeeded")
            } catch {
                XCTAssertEqual(String(describing: error), message, fixture)
            }
        }
    }
}

/// Discovery details that need no server.
final class DiscoveryTests: XCTestCase {
    private func conformance(_ extensions: [FHIRExtension], mode: String? = "server") -> ConformanceStatement {
        ConformanceStatement(rest: [
            ConformanceRest(mode: "client"),
            ConformanceRest(mode: mode, security: ConformanceSecurity(extensions: extensions)),
        ])
    }

    func testPreferenceAndCaseInsensitiveFragments() {
        let uris = ConformanceEndpoints.uris(
            in: conformance([
                FHIRExtension(
                    url: "http://fhir-registry.smartplatforms.org/Profile/oauth-uris#Authorize",
                    valueURI: "f1-authorize"),
                FHIRExtension(
                    url: "http://fhir-registry.smarthealthit.org/Profile/oauth-uris#token", valueURI: "f2-token"),
                FHIRExtension(
                    url: "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris#TOKEN",
                    valueURI: "f3-token"),
                FHIRExtension(
                    url: "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
                    extensions: [
                        FHIRExtension(url: "revoke", valueURI: "f4-revoke"),
                        FHIRExtension(url: "token", valueURI: "f4-token"),
                    ]),
                FHIRExtension(url: "http://example.org/other#token", valueURI: "ignored"),
            ]))
        XCTAssertEqual(uris, ["authorize": "f1-authorize", "token": "f4-token", "revoke": "f4-revoke"])
    }

    func testThePKCEVectorOfRFC7636() {
        let pkce = PKCEPair(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        XCTAssertEqual(pkce.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        XCTAssertFalse(pkce.description.contains("dBjf"))
        XCTAssertEqual(PKCEPair(random: SeededRandomSource(seed: "x")).verifier.count, 43)
    }

    func testBearerChallenges() {
        let response = HTTPResponseMessage(
            status: 401,
            headers: [
                "WWW-Authenticate":
                    #"Bearer realm="kt", error="invalid_token", error_description="The \"token\" expired""#
            ])
        XCTAssertEqual(response.bearerError, "invalid_token")
        XCTAssertEqual(
            response.authenticationChallenges.first?.parameters["error_description"], #"The "token" expired"#)
        XCTAssertEqual(UnexpectedResponseError(operation: "FHIR", response: response).recovery, .refreshCredential)
        XCTAssertEqual(
            UnexpectedResponseError(operation: "FHIR", response: HTTPResponseMessage(status: 401)).recovery,
            .refreshCredential
        )
        let forbidden = HTTPResponseMessage(
            status: 403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope""#])
        XCTAssertEqual(UnexpectedResponseError(operation: "FHIR", response: forbidden).recovery, .none)
        let scope = HTTPResponseMessage(
            status: 401, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope""#])
        XCTAssertEqual(
            UnexpectedResponseError(operation: "FHIR", response: scope).recovery, .none,
            "only invalid_token means expired")
    }
}
