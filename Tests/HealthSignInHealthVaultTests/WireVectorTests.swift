import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The generated HealthVault client against the byte-exact vectors of protocols/healthvault.md §8.3 (R1–R5).
final class WireVectorTests: XCTestCase {
    static let master = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    static let child = UUID(uuidString: "b5c5593b-afb4-466d-88f2-31707fb8634b")!
    static let appSecret = "bYmBR7gCnkc48amiuhiod6g5qQU0gYioqA3KA+3qCjo="
    static let session = HealthVaultSessionCredential(
        token: "ASAAAHVzlWa6ExampleSessionTokenForTestVectorsOnly0123456789abcdef==",
        sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
    )
    static let personID = UUID(uuidString: "cc5e5771-4da7-4961-a758-d7714223d9ab")!

    /// A client frozen at 2017-08-10 12:34:56 UTC whose transport answers every request with `response`.
    private func client(answering response: String) throws -> (HealthVaultAPIClient, RecordingTransport) {
        let body = try Fixtures.data("HealthVault/\(response)")
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: 200, headers: ["Content-Type": "text/xml"], body: body)
        }
        let configuration = HealthVaultAPIClient.Configuration(
            servers: .init(platform: URL(string: "https://platform.healthvault-ppe.com/platform/wildcat.ashx")),
            transport: transport,
            clock: ManualClock(Date(timeIntervalSince1970: 1_502_368_496)),
            envelope: .init(clientVersion: "HV-Swift/1.0.0 iOS 17.0")
        )
        return (HealthVaultAPIClient(configuration: configuration), transport)
    }

    private func sentBody(_ transport: RecordingTransport) throws -> String {
        let request = try XCTUnwrap(transport.requests.last)
        XCTAssertEqual(request.method, .post)
        XCTAssertEqual(request.url.absoluteString, "https://platform.healthvault-ppe.com/platform/wildcat.ashx")
        XCTAssertEqual(request.headers["Content-Type"], "text/xml; charset=utf-8")
        return String(decoding: try XCTUnwrap(request.body), as: UTF8.self)
    }

    /// The substring from `<name` to `</name>` (or `<name />`), as sent.
    private func region(_ name: String, in body: String) throws -> String {
        if let empty = body.range(of: "<\(name) />") { return String(body[empty]) }
        let start = try XCTUnwrap(body.range(of: "<\(name)>") ?? body.range(of: "<\(name) "), "no <\(name)> in \(body)")
        let end = try XCTUnwrap(body.range(of: "</\(name)>", range: start.upperBound..<body.endIndex))
        return String(body[start.lowerBound..<end.upperBound])
    }

    private func text(of element: String, in body: String) throws -> String {
        let whole = try region(element, in: body)
        let open = try XCTUnwrap(whole.firstIndex(of: ">"))
        let close = try XCTUnwrap(whole.range(of: "</", options: .backwards))
        return String(whole[whole.index(after: open)..<close.lowerBound])
    }

    private func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    func testR1NewApplicationCreationInfo() async throws {
        let (client, transport) = try client(answering: "NewApplicationCreationInfo/response.xml")
        _ = try await client.newApplicationCreationInfo(applicationID: Self.master)
        XCTAssertEqual(try sentBody(transport), try Fixtures.text("HealthVault/NewApplicationCreationInfo/request.xml"))
    }

    func testR2GetServiceDefinitionTopology() async throws {
        let (client, transport) = try client(answering: "GetServiceDefinition/response.xml")
        _ = try await client.getServiceDefinition(applicationID: Self.master)
        XCTAssertEqual(try sentBody(transport), try Fixtures.text("HealthVault/GetServiceDefinition/request.xml"))
    }

    func testR3CreateAuthenticatedSessionToken() async throws {
        let (client, transport) = try client(answering: "CreateAuthenticatedSessionToken/response.xml")
        let application = HealthVaultApplicationCredential(applicationID: Self.child, sharedSecret: Self.appSecret)
        _ = try await client.createAuthenticatedSessionToken(application: application)
        let body = try sentBody(transport)
        XCTAssertEqual(body, try Fixtures.text("HealthVault/CreateAuthenticatedSessionToken/request.xml"))

        // The signature covers exactly the <content> bytes that were sent, keyed with the decoded app secret.
        let content = try region("content", in: body)
        XCTAssertEqual(
            content,
            "<content><app-id>b5c5593b-afb4-466d-88f2-31707fb8634b</app-id><hmac>HMACSHA256</hmac><signing-time>2017-08-10T12:34:56.000Z</signing-time></content>"
        )
        let key = try XCTUnwrap(Data(base64Encoded: Self.appSecret))
        XCTAssertEqual(
            base64(CryptoPrimitives.hmacSHA256(key: key, message: Array(content.utf8))),
            "/bBGBRjkzIakXNsSU+mWXUvuY6bgcGTt4OAeLF8p9bc=")
        XCTAssertEqual(try text(of: "hmacSig", in: body), "/bBGBRjkzIakXNsSU+mWXUvuY6bgcGTt4OAeLF8p9bc=")
        // Anonymous: no <auth> and no info-hash.
        XCTAssertFalse(body.contains("<auth>"))
        XCTAssertFalse(body.contains("info-hash"))
    }

    func testR4GetAuthorizedPeopleFirstPage() async throws {
        let (client, transport) = try client(answering: "GetAuthorizedPeople/response.xml")
        _ = try await client.getAuthorizedPeople(session: Self.session)
        let body = try sentBody(transport)
        XCTAssertEqual(body, try Fixtures.text("HealthVault/GetAuthorizedPeople/request.xml"))
        try assertSigned(
            body, infoHash: "E+XYMuNGG7NqMlAk7vbG03vAkWwOiBxrZIqv1g9zyc4=",
            hmacData: "2opPv4RQGErNoK14EqxILSFImVoeNE3EHw6PbyYvs3w=")
    }

    func testR5GetAuthorizedPeopleNextPage() async throws {
        let (client, transport) = try client(answering: "GetAuthorizedPeople/response.xml")
        let request = GetAuthorizedPeople.Request(parameters: .init(personIDCursor: Self.personID, numResults: 2))
        _ = try await client.getAuthorizedPeople(request, session: Self.session)
        let body = try sentBody(transport)
        XCTAssertEqual(body, try Fixtures.text("HealthVault/GetAuthorizedPeople/request-next-page.xml"))
        try assertSigned(
            body, infoHash: "ljUYUj0xZTspzp/dnB1MPaJI4ZGO2zzBm+bVctj6Gjg=",
            hmacData: "Q3STprDSAncJgZ73lJ8ysedwRWXxheU2RGg3zPDLri8=")
    }

    /// Recomputes the info-hash over the sent `<info>` and the hmac-data over the sent `<header>`.
    private func assertSigned(
        _ body: String, infoHash: String, hmacData: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let info = try region("info", in: body)
        let header = try region("header", in: body)
        XCTAssertEqual(base64(CryptoPrimitives.sha256(Array(info.utf8))), infoHash, file: file, line: line)
        XCTAssertEqual(try text(of: "hash-data", in: header), infoHash, file: file, line: line)
        let key = try XCTUnwrap(Data(base64Encoded: Self.session.sharedSecret))
        XCTAssertEqual(
            base64(CryptoPrimitives.hmacSHA256(key: key, message: Array(header.utf8))), hmacData, file: file, line: line
        )
        XCTAssertEqual(try text(of: "hmac-data", in: body), hmacData, file: file, line: line)
        // The envelope is assembled from those same bytes: auth, header, info, nothing re-serialized.
        XCTAssertTrue(body.hasSuffix(header + info + "</wc-request:request>"), file: file, line: line)
    }

    func testSigningTimeIsUTCWhateverTheLocalTimeZone() async throws {
        let (client, transport) = try client(answering: "CreateAuthenticatedSessionToken/response.xml")
        let previous = NSTimeZone.default
        NSTimeZone.default = TimeZone(identifier: "America/Los_Angeles")!
        defer { NSTimeZone.default = previous }
        let application = HealthVaultApplicationCredential(applicationID: Self.child, sharedSecret: Self.appSecret)
        _ = try await client.createAuthenticatedSessionToken(application: application)
        XCTAssertEqual(try text(of: "signing-time", in: try sentBody(transport)), "2017-08-10T12:34:56.000Z")
    }
}
