import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// Requests the generated Koppeltaal client sends, byte for byte, and the responses it reads.
final class WireTests: XCTestCase {
    private func client(answering status: Int = 200, _ fixture: String, contentType: String = "application/json") throws
        -> (KoppeltaalAPIClient, RecordingTransport)
    {
        let body = try Fixtures.data("Koppeltaal/" + fixture)
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: status, headers: ["Content-Type": contentType], body: body)
        }
        let servers = KoppeltaalAPIClient.Servers(
            fhir: URL(string: "https://ggz.koppeltaal.nl/FHIR/Koppeltaal"),
            launch: URL(string: "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal"),
            authorize: URL(string: "https://ggz.koppeltaal.nl/FHIR/Authorize")
        )
        return (KoppeltaalAPIClient(configuration: .init(servers: servers, transport: transport)), transport)
    }

    /// The OAuth 2.0 client at a Koppeltaal server's token and revocation endpoints.
    private func oauth(
        answering status: Int = 200, _ fixture: String,
        token: URL? = URL(string: "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal/Token")
    ) throws -> (OAuth2APIClient, RecordingTransport) {
        let body = try Fixtures.data("Koppeltaal/" + fixture)
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: body)
        }
        let servers = OAuth2APIClient.Servers(
            token: token, revocation: URL(string: "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal/Revoke"))
        return (OAuth2APIClient(configuration: .init(servers: servers, transport: transport)), transport)
    }

    private func sent(_ transport: RecordingTransport) throws -> String {
        HTTPText.render(try XCTUnwrap(transport.requests.last))
    }

    func testMobileLaunch() async throws {
        let (client, transport) = try client("MobileLaunch/response.json")
        let response = try await client.mobileLaunch(
            .init(
                clientID: "RANJKA", patient: "https://ggzeindhoven.minddistrict.com/Patient/72308",
                user: "https://ggzeindhoven.minddistrict.com/RelatedPerson/452", resource: "RANJKA"),
            credentials: BasicCredentials(username: "portal", password: "s3cr3t")
        )
        XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/MobileLaunch/request.http"))
        XCTAssertEqual(response.activationCode, "593740")
        XCTAssertEqual(response.expiresIn, 7)
        XCTAssertEqual(response.description, "MobileLaunch.Response(activationCode: <redacted>, expiresIn: 7)")
    }

    func testAuthorizeSendsTheSeedQueryAndReadsBothSpellings() async throws {
        for fixture in ["Authorize/response.json", "Authorize/response-british.json"] {
            let (client, transport) = try client(fixture)
            let response = try await client.mobileAuthorize(
                .init(
                    clientID: "RANJKA",
                    redirectURI: "http://test.kickass.ranjgames.com/builds/rev-1005/index-game.html/After-Auth",
                    scope: "patient/*.read launch:593740", state: "98wrghuwuogerg97"
                ))
            XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/Authorize/request.http"))
            XCTAssertEqual(response.authorizationCode, "0db34c09-201b-41da-af41-deee89302f4b", fixture)
        }
    }

    func testRefreshWithBasicClientAuthenticationFormEncodesTheSecret() async throws {
        let (refreshing, transport) = try oauth(
            "Token/response-refresh.json", token: URL(string: "https://localhost/Petrel244/OAuth2/VHProvisioning/Token")
        )
        let response = try KoppeltaalTokenResponse(
            extending: try await refreshing.requestToken(
                .refreshToken(.init(refreshToken: "e54a2533-df44-4e32-bc4d-820c05b2aed0")),
                client: OAuthClientCredentials(clientID: "QMNativeApp", secret: "Who@reU123?", method: .basic)
            ))
        XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/Token/request.http"))
        XCTAssertEqual(response.accessToken, "41aeeebe-14d3-46e9-a994-54e9b5028140")
        XCTAssertEqual(response.refreshToken, "c9141239-aec5-4e0a-af51-7c307d559184")
        XCTAssertNil(response.patient, "refresh responses may drop the launch context")
    }

    func testRefreshWithUnencodedBasicIsTheSeedsRequestByteForByte() async throws {
        let (refreshing, transport) = try oauth(
            "Token/response-refresh.json", token: URL(string: "https://localhost/Petrel244/OAuth2/VHProvisioning/Token")
        )
        _ = try await refreshing.requestToken(
            .refreshToken(.init(refreshToken: "e54a2533-df44-4e32-bc4d-820c05b2aed0")),
            client: OAuthClientCredentials(clientID: "QMNativeApp", secret: "Who@reU123?", method: .unencodedBasic)
        )
        XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/Token/request-seed.http"))
    }

    func testAuthorizationCodeGrantForAPublicClient() async throws {
        let (client, transport) = try oauth("Token/response.json")
        let response = try await client.requestToken(
            .authorizationCode(
                .init(
                    code: "0db34c09-201b-41da-af41-deee89302f4b",
                    redirectURI: "http://test.kickass.ranjgames.com/builds/rev-1005/index-game.html/After-Auth"
                )),
            client: OAuthClientCredentials(clientID: "RANJKA")
        )
        XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/Token/request-authorization-code.http"))
        let patient = "https://ggzeindhoven.minddistrict.com/Patient/72308"
        let resource = "https://ggzeindhoven.minddistrict.com/RelatedPerson/452"
        XCTAssertEqual(
            try KoppeltaalTokenResponse(extending: response),
            KoppeltaalTokenResponse(
                tokenResponse: TokenResponse(
                    accessToken: "f3d421f4-d036-468a-b9aa-de9c777ede95", tokenType: "Bearer", expiresIn: 900,
                    refreshToken: "e54a2533-df44-4e32-bc4d-820c05b2aed0", scope: "patient/*.*",
                    additionalProperties: ["patient": .string(patient), "resource": .string(resource)]),
                patient: patient, resource: resource
            ))
    }

    func testTokenResponseQuirks() throws {
        let response = try JSONCoding.decode(
            KoppeltaalTokenResponse.self, from: Fixtures.data("Koppeltaal/Token/response-quirks.json"))
        XCTAssertEqual(response.expiresIn, 3600, "a numeric string")
        XCTAssertEqual(response.tokenType, "bearer")
        XCTAssertEqual(response.patient, "https://example.org/Patient/1", "the capitalised key")
        XCTAssertEqual(response.domain, "MindDistrict")
        XCTAssertEqual(response.intent, "start")
        XCTAssertNil(response.refreshToken)
    }

    func testRevokeWithRefreshTokenHint() async throws {
        let (client, transport) = try oauth("Revoke/response.json")
        try await client.revoke(
            .init(token: "c9141239-aec5-4e0a-af51-7c307d559184", tokenTypeHint: .refreshToken),
            client: OAuthClientCredentials(clientID: "KTSTESTGAME", secret: "a&b=c")
        )
        XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/Revoke/request.http"))
    }

    func testConformanceJSONWithRestAsAnObject() async throws {
        let (client, transport) = try client("Conformance/response.json")
        let conformance = try await client.conformance()
        XCTAssertEqual(try sent(transport), try Fixtures.text("Koppeltaal/Conformance/request.http"))
        XCTAssertEqual(conformance.fhirVersion, "0.0.82")
        XCTAssertEqual(conformance.rest.count, 1)
        let extensions = try XCTUnwrap(conformance.rest.first?.security?.extensions)
        XCTAssertEqual(
            extensions.map(\.url),
            [
                "http://fhir-registry.smartplatforms.org/Profile/oauth-uris#authorize",
                "http://fhir-registry.smartplatforms.org/Profile/oauth-uris#token",
                "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
            ])
        XCTAssertEqual(extensions[0].valueURI, "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal/Authorize")
        XCTAssertEqual(extensions[2].extensions.map(\.url), ["authorize", "revoke"])
        XCTAssertEqual(extensions[2].extensions[1].valueURI, "/OAuth2/Koppeltaal/Revoke")
    }

    func testConformanceXML() async throws {
        let (client, _) = try client("Conformance/response.xml", contentType: "application/xml+fhir")
        let conformance = try await client.conformance()
        XCTAssertEqual(conformance.fhirVersion, "0.0.82")
        XCTAssertEqual(conformance.format, ["xml", "json"])
        XCTAssertEqual(conformance.rest.first?.mode, "server")
        let extensions = try XCTUnwrap(conformance.rest.first?.security?.extensions)
        XCTAssertEqual(
            extensions.map(\.valueURI),
            [
                "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal/Authorize",
                "https://ggz.koppeltaal.nl/OAuth2/Koppeltaal/Token",
            ])
        XCTAssertEqual(conformance.rest.first?.security?.service.first?.text, "OAuth2")
    }

    /// A newer FHIR server names the same statement CapabilityStatement; any other resource is refused.
    func testCapabilityStatementIsReadAsTheConformance() async throws {
        for (fixture, contentType) in [
            ("Conformance/response.json", "application/json"), ("Conformance/response.xml", "application/xml+fhir"),
        ] {
            let original = try Fixtures.text("Koppeltaal/" + fixture)
            func client(renaming name: String) -> KoppeltaalAPIClient {
                let body = Data(original.replacingOccurrences(of: "Conformance", with: name).utf8)
                let transport = RecordingTransport { _ in
                    HTTPResponseMessage(status: 200, headers: ["Content-Type": contentType], body: body)
                }
                return KoppeltaalAPIClient(
                    configuration: .init(
                        servers: .init(fhir: URL(string: "https://ggz.koppeltaal.nl/FHIR")), transport: transport))
            }
            let capability = try await client(renaming: "CapabilityStatement").conformance()
            let conformance = try await self.client(fixture, contentType: contentType).0.conformance()
            XCTAssertEqual(capability, conformance, fixture)
            do {
                _ = try await client(renaming: "Patient").conformance()
                XCTFail("a Patient is not a capability statement")
            } catch let error as ResponseDecodingError {
                let expected =
                    contentType.contains("xml")
                    ? "expected element <Conformance> or <CapabilityStatement>, found <Patient>"
                    : "resourceType: expected \"Conformance\" or \"CapabilityStatement\", found \"Patient\""
                XCTAssertEqual(error.description, expected, fixture)
            }
        }
    }

    func testOAuthErrorIsTyped() async throws {
        let (client, _) = try oauth(answering: 400, "Token/error.json")
        do {
            _ = try await client.requestToken(
                .refreshToken(.init(refreshToken: "old")), client: OAuthClientCredentials(clientID: "RANJKA"))
            XCTFail("expected an error")
        } catch let error as OAuthError {
            XCTAssertEqual(error.code, .invalidGrant)
            XCTAssertEqual(error.recovery, .discardGrant)
            XCTAssertEqual(error.httpStatus, 400)
            XCTAssertNil(error.message)
            XCTAssertEqual(String(describing: error), "RequestToken failed: OAuthError invalid_grant (HTTP 400)")
        }
    }

    func testHTMLErrorPageIsUnexpectedResponse() async throws {
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(
                status: 503, headers: ["Content-Type": "text/html", "Retry-After": "120"],
                body: Data("<html>down</html>".utf8))
        }
        let client = OAuth2APIClient(
            configuration: .init(servers: .init(token: URL(string: "https://example.org/token")), transport: transport))
        do {
            _ = try await client.requestToken(
                .refreshToken(.init(refreshToken: "rt")), client: OAuthClientCredentials(clientID: "c"))
            XCTFail("expected an error")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.status, 503)
            XCTAssertTrue(error.isTransient)
            XCTAssertEqual(error.response.retryAfter(now: Date()), 120)
        }
    }

    func testMissingServerIsAConfigurationError() async {
        let client = OAuth2APIClient(configuration: .init(transport: RecordingTransport(responses: [])))
        do {
            _ = try await client.requestToken(
                .refreshToken(.init(refreshToken: "rt")), client: OAuthClientCredentials(clientID: "c"))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? ConfigurationError, .missingServer("token"))
        }
    }
}
