import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// JSON Web Keys and compact JWS against published vectors (SMART App Launch, RFC 7638) and tokens another
/// implementation (Python's `cryptography`) signed with this suite's test keys.
final class JOSETests: XCTestCase {
    /// The RS384 public key of the SMART IG's examples.
    private static let smartRSA = """
        {"kty": "RSA", "alg": "RS384",
         "n": "wJq2RHIA-7RT6q4go7wjcbHdW7ck7Kz22A8wf-kN7Wi5CWvhFG2_Y7nQp1lDpb2IKMQr-Q4n_vgJ6d5rWPspJpSPY7iffUK4ipQCEbzID5DJ6fQMBZOfCTXyxkuMh3jYGKEF3Ziw2oxbM1H9j-eJAPtrj5stUG6kVoXowegdox-bSjWP0iI5PnkwUNzcekLMug4M3LRluEQgGR9O_BAML6-w3igZ_rZA_gunyrLAMbfmCVaceW5ohLp679kyM7U6W2gDK_NbkDKcINUakVmPeoG5h8RzgGzvGrySR0k0VDFiZv60Ua07DqHTeDGH9e4NV07AECae-oykIj5NDCs3pw",
         "e": "AQAB", "key_ops": ["verify"], "ext": true, "kid": "eee9f17a3b598fd86417a980b591fbe6"}
        """
    /// The SMART IG's P-384 key, which publishes its private `d` for reproducibility.
    private static let smartEC = """
        {"kty": "EC", "crv": "P-384",
         "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
         "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI",
         "d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5",
         "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384"}
        """
    /// The IG's worked client assertion (RS384).
    private static let igAssertion =
        "eyJhbGciOiJSUzM4NCIsImtpZCI6ImVlZTlmMTdhM2I1OThmZDg2NDE3YTk4MGI1OTFmYmU2IiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2JpbGktbW9uaXRvci5leGFtcGxlLmNvbSIsInN1YiI6Imh0dHBzOi8vYmlsaS1tb25pdG9yLmV4YW1wbGUuY29tIiwiYXVkIjoiaHR0cHM6Ly9hdXRob3JpemUuc21hcnRoZWFsdGhpdC5vcmcvdG9rZW4iLCJleHAiOjE0MjI1Njg4NjAsImp0aSI6InJhbmRvbS1ub24tcmV1c2FibGUtand0LWlkLTEyMyJ9.D5kAqNJwaftCqsRdVVQDq6dMBxuGFOF5svQJuXbcYp-oEyg5qOwK9ZE5cGLTHxqwfpUPNzRKgVdIGuhawAA-8g0s1nKQae8CuKs33hhKh4J34xSEwW3MYs1gwI4GHTtR_g3kYSX6QCi14Ed3GIAvYFgqRqt-gD7sewMUXL4SB8I8cXcDbCqVizm7uPVhjw6QaeKZygJJ_AVLhM4Xs9LTy4HAhdCHpN0FrNmCerUIYJvHDpcod7A0jDmxdoeW1KIBYlhdhQNwjtsTvT1ce4qacN_3KIv_fIzCKLIgDv9eWxkjAtxOmIm8aW5gX9xX7X0nbd0QglIyiic_bZVNNEh0kg"
    /// An assertion computed with the same key for the wire reference (§16.5 b).
    private static let referenceAssertion =
        "eyJhbGciOiJSUzM4NCIsImtpZCI6ImVlZTlmMTdhM2I1OThmZDg2NDE3YTk4MGI1OTFmYmU2IiwidHlwIjoiSldUIn0.eyJpc3MiOiJteS1iYWNrZW5kIiwic3ViIjoibXktYmFja2VuZCIsImF1ZCI6Imh0dHBzOi8vZWhyLmV4YW1wbGUuY29tL2F1dGgvdG9rZW4iLCJleHAiOjE3MDAwMDAzMDAsImp0aSI6Imp0aS12ZWN0b3ItMDAwMSJ9.StmMbosGsOqUNUiwcUR58r546sLr-tcxKu9bjdb4XxRVBLzqMxnlOLHkTXsX7KzVWV5WMAoRj-8kfJGSOYywkn-XksmcM3pyoqgsMOj895tPNQ-1xv5ASoFb2Ugf_xxIpWhjFcGa_yNleojdihBJ0JKuL-bEZ3BPUTn49o2zFPF_istgTaG3BvQYZ0oEko-bLO4G4XZ5fRV9f0d0KDRMnjBKK0zyQhHExKM-bFaeNmM2_DPz118CM4aFQrbicTnJoZ7Zx12EHjj_INhn8Cnbdd-BriwM7PGEXKTjnxbavXe0S62aiGqlnPcB7F9AlTScAId1ErlawFguncsR4Rei7g"

    private func key(_ json: String) throws -> JSONWebKey { try JSONWebKey(json: Data(json.utf8)) }

    private func testKeys() throws -> JSONWebKeySet {
        try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json"))
    }

    private func pythonSigned() throws -> [String: String] {
        try JSONDecoder().decode(
            [String: String].self, from: try Fixtures.data("JOSE/python-signed.json"))
    }

    func testThumbprintsAreRFC7638() throws {
        XCTAssertEqual(try key(Self.smartRSA).thumbprint, "I99tVmIhN2uhvx12lO4Zrjk9OhGDH6LvIyYALIZivws")
        XCTAssertEqual(try key(Self.smartEC).thumbprint, "UK3_0t7muUSeNsykQeSSSWYSiIeffYpv9ahyRf5GDfk")
        XCTAssertEqual(try key(Self.smartEC).publicKey.thumbprint, try key(Self.smartEC).thumbprint)
    }

    func testThePublishedRS384AssertionsVerify() throws {
        let rsa = try key(Self.smartRSA)
        for token in [Self.igAssertion, Self.referenceAssertion] {
            let parts = try JWS.verify(token, key: rsa, algorithms: [.rs384])
            XCTAssertEqual(parts.keyID, "eee9f17a3b598fd86417a980b591fbe6")
            XCTAssertEqual(parts.algorithm, "RS384")
        }
        let claims = try JWS.parts(of: Self.referenceAssertion).payload
        XCTAssertEqual(
            String(decoding: claims, as: UTF8.self),
            #"{"iss":"my-backend","sub":"my-backend","aud":"https://ehr.example.com/auth/token","exp":1700000300,"jti":"jti-vector-0001"}"#
        )
    }

    func testATamperedTokenOrAnotherAlgorithmIsRefused() throws {
        let rsa = try key(Self.smartRSA)
        var tampered = Array(Self.referenceAssertion)
        tampered[tampered.count - 5] = tampered[tampered.count - 5] == "A" ? "B" : "A"
        XCTAssertThrowsError(try JWS.verify(String(tampered), key: rsa, algorithms: [.rs384])) {
            XCTAssertEqual($0 as? JOSEError, .invalidSignature)
        }
        XCTAssertThrowsError(try JWS.verify(Self.referenceAssertion, key: rsa, algorithms: [.rs256, .es384])) {
            XCTAssertEqual($0 as? JOSEError, .algorithmNotAccepted("RS384"))
        }
        XCTAssertThrowsError(try JWS.verify(Self.referenceAssertion, key: try key(Self.smartEC), algorithms: [.rs384]))
        {
            XCTAssertEqual($0 as? JOSEError, .keyDoesNotFitAlgorithm(.rs384))
        }
        let unsigned = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Data("{}".utf8)) + "."
        XCTAssertThrowsError(try JWS.verify(unsigned, key: rsa, algorithms: Set(JWSAlgorithm.allCases))) {
            XCTAssertEqual($0 as? JOSEError, .algorithmNotAccepted("none"))
        }
        for malformed in ["a.b", "!!.e30.", Base64URL.encode(Data("[]".utf8)) + ".e30.", ""] {
            XCTAssertThrowsError(try JWS.parts(of: malformed)) { error in
                guard case .malformedToken? = error as? JOSEError else { return XCTFail("\(error)") }
            }
        }
    }

    func testES384SignaturesVerifyAndDiffer() throws {
        let ec = try key(Self.smartEC)
        let header = Data(#"{"alg":"ES384","kid":"afb27c284f2d93959c18fa0320e32060","typ":"JWT"}"#.utf8)
        let payload = Data(#"{"iss":"demo_app_whatever","sub":"demo_app_whatever","jti":"j1","exp":1700000300}"#.utf8)
        let first = try JWS.sign(header: header, payload: payload, key: ec, algorithm: .es384)
        let second = try JWS.sign(header: header, payload: payload, key: ec, algorithm: .es384)
        XCTAssertNotEqual(first, second, "ECDSA signatures are randomised")
        for token in [first, second] {
            XCTAssertEqual(try JWS.parts(of: token).payload, payload)
            try JWS.verify(token, key: ec.publicKey, algorithms: [.es384])
            XCTAssertEqual(Base64URL.decode(String(token.split(separator: ".")[2]))?.count, 96, "R‖S, 48 bytes each")
        }
        XCTAssertThrowsError(try JWS.sign(header: header, payload: payload, key: ec.publicKey, algorithm: .es384)) {
            XCTAssertEqual($0 as? JOSEError, .keyDoesNotFitAlgorithm(.es384))
        }
    }

    func testTokensSignedElsewhereVerifyAndRSASignaturesMatchThemExactly() throws {
        let keys = try testKeys()
        for (name, token) in try pythonSigned() {
            let algorithm = try XCTUnwrap(JWSAlgorithm(rawValue: name))
            let parts = try JWS.parts(of: token)
            let key = try XCTUnwrap(keys.key(for: algorithm, keyID: parts.keyID), name)
            try JWS.verify(token, key: key.publicKey, algorithms: [algorithm])
            // PKCS#1 v1.5 is deterministic: signing the same bytes gives the same token.
            if name.hasPrefix("RS") {
                let pieces = token.split(separator: ".").map(String.init)
                let resigned = try JWS.sign(
                    header: try XCTUnwrap(Base64URL.decode(pieces[0])), payload: parts.payload, key: key,
                    algorithm: algorithm)
                XCTAssertEqual(resigned, token, name)
            } else {
                let mine = try JWS.sign(
                    header: Data(#"{"alg":"\#(name)"}"#.utf8), payload: parts.payload, key: key, algorithm: algorithm)
                try JWS.verify(mine, key: key.publicKey, algorithms: [algorithm])
            }
        }
    }

    func testAKeySetSkipsForeignKeysAndPicksByIDAndAlgorithm() throws {
        let set = try JSONWebKeySet(
            json: Data(
                """
                {"keys": [\(Self.smartRSA), \(Self.smartEC),
                  {"kty": "oct", "k": "c2VjcmV0"}, {"kty": "OKP", "crv": "Ed25519", "x": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},
                  {"kty": "EC", "crv": "P-521", "x": "AA", "y": "AA"}]}
                """.utf8))
        XCTAssertEqual(set.keys.map(\.keyType), [.rsa, .ec])
        XCTAssertEqual(set.key(for: .rs384, keyID: "eee9f17a3b598fd86417a980b591fbe6")?.keyType, .rsa)
        XCTAssertNil(set.key(for: .rs256, keyID: "eee9f17a3b598fd86417a980b591fbe6"), "the key says alg RS384")
        XCTAssertEqual(set.key(for: .es384, keyID: nil)?.keyID, "afb27c284f2d93959c18fa0320e32060")
        XCTAssertNil(set.key(for: .es256, keyID: nil), "no P-256 key")
        XCTAssertThrowsError(try JSONWebKey(json: Data(#"{"kty": "EC", "crv": "P-256", "x": "AA", "y": "AA"}"#.utf8)))
        XCTAssertThrowsError(try JSONWebKey(json: Data(#"{"kty": "RSA", "n": "AQAB", "e": "AQAB", "d": "AQ"}"#.utf8)))
    }

    func testAPrivateKeyNeverShowsItsPrivateMembers() throws {
        let ec = try key(Self.smartEC)
        let d = "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5"
        var dumped = ""
        dump(ec, to: &dumped)
        for text in [ec.description, ec.debugDescription, String(reflecting: ec), dumped, "\(ec)"] {
            XCTAssertFalse(text.contains(d), text)
            XCTAssertFalse(text.contains("WcrTiYk8"), text)
        }
        XCTAssertEqual(
            ec.description,
            "JSONWebKey(kty: EC, kid: afb27c284f2d93959c18fa0320e32060, alg: ES384, crv: P-384, private)")
        XCTAssertFalse(ec.publicKey.isPrivate)
        XCTAssertTrue(ec.isPrivate)
    }

    func testAClientAssertionCarriesWhatSMARTRequires() throws {
        let ec = try key(Self.smartEC)
        let clock = ManualClock(Date(timeIntervalSince1970: 1_700_000_000))
        let endpoint = try XCTUnwrap(URL(string: "https://ehr.example.com/auth/token"))
        let assertion = try ClientAssertion(
            clientID: "my-backend", tokenEndpoint: endpoint, key: ec, algorithm: .es384, lifetime: 3_600, clock: clock,
            random: SeededRandomSource(seed: "assertion"))
        let parts = try JWS.verify(assertion.token, key: ec.publicKey, algorithms: [.es384])
        XCTAssertEqual(parts.header["kid"]?.stringValue, "afb27c284f2d93959c18fa0320e32060")
        XCTAssertEqual(parts.header["typ"]?.stringValue, "JWT")
        let claims = try XCTUnwrap(try JSONValue.parse(parts.payload).objectValue)
        XCTAssertEqual(claims.keys, ["iss", "sub", "aud", "exp", "jti"], "no iat or nbf")
        XCTAssertEqual(claims["iss"]?.stringValue, "my-backend")
        XCTAssertEqual(claims["sub"]?.stringValue, "my-backend")
        XCTAssertEqual(claims["aud"]?.stringValue, "https://ehr.example.com/auth/token")
        XCTAssertEqual(claims["exp"]?.numberValue, JSONNumber(1_700_000_300), "an hour is shortened to 5 minutes")
        XCTAssertEqual(claims["jti"]?.stringValue, assertion.id)
        XCTAssertEqual(Base64URL.decode(assertion.id)?.count, 32)
        XCTAssertFalse(assertion.description.contains(assertion.token))

        let again = try ClientAssertion(
            clientID: "my-backend", tokenEndpoint: endpoint, key: ec, algorithm: .es384, clock: clock)
        XCTAssertNotEqual(again.id, assertion.id, "every assertion has a fresh jti")
        XCTAssertThrowsError(
            try ClientAssertion(clientID: "x", tokenEndpoint: endpoint, key: ec.publicKey, algorithm: .es384))
        XCTAssertThrowsError(try ClientAssertion(clientID: "x", tokenEndpoint: endpoint, key: ec, algorithm: .rs384))
    }

    // MARK: - Bounds on RSA keys

    /// An RSA key whose modulus has exactly `bits` bits and whose exponent is `exponent` (big-endian bytes).
    private func rsaKey(bits: Int, exponent: [UInt8] = [0x01, 0x00, 0x01], extra: String = "") throws -> JSONWebKey {
        var modulus = [UInt8](repeating: 0xA5, count: (bits + 7) / 8)
        modulus[0] = bits % 8 == 0 ? 0x80 : UInt8(1) << (bits % 8 - 1)
        modulus[modulus.count - 1] |= 1
        let (n, e) = (Base64URL.encode(modulus), Base64URL.encode(exponent))
        return try key(#"{"kty": "RSA", "n": "\#(n)", "e": "\#(e)"\#(extra)}"#)
    }

    private func assertRefused(_ reason: String, line: UInt = #line, _ body: () throws -> JSONWebKey) {
        XCTAssertThrowsError(try body(), line: line) { error in
            XCTAssertEqual(error as? JOSEError, .invalidKey(reason), line: line)
            XCTAssertEqual((error as? JOSEError)?.recovery, .reconfigure, line: line)
        }
    }

    func testRSAKeysAreBoundedSoAVerificationCostsLittle() throws {
        for bits in [2048, 3072, 4096, 8192] {
            XCTAssertNoThrow(try rsaKey(bits: bits), "\(bits) bits")
        }
        assertRefused("the RSA modulus has 16384 bits, at most 8192 are accepted") { try rsaKey(bits: 16_384) }
        assertRefused("the RSA modulus has 8193 bits, at most 8192 are accepted") { try rsaKey(bits: 8_193) }

        var huge = [UInt8](repeating: 0xFF, count: 512)
        huge[0] = 0x80
        assertRefused("the RSA public exponent has 4096 bits, at most 33 are accepted") {
            try rsaKey(bits: 2048, exponent: huge)
        }
        assertRefused("the RSA public exponent has 34 bits, at most 33 are accepted") {
            try rsaKey(bits: 2048, exponent: [0x02, 0x00, 0x00, 0x00, 0x01])
        }
        for exponent: [UInt8] in [[0x03], [0x01, 0x00, 0x01], [0x01, 0x00, 0x00, 0x00, 0x01]] {
            XCTAssertNoThrow(try rsaKey(bits: 2048, exponent: exponent), "\(exponent)")
        }
        XCTAssertNoThrow(try JSONWebKey(json: Data(Self.smartRSA.utf8)))

        // A private member is never longer than the modulus in a real key; a longer one only costs time.
        let long = Base64URL.encode([UInt8](repeating: 0x7F, count: 2048 / 8 + 1))
        let one = Base64URL.encode([UInt8(0x01)])
        let members = ["d", "p", "q", "dp", "dq", "qi"]
        assertRefused("\"d\" is longer than the RSA modulus") {
            try rsaKey(
                bits: 2048,
                extra: members.map { ", \"\($0)\": \"\($0 == "d" ? long : one)\"" }.joined())
        }
    }
}
