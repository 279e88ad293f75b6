import XCTest

@testable import HealthSignInGenerator

final class NamingTests: XCTestCase {
    func testLowerCamel() {
        let cases = [
            "person-info": "personInfo", "app-id": "appID", "access_token": "accessToken",
            "redirect_uri": "redirectURI",
            "platform-url": "platformURL", "NoActionRequired": "noActionRequired",
            "AUTHENTICATED_SESSION_TOKEN_EXPIRED": "authenticatedSessionTokenExpired",
            "BAD_HTTP": "badHTTP", "InvalidIPAddress": "invalidIPAddress", "InvalidSaml2Token": "invalidSaml2Token",
            "xml-over-http-methods": "xmlOverHTTPMethods", "": "unspecified", "id": "id", "HMACSHA256": "hmacsha256",
            "hmacSig": "hmacSig", "2fa": "_2fa", "not-found": "notFound",
        ]
        for (wire, swift) in cases { XCTAssertEqual(Naming.lowerCamel(wire), swift, wire) }
    }

    func testUpperCamelAndEscaping() {
        XCTAssertEqual(Naming.upperCamel("response-results"), "ResponseResults")
        XCTAssertEqual(Naming.upperCamel("hmacSig"), "HMACSig")
        XCTAssertEqual(Naming.escaped("extension"), "`extension`")
        XCTAssertEqual(Naming.escaped("record"), "record")
        XCTAssertTrue(Naming.isIdentifier("a_b1"))
        XCTAssertFalse(Naming.isIdentifier("1a"))
        XCTAssertFalse(Naming.isIdentifier("a-b"))
    }
}
