import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInVital

/// Decoding sign-in tokens: the fixtures in Tests/Fixtures/Vital/SignInTokens, valid and malformed. No error ever
/// quotes the token or a part of it.
final class SignInTokenTests: XCTestCase {
    static let userID = UUID(uuidString: "4d7a3b52-8e4b-4c4f-9f0a-0b4a1c2d3e4f")!

    static func token(_ name: String) throws -> String {
        try Fixtures.text("Vital/SignInTokens/\(name).txt").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testValidTokensNameTheUserAndEnvironment() throws {
        let token = try VitalSignInToken(try Self.token("valid"))
        XCTAssertEqual(token.userID, Self.userID)
        XCTAssertEqual(token.teamID, "8f1d5f5e-3c1a-4f5e-9a57-2b4f6c7d8e90")
        XCTAssertEqual(token.environment, .sandboxUS)
        XCTAssertEqual(token.expiresAt, Date(timeIntervalSince1970: 4_102_444_800))
        XCTAssertEqual(token.userToken.split(separator: ".").count, 3)
        XCTAssertEqual(try VitalSignInToken(try Self.token("valid-production-eu")).environment, .productionEU)
        XCTAssertEqual(try VitalSignInToken(try Self.token("valid-unpadded")).userID, Self.userID)
        XCTAssertEqual(
            try VitalSignInToken("  \n" + (try Self.token("valid")) + "\n").userID, Self.userID,
            "whitespace around the token")
    }

    func testMalformedTokensSayWhatIsWrong() throws {
        let cases: [(String, SignInTokenProblem)] = [
            ("not-base64", .notBase64),
            ("not-json", .notJSONObject),
            ("json-array", .notJSONObject),
            ("missing-user-token", .missingField("user_token")),
            ("user-token-not-string", .missingField("user_token")),
            ("missing-public-key", .missingField("public_key")),
            ("jwt-two-segments", .notCompactJWT(segmentCount: 2)),
            ("jwt-four-segments", .notCompactJWT(segmentCount: 4)),
            ("jwt-header-not-base64", .undecodableJWTSegment("header")),
            ("jwt-payload-not-json", .undecodableJWTSegment("payload")),
            ("jwt-alg-hs256", .unsupportedJWTHeader(algorithm: "HS256", type: "JWT")),
            ("jwt-alg-none", .unsupportedJWTHeader(algorithm: "none", type: "JWT")),
            ("jwt-typ-missing", .unsupportedJWTHeader(algorithm: "RS256", type: nil)),
            ("claim-uid-missing", .missingClaim("uid")),
            ("claim-uid-not-uuid", .missingClaim("uid")),
            ("claim-iss-missing", .missingClaim("iss")),
            ("issuer-google", .unrecognizedIssuer("https://securetoken.google.com/vital-prod")),
            ("issuer-wrong-domain", .unrecognizedIssuer("id-signer-stg-us@vital-id-stg-us.example.com")),
            ("issuer-unknown-tier", .unknownEnvironment("qa")),
            ("issuer-unknown-region", .unknownEnvironment("ap")),
        ]
        for (fixture, expected) in cases {
            let raw = try Self.token(fixture)
            do {
                _ = try VitalSignInToken(raw)
                XCTFail("\(fixture) was accepted")
            } catch VitalSessionError.invalidSignInToken(let problem) {
                XCTAssertEqual(problem, expected, fixture)
                Self.assertDoesNotLeak(raw, in: "\(VitalSessionError.invalidSignInToken(problem))", fixture)
            }
        }
    }

    func testTheIssuerPattern() throws {
        let accepted: [(String, VitalEnvironment)] = [
            ("id-signer-dev-us@vital-id-dev-us.iam.gserviceaccount.com", VitalEnvironment(.dev, .us)),
            ("id-signer-stg-eu@vital-id-stg-eu.iam.gserviceaccount.com", .sandboxEU),
            ("id-signer-prd-us@vital-id-prd-us.iam.gserviceaccount.com", .productionUS),
            ("id-signer-sandbox-us@vital-id-sandbox-us.iam.gserviceaccount.com", .sandboxUS),
            ("id-signer-production-eu@vital-id-production-eu.iam.gserviceaccount.com", .productionEU),
        ]
        for (issuer, environment) in accepted {
            XCTAssertEqual(try VitalSignInToken.environment(issuer: issuer), environment, issuer)
        }
        let refused = [
            "id-signer-prd-us@vital-id-prd-us.iam.gserviceaccount.com.evil",
            "id-signer-PRD-us@vital-id-prd-us.iam.gserviceaccount.com",
            "id-signer-prd-us-x@vital-id-prd-us.iam.gserviceaccount.com",
            "id-signer-prd@vital-id-prd-us.iam.gserviceaccount.com",
            "id-signer-prd-us@vital-id-prd.iam.gserviceaccount.com",
            "xid-signer-prd-us@vital-id-prd-us.iam.gserviceaccount.com",
            "id-signer-prd-us@@vital-id-prd-us.iam.gserviceaccount.com",
            "id-signer--us@vital-id-prd-us.iam.gserviceaccount.com", "",
        ]
        for issuer in refused {
            XCTAssertThrowsError(try VitalSignInToken.environment(issuer: issuer), issuer) { error in
                XCTAssertEqual(error as? SignInTokenProblem, .unrecognizedIssuer(issuer), issuer)
            }
        }
    }

    func testDescriptionsHideTheToken() throws {
        let raw = try Self.token("valid")
        let token = try VitalSignInToken(raw)
        for text in [
            String(describing: token), String(reflecting: token), "\(Mirror(reflecting: token).children.map(\.value))",
        ] {
            Self.assertDoesNotLeak(raw, in: text, "description")
        }
        XCTAssertTrue(String(describing: token).contains("4d7a3b52-8e4b-4c4f-9f0a-0b4a1c2d3e4f"))
    }

    /// Fails when `text` contains the raw token, its JWT, or any JWT segment longer than a few characters.
    static func assertDoesNotLeak(
        _ raw: String, in text: String, _ label: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var secrets = [raw]
        if let outer = Base64URL.decode(raw),
            let object = try? JSONSerialization.jsonObject(with: outer) as? [String: Any],
            let jwt = object["user_token"] as? String
        {
            secrets.append(jwt)
            secrets += jwt.split(separator: ".").map(String.init).filter { $0.count > 8 }
        }
        for secret in secrets where text.contains(secret) {
            XCTFail("\(label): the message quotes the token: \(text)", file: file, line: line)
        }
    }
}
