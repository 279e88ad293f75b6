import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTestSupport
import XCTest

final class EncodingTests: XCTestCase {
    func testFormEncodingPerRFC6749AppendixB() {
        // The appendix's own example: " %&+£€" becomes "+%25%26%2B%C2%A3%E2%82%AC".
        XCTAssertEqual(PercentEncoding.form(" %&+£€"), "+%25%26%2B%C2%A3%E2%82%AC")
        XCTAssertEqual(PercentEncoding.form("a-b.c_d~e"), "a-b.c_d~e")
        XCTAssertEqual(
            PercentEncoding.form("urn:ietf:params:oauth:grant-type:token-exchange"),
            "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Atoken-exchange")
    }

    func testQueryEncodingKeepsWhatEncodeURIComponentKeeps() {
        XCTAssertEqual(PercentEncoding.query("patient/*.read launch:593740"), "patient%2F*.read%20launch%3A593740")
        XCTAssertEqual(PercentEncoding.query("http://a.b/c?d=e&f"), "http%3A%2F%2Fa.b%2Fc%3Fd%3De%26f")
        XCTAssertEqual(PercentEncoding.query("!'()~"), "!'()~")
    }

    func testPathSegmentEncodesSlashes() {
        XCTAssertEqual(PercentEncoding.pathSegment("a/b c"), "a%2Fb%20c")
        XCTAssertEqual(PercentEncoding.pathSegment("."), "%2E")
        XCTAssertEqual(PercentEncoding.pathSegment(".."), "%2E%2E")
        XCTAssertEqual(PercentEncoding.pathSegment("..."), "...")
        XCTAssertEqual(PercentEncoding.pathSegment("../admin"), "..%2Fadmin")
    }

    func testHeadersAndFieldsNeverPrintASecret() {
        var headers: HTTPHeaderFields = ["Accept": "application/json", "Authorization": "Bearer canary-secret-1"]
        headers.setSensitive("X-Own-Key", "canary-secret-2")
        headers["x-own-key"] = "canary-secret-3"
        var fields = FormFields()
        fields.append("grant_type", "refresh_token")
        fields.append("refresh_token", "canary-secret-4")
        fields.append("pin", "canary-secret-5", sensitive: true)
        XCTAssertEqual(
            headers.description, "[Accept: application/json, Authorization: <redacted>, x-own-key: <redacted>]")
        XCTAssertEqual(fields.description, "grant_type=refresh_token&refresh_token=<redacted>&pin=<redacted>")
        SecretCanary.assertHidden([headers, headers.fields, fields, fields.pairs])
        // Sensitivity is about printing only: the bytes and equality are those of the values.
        XCTAssertEqual(headers["X-OWN-KEY"], "canary-secret-3")
        XCTAssertEqual(
            headers,
            ["Accept": "application/json", "Authorization": "Bearer canary-secret-1", "x-own-key": "canary-secret-3"])
        XCTAssertEqual(fields.formEncoded, "grant_type=refresh_token&refresh_token=canary-secret-4&pin=canary-secret-5")
    }

    func testFormFieldsKeepOrderAndSkipNil() {
        var fields = FormFields()
        fields.append("b", "2")
        fields.append("a", Optional<String>.none)
        fields.append("a", 1)
        fields.append("c", each: [true, false])
        XCTAssertEqual(fields.formEncoded, "b=2&a=1&c=true&c=false")
        XCTAssertEqual(
            FormFields(formEncoded: "x=a+b%2Bc&y=%E2%82%AC&z&bad=%zz").pairs.map { [$0.name, $0.value] },
            [["x", "a b+c"], ["y", "€"], ["z", ""], ["bad", "%zz"]])
    }

    func testClientSecretBasicFormEncodesBeforeBase64() {
        let client = OAuthClientCredentials(clientID: "QMNativeApp", secret: "Who@reU123?")
        XCTAssertEqual(client.basicAuthorizationValue, "Basic UU1OYXRpdmVBcHA6V2hvJTQwcmVVMTIzJTNG")
        // The SMART wire reference's edge case (§16.4): a space is %20, never +, so a server that only
        // percent-decodes reads the id back too.
        XCTAssertEqual(
            OAuthClientCredentials(clientID: "app 1+x", secret: "s%cr:t").basicAuthorizationValue,
            "Basic YXBwJTIwMSUyQng6cyUyNWNyJTNBdA==")
        XCTAssertEqual(
            BasicCredentials(username: "QMNativeApp", password: "Who@reU123?").authorizationValue,
            "Basic UU1OYXRpdmVBcHA6V2hvQHJlVTEyMz8=")
        XCTAssertEqual(OAuthClientCredentials(clientID: "public").method, .none, "no secret means a public client")
    }

    func testHTTPRequestBuilderJoinsServerPathAndQuery() throws {
        var builder = try HTTPRequestBuilder(
            method: .get, server: URL(string: "https://h.example/base/?tenant=1"), serverName: "s", path: "/metadata")
        builder.query.append("a", "b c")
        XCTAssertEqual(try builder.build().url.absoluteString, "https://h.example/base/metadata?tenant=1&a=b%20c")
        var endpoint = try HTTPRequestBuilder(
            method: .post, server: URL(string: "https://h.example/token"), serverName: "token", path: "")
        endpoint.form = FormFields()
        try endpoint.authenticate(client: OAuthClientCredentials(clientID: "c", secret: "s", method: .post))
        let request = try endpoint.build()
        XCTAssertEqual(request.url.absoluteString, "https://h.example/token")
        XCTAssertEqual(request.body.map { String(decoding: $0, as: UTF8.self) }, "client_id=c&client_secret=s")
        XCTAssertEqual(request.headers["content-type"], "application/x-www-form-urlencoded")
        // Without a form body the client's fields start one: a secret never goes into the query.
        var bare = try HTTPRequestBuilder(
            method: .post, server: URL(string: "https://h.example/token?tenant=1"), serverName: "token", path: "")
        try bare.authenticate(client: OAuthClientCredentials(clientID: "c", secret: "s3cret", method: .post))
        let bareRequest = try bare.build()
        XCTAssertEqual(bareRequest.url.absoluteString, "https://h.example/token?tenant=1")
        XCTAssertEqual(bareRequest.body.map { String(decoding: $0, as: UTF8.self) }, "client_id=c&client_secret=s3cret")
        XCTAssertThrowsError(try HTTPRequestBuilder(method: .get, server: nil, serverName: "token", path: "")) {
            error in
            XCTAssertEqual(
                String(describing: error),
                "No URL is configured for the server 'token'; set it in the client's configuration (servers.token)")
        }
    }
}
