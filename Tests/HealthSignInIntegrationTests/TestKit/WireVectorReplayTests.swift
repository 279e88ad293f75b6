import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// The wire vectors the family tests compare the SDK's requests with, sent to the in-process servers: each is
/// accepted as recorded, with only what a server alone can issue (a code, a token, a launch, an id) swapped for one
/// that server issued. A tampered HealthVault vector is refused, as the emulator refuses it.
final class WireVectorReplayTests: XCTestCase {
    // MARK: - HealthVault (protocols/healthvault.md §8.3, R1–R5)

    private static let child = UUID(uuidString: "b5c5593b-afb4-466d-88f2-31707fb8634b")!

    private static func status(of response: HTTPResponseMessage) -> String? {
        let text = String(decoding: response.body, as: UTF8.self)
        guard let start = text.range(of: "<code>"), let end = text.range(of: "</code>") else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    func testTheHealthVaultVectorsAreAcceptedAsRecordedAndATamperedOneIsNot() async throws {
        // The vectors' time, 2017-08-10 12:34:56 UTC, with their application and session.
        let server = HealthVaultTestServer(clock: ManualClock(Date(timeIntervalSince1970: 1_502_368_496)))
        server.registerApplication(id: Self.child, sharedSecret: "bYmBR7gCnkc48amiuhiod6g5qQU0gYioqA3KA+3qCjo=")
        server.openSession(
            token: "ASAAAHVzlWa6ExampleSessionTokenForTestVectorsOnly0123456789abcdef==",
            sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", applicationID: Self.child)
        let vectors = [
            "NewApplicationCreationInfo/request.xml", "GetServiceDefinition/request.xml",
            "CreateAuthenticatedSessionToken/request.xml", "GetAuthorizedPeople/request.xml",
            "GetAuthorizedPeople/request-next-page.xml",
        ]
        for vector in vectors {
            let body = try Fixtures.data("HealthVault/" + vector)
            let response = try await server.transport.send(
                HTTPRequestMessage(
                    method: .post, url: server.platformURL(), headers: ["Content-Type": "text/xml; charset=utf-8"],
                    body: body))
            XCTAssertEqual(
                Self.status(of: response), "0", "\(vector): \(String(decoding: response.body, as: UTF8.self))")
        }
        let tampered = try Fixtures.text("HealthVault/GetAuthorizedPeople/request.xml")
            .replacingOccurrences(of: "<msg-ttl>1800</msg-ttl>", with: "<msg-ttl>1801</msg-ttl>")
        let refused = try await server.transport.send(
            HTTPRequestMessage(method: .post, url: server.platformURL(), body: Data(tampered.utf8)))
        XCTAssertEqual(Self.status(of: refused), "4", "the header's HMAC no longer matches")
        XCTAssertEqual(server.ledger.count(.getAuthorizedPeople), 3)
    }

    // MARK: - SMART (the IG's examples)

    private static let igRedirect = "https://sharp-lake-word.glitch.me/graph.html"

    /// A code the server issued for the IG's authorization request (its launch swapped for one minted here).
    private static func code(at server: SMARTTestServer) async throws -> String {
        let launch = server.mintLaunch(.init(clientID: "demo_app_whatever", patient: "87a339d0"))
        let recorded = try Fixtures.text("SMART/Authorize/url.txt").trimmingCharacters(in: .whitespacesAndNewlines)
        let url = try XCTUnwrap(
            URL(string: recorded.replacingOccurrences(of: "launch=xyz123", with: "launch=" + launch)))
        let redirect = try await XCTUnwrapAsync(try await TestUserBrowser.visit(url, through: server.transport))
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        XCTAssertEqual(items.first { $0.name == "state" }?.value, "98wrghuwuogerg97")
        return try XCTUnwrap(items.first { $0.name == "code" }?.value, "\(redirect)")
    }

    private static func json(_ response: HTTPResponseMessage) throws -> JSONObject {
        try XCTUnwrap(try JSONValue.parse(response.body).objectValue)
    }

    func testTheSMARTVectorsAreAcceptedAsRecorded() async throws {
        let base = try XCTUnwrap(URL(string: "https://ehr.example.com/fhir"))
        let server = SMARTTestServer(fhirBaseURL: base)
        server.register(.init(id: "demo_app_whatever", authentication: .none, redirectURIs: [Self.igRedirect]))
        let discovery = try await server.transport.send(try WireVector("SMART/GetConfiguration/request.http").request)
        XCTAssertEqual(discovery.status, 200)

        let token = try WireVector("SMART/Token/request.http").replayed(form: ["code": try await Self.code(at: server)])
        let tokens = try Self.json(try await server.transport.send(token))
        let accessToken = try XCTUnwrap(tokens["access_token"]?.stringValue, "\(tokens)")
        XCTAssertEqual(tokens["patient"]?.stringValue, "87a339d0")
        XCTAssertNotNil(tokens["id_token"]?.stringValue)

        let introspection = try WireVector("SMART/Introspect/request.http").replayed(
            form: ["token": accessToken], headers: ["Authorization": "Bearer " + accessToken])
        let introspected = try Self.json(try await server.transport.send(introspection))
        XCTAssertEqual(introspected["active"], true)
        let revocation = try WireVector("SMART/Revoke/request.http").replayed(form: ["token": accessToken])
        let revoked = try await server.transport.send(revocation)
        XCTAssertEqual(revoked.status, 200)

        // The same code redemption by a confidential client, authenticating with Basic.
        let confidential = SMARTTestServer(fhirBaseURL: base)
        confidential.register(
            .init(
                id: "demo_app_whatever", authentication: .secretBasic("secret-key-1234567890"),
                redirectURIs: [Self.igRedirect]))
        let basic = try WireVector("SMART/Token/request-basic.http").replayed(
            form: ["code": try await Self.code(at: confidential)])
        let basicTokens = try Self.json(try await confidential.transport.send(basic))
        XCTAssertNotNil(basicTokens["access_token"])
    }

    // MARK: - Koppeltaal

    func testTheKoppeltaalVectorsAreAcceptedAsRecorded() async throws {
        let portal = BasicCredentials(username: "portal", password: "s3cr3t")
        let server = KoppeltaalTestServer(
            baseURL: try XCTUnwrap(URL(string: "https://ggz.koppeltaal.nl")), portalCredentials: portal)
        let redirect = "http://test.kickass.ranjgames.com/builds/rev-1005/index-game.html/After-Auth"
        server.register(.init(id: "RANJKA", authentication: [.none], redirectURIs: [redirect]))
        let launch = try Self.json(
            try await server.transport.send(try WireVector("Koppeltaal/MobileLaunch/request.http").request))
        let activation = try XCTUnwrap(launch["activation_code"]?.stringValue, "\(launch)")
        let conformance = try await server.transport.send(try WireVector("Koppeltaal/Conformance/request.http").request)
        XCTAssertEqual(conformance.status, 200)

        // Recorded at a discovered endpoint of its own; sent to this server's, with its query as recorded.
        let authorize = try WireVector("Koppeltaal/Authorize/request.http").replayed(
            at: server.authorizationURL, query: ["scope": "patient/*.read launch:" + activation])
        let authorized = try Self.json(try await server.transport.send(authorize))
        let code = try XCTUnwrap(authorized["authorization_code"]?.stringValue, "\(authorized)")
        let token = try WireVector("Koppeltaal/Token/request-authorization-code.http").replayed(form: ["code": code])
        let tokens = try Self.json(try await server.transport.send(token))
        XCTAssertNotNil(tokens["access_token"], "\(tokens)")
        XCTAssertEqual(tokens["patient"]?.stringValue, "https://ggzeindhoven.minddistrict.com/Patient/72308")

        // The refresh vectors of a client whose secret needs encoding: as sent (the seed) for a server that reads
        // Basic as it is, form-decoded for one that follows RFC 6749 §2.3.1.
        for (vector, decoding) in [("request-seed", KoppeltaalTestServer.BasicDecoding.raw), ("request", .rfc6749)] {
            server.settings.basicDecoding = decoding
            server.register(.init(id: "QMNativeApp", secret: "Who@reU123?", authentication: [.basic, .post]))
            let refreshToken = try await Self.refreshToken(for: "QMNativeApp", secret: "Who@reU123?", at: server)
            let refresh = try WireVector("Koppeltaal/Token/\(vector).http").replayed(
                at: server.tokenURL, form: ["refresh_token": refreshToken])
            let refreshed = try await server.transport.send(refresh)
            XCTAssertEqual(refreshed.status, 200, "\(vector): \(String(decoding: refreshed.body, as: UTF8.self))")
        }
        server.register(.init(id: "KTSTESTGAME", secret: "a&b=c", authentication: [.basic, .post]))
        let refreshToken = try await Self.refreshToken(for: "KTSTESTGAME", secret: "a&b=c", at: server)
        let revoke = try WireVector("Koppeltaal/Revoke/request.http").replayed(form: ["token": refreshToken])
        let revoked = try await server.transport.send(revoke)
        XCTAssertEqual(revoked.status, 200)
        XCTAssertEqual(server.ledger.count(refused: .revoke), 0)
    }

    /// A refresh token the server issued to `client` through a launch of its own.
    private static func refreshToken(for client: String, secret: String, at server: KoppeltaalTestServer)
        async throws -> String
    {
        let code = server.activationCode(clientID: client)
        var authorize = URLComponents(url: server.authorizationURL, resolvingAgainstBaseURL: false)
        authorize?.queryItems = [
            .init(name: "response_type", value: "code"), .init(name: "client_id", value: client),
            .init(name: "scope", value: "patient/*.read launch:" + code),
        ]
        let answer = try json(
            try await server.transport.send(HTTPRequestMessage(method: .get, url: try XCTUnwrap(authorize?.url))))
        var form = FormFields()
        form.append("grant_type", "authorization_code")
        form.append("code", answer["authorization_code"]?.stringValue ?? "")
        form.append("client_id", client)
        form.append("client_secret", secret)
        let tokens = try json(
            try await server.transport.send(
                HTTPRequestMessage(
                    method: .post, url: server.tokenURL,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.formEncoded.utf8))))
        return try XCTUnwrap(tokens["refresh_token"]?.stringValue, "\(tokens)")
    }

    // MARK: - Vital

    func testTheVitalVectorsAreAcceptedAsRecorded() async throws {
        let server = VitalTestServer(
            apiURL: try XCTUnwrap(URL(string: "https://api.sandbox.us.junction.com")),
            authURL: try XCTUnwrap(URL(string: "https://auth.sandbox.us.junction.com")))
        let created = try Self.json(
            try await server.transport.send(try WireVector("Vital/CreateUser/request.http").request))
        let user = try XCTUnwrap(created["user_id"]?.stringValue, "\(created)")
        let minted = try Self.json(
            try await server.transport.send(
                try WireVector("Vital/CreateSignInToken/request.http").replayed(
                    path: (old: "6e5a3a8b-2f3c-4c5e-9a51-1f0c2b7d9e10", new: user))))
        let envelope = try XCTUnwrap(minted["sign_in_token"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        let userToken = try XCTUnwrap(try JSONValue.parse(envelope)["user_token"]?.stringValue)
        let exchanged = try Self.json(
            try await server.transport.send(
                try WireVector("Vital/ExchangeSignInToken/request.http").replayed(form: ["subject_token": userToken])))
        let refreshToken = try XCTUnwrap(exchanged["refresh_token"]?.stringValue, "\(exchanged)")
        let refreshed = try await server.transport.send(
            try WireVector("Vital/RefreshToken/request.http").replayed(form: ["refresh_token": refreshToken]))
        XCTAssertEqual(refreshed.status, 200)
    }
}
