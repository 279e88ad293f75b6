import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// OpenID Connect id token validation: a token signed with this suite's RSA test key passes, and each way a token
/// can be wrong (OpenID Connect Core §3.1.3.7) is refused with its own error.
final class IDTokenTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)
    private let issuer = "https://ehr.example.com/fhir"

    private func privateKey() throws -> JSONWebKey {
        let set = try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json"))
        return try XCTUnwrap(set.keys.first { $0.keyID == "test-rsa" })
    }

    private func sign(_ claims: JSONObject, header: JSONObject? = nil, algorithm: JWSAlgorithm = .rs256) throws
        -> String
    {
        let header: JSONObject = header ?? ["alg": .string(algorithm.rawValue), "kid": "test-rsa", "typ": "JWT"]
        return try JWS.sign(
            header: JSONValue.object(header).serialized(), payload: JSONValue.object(claims).serialized(),
            key: try privateKey(), algorithm: algorithm)
    }

    private func claims(_ changes: [String: JSONValue?] = [:]) -> JSONObject {
        var members: [(key: String, value: JSONValue)] = [
            ("iss", .string(issuer)), ("sub", "user-1"), ("aud", ["my-app"]),
            ("exp", .number(JSONNumber(Int(now.timeIntervalSince1970) + 300))),
            ("iat", .number(JSONNumber(Int(now.timeIntervalSince1970) - 5))), ("nonce", "n-123"),
            ("at_hash", .string(IDToken.accessTokenHash("access-1", algorithm: .rs256))),
            ("fhirUser", "Practitioner/1"),
        ]
        for (key, value) in changes {
            members.removeAll { $0.key == key }
            if let value { members.append((key, value)) }
        }
        return JSONObject(members)
    }

    private func validate(_ token: String, nonce: String? = "n-123", keys: JSONWebKeySet? = nil) throws -> IDToken {
        try IDToken(
            validating: token, keys: keys ?? JSONWebKeySet(keys: [try privateKey().publicKey]),
            expecting: .init(issuer: issuer, clientID: "my-app", nonce: nonce, accessToken: "access-1"), now: now)
    }

    private func assertRefused(
        _ token: String, nonce: String? = "n-123", file: StaticString = #filePath, line: UInt = #line,
        _ check: (IDTokenError) -> Bool
    ) {
        XCTAssertThrowsError(try validate(token, nonce: nonce), file: file, line: line) { error in
            guard let error = error as? IDTokenError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertTrue(check(error), "\(error)", file: file, line: line)
        }
    }

    func testAValidTokenPassesAndShowsNoClaimsBeyondItsIdentity() throws {
        let token = try validate(try sign(claims()))
        XCTAssertEqual(token.subject, "user-1")
        XCTAssertEqual(token.audiences, ["my-app"])
        XCTAssertEqual(token.claims["fhirUser"]?.stringValue, "Practitioner/1")
        XCTAssertFalse(token.description.contains("Practitioner"))
        // aud as a string, and no nonce expected: also fine.
        XCTAssertNoThrow(try validate(try sign(claims(["aud": "my-app", "nonce": nil])), nonce: nil))
    }

    func testAtHashFollowsTheAlgorithm() {
        // The wire reference's §16.6 vectors.
        XCTAssertEqual(
            IDToken.accessTokenHash("i8hweunweunweofiwweoijewiwe", algorithm: .rs256), "snpa1DqYukHmzVGZ_8ee8g")
        XCTAssertEqual(
            IDToken.accessTokenHash("i8hweunweunweofiwweoijewiwe", algorithm: .rs384),
            "y_YyCB4O9GIqPWVtxqtDLMpmu8jtXqZ_")
    }

    func testEachWrongClaimIsRefused() throws {
        assertRefused(try sign(claims(["iss": "https://evil.example"]))) {
            $0 == .issuerMismatch("https://evil.example")
        }
        assertRefused(try sign(claims(["aud": ["other-app"]]))) { $0 == .audienceMismatch(["other-app"]) }
        assertRefused(try sign(claims(["aud": ["my-app", "other-app"]]))) {
            $0 == .audienceMismatch(["my-app", "other-app"])
        }
        assertRefused(try sign(claims(["aud": ["my-app", 42]]))) {
            $0 == .invalidClaim("aud holds a value that is not a string")
        }
        assertRefused(try sign(claims(["azp": "other-app"]))) { $0 == .invalidClaim("azp is not the client id") }
        assertRefused(try sign(claims(["azp": 7]))) { $0 == .invalidClaim("azp is not the client id") }
        XCTAssertNoThrow(try validate(try sign(claims(["azp": "my-app"]))))
        let past = JSONValue.number(JSONNumber(Int(now.timeIntervalSince1970) - 600))
        assertRefused(try sign(claims(["exp": past]))) {
            if case .expired = $0 { return true } else { return false }
        }
        let future = JSONValue.number(JSONNumber(Int(now.timeIntervalSince1970) + 600))
        assertRefused(try sign(claims(["iat": future]))) {
            if case .issuedInTheFuture = $0 { return true } else { return false }
        }
        assertRefused(try sign(claims(["nonce": "other"]))) { $0 == .nonceMismatch }
        assertRefused(try sign(claims(["nonce": nil]))) { $0 == .nonceMismatch }
        assertRefused(try sign(claims(["at_hash": "AAAAAAAAAAAAAAAAAAAAAA"]))) { $0 == .accessTokenHashMismatch }
        for claim in ["iss", "sub", "aud", "exp", "iat"] {
            assertRefused(try sign(claims([claim: nil]))) { $0 == .missingClaim(claim) }
        }
    }

    func testASignatureThatDoesNotVerifyOrAnAlgorithmNotAllowedIsRefused() throws {
        let token = try sign(claims())
        let parts = token.split(separator: ".")
        var signature = Array(parts[2])
        signature[10] = signature[10] == "A" ? "B" : "A"
        let tampered = parts[0] + "." + parts[1] + "." + String(signature)
        assertRefused(tampered) { $0 == .signature(.invalidSignature) }
        // RS384 is not in the default allow-list (RS256).
        assertRefused(try sign(claims(), algorithm: .rs384)) { $0 == .signature(.algorithmNotAccepted("RS384")) }
        // alg none: the header alone decides, and no key is ever used.
        let none = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."
        assertRefused(none) { $0 == .signature(.algorithmNotAccepted("none")) }
    }

    func testTheKeyIsChosenByKidAndASingleKeyServesATokenWithoutOne() throws {
        let unknownKid = try sign(claims(), header: ["alg": "RS256", "kid": "rotated-away"])
        assertRefused(unknownKid) { $0 == .noKey(keyID: "rotated-away") }
        XCTAssertNoThrow(try validate(try sign(claims(), header: ["alg": "RS256"])))
    }
}
