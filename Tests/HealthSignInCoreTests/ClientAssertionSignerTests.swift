import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTesting
import XCTest

/// `private_key_jwt` client authentication: every request gets a new assertion whose audience is the URL it is
/// posted to, and nothing prints the key or the assertion.
final class ClientAssertionSignerTests: XCTestCase {
    private static let smartEC = """
        {"kty": "EC", "crv": "P-384",
         "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
         "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI",
         "d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5",
         "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384"}
        """

    func testEachRequestCarriesAFreshAssertionForItsURL() throws {
        let key = try JSONWebKey(json: Data(Self.smartEC.utf8))
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let client = OAuthClientCredentials(
            clientID: "backend", signer: try ClientAssertionSigner(key: key, algorithm: .es384, clock: clock))
        var ids: Set<String> = []
        for _ in 0..<2 {
            var builder = try HTTPRequestBuilder(
                method: .post, server: URL(string: "https://ehr.example.com/auth/token"), serverName: "token",
                path: "")
            builder.form = FormFields()
            builder.form?.append("grant_type", "client_credentials")
            try builder.authenticate(client: client)
            let body = String(decoding: try XCTUnwrap(try builder.build().body), as: UTF8.self)
            let fields = Dictionary(
                uniqueKeysWithValues: body.split(separator: "&").map {
                    let pair = $0.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                    return (pair[0], pair.count > 1 ? pair[1] : "")
                })
            XCTAssertEqual(fields["client_assertion_type"], "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
            XCTAssertNil(fields["client_id"])
            let parts = try JWS.verify(
                try XCTUnwrap(fields["client_assertion"]), key: key.publicKey, algorithms: [.es384])
            let claims = try XCTUnwrap(try JSONValue.parse(parts.payload).objectValue)
            XCTAssertEqual(claims["aud"]?.stringValue, "https://ehr.example.com/auth/token")
            XCTAssertEqual(claims["iss"]?.stringValue, "backend")
            XCTAssertEqual(claims["exp"]?.numberValue?.intValue, 1_700_000_120)
            ids.insert(try XCTUnwrap(claims["jti"]?.stringValue))
            XCTAssertFalse(builder.description.contains(fields["client_assertion"] ?? "-"))
        }
        XCTAssertEqual(ids.count, 2, "a jti is never reused")
        XCTAssertFalse(client.description.contains("WcrTiYk8"))
        XCTAssertTrue(client.description.contains("privateKeyJWT"))
    }

    func testAPublicKeyOrOneWithoutKidCannotSign() throws {
        let key = try JSONWebKey(json: Data(Self.smartEC.utf8))
        XCTAssertThrowsError(try ClientAssertionSigner(key: key.publicKey, algorithm: .es384))
        XCTAssertThrowsError(try ClientAssertionSigner(key: key, algorithm: .rs384))
    }

    /// A lifetime that is not a number, or a clock whose time is not a date, is a typed error where it is given, never
    /// a crash when the assertion's times are written.
    func testANaNLifetimeOrAClockOffTheCalendarIsATypedError() throws {
        let key = try JSONWebKey(json: Data(Self.smartEC.utf8))
        XCTAssertThrowsError(try ClientAssertionSigner(key: key, algorithm: .es384, lifetime: .nan)) {
            XCTAssertEqual($0 as? JOSEError, .invalidTime("the lifetime is not a number"))
            XCTAssertEqual(($0 as? JOSEError)?.recovery, .reconfigure)
        }
        let token = URL(string: "https://ehr.example.com/auth/token")!
        for seconds in [TimeInterval.nan, .infinity, -.infinity, 1e300] {
            let signer = try ClientAssertionSigner(
                key: key, algorithm: .es384, clock: ManualClock(Date(timeIntervalSince1970: seconds)))
            XCTAssertThrowsError(try signer.assertion(clientID: "backend", tokenEndpoint: token), "\(seconds)") {
                guard case .invalidTime = $0 as? JOSEError else { return XCTFail("\(seconds): \($0)") }
            }
        }
        for lifetime in [-TimeInterval.infinity, -1, 0, .infinity] {
            let assertion = try ClientAssertion(
                clientID: "backend", tokenEndpoint: token, key: key, algorithm: .es384, lifetime: lifetime,
                clock: ManualClock(Date(timeIntervalSince1970: 1_700_000_000)))
            XCTAssertTrue(
                (1_700_000_001...1_700_000_300).contains(assertion.expiresAt.timeIntervalSince1970), "\(lifetime)")
        }
    }
}
