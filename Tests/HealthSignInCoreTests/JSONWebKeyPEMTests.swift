import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// Private keys read from PEM as `openssl` and Python's `cryptography` write them are the same keys as the JOSE
/// fixtures' JWKs: an RSA key signs the same bytes identically, an EC key's signatures verify with the JWK.
final class JSONWebKeyPEMTests: XCTestCase {
    private func fixtureKey(_ id: String) throws -> JSONWebKey {
        try XCTUnwrap(try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == id })
    }

    private func pem(_ name: String) throws -> String {
        String(decoding: try Fixtures.data("JOSE/PEM/\(name).pem"), as: UTF8.self)
    }

    private let header = Data(#"{"alg":"RS512","kid":"k"}"#.utf8)
    private let payload = Data(#"{"iss":"portal-1","jti":"j"}"#.utf8)

    func testRSAKeysInPKCS1AndPKCS8AreTheFixtureKey() throws {
        let jwk = try fixtureKey("test-rsa")
        for name in ["rsa-pkcs1", "rsa-pkcs8"] {
            let key = try JSONWebKey(pem: try pem(name), keyID: "k", algorithm: "RS512")
            XCTAssertTrue(key.isPrivate, name)
            XCTAssertEqual(key.thumbprint, jwk.thumbprint, name)
            XCTAssertEqual(key.algorithm, "RS512")
            XCTAssertEqual(
                try JWS.sign(header: header, payload: payload, key: key, algorithm: .rs512),
                try JWS.sign(header: header, payload: payload, key: jwk, algorithm: .rs512), name)
        }
    }

    func testECKeysInSEC1AndPKCS8AreTheFixtureKeys() throws {
        for (name, id, algorithm) in [
            ("p256-sec1", "test-p256", JWSAlgorithm.es256), ("p256-pkcs8", "test-p256", .es256),
            ("p521-pkcs8", "test-p521", .es512),
        ] {
            let key = try JSONWebKey(pem: try pem(name), keyID: id)
            let jwk = try fixtureKey(id)
            XCTAssertEqual(key.thumbprint, jwk.thumbprint, name)
            let header = Data(#"{"alg":"\#(algorithm.rawValue)"}"#.utf8)
            let token = try JWS.sign(header: header, payload: payload, key: key, algorithm: algorithm)
            try JWS.verify(token, key: jwk.publicKey, algorithms: [algorithm])
        }
    }

    func testWhatIsNotAPlainPrivateKeyIsRefusedWithoutShowingIt() throws {
        let encrypted = try pem("rsa-encrypted")
        let body = try pem("rsa-pkcs8").split(separator: "\n").dropFirst().dropLast().joined()
        let truncated = "-----BEGIN PRIVATE KEY-----\n" + body.prefix(200) + "\n-----END PRIVATE KEY-----\n"
        let cases = [
            ("encrypted", encrypted), ("no block", "hello"),
            ("public key", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n"),
            ("truncated", truncated), ("no end", "-----BEGIN PRIVATE KEY-----\n" + body),
        ]
        for (name, text) in cases {
            XCTAssertThrowsError(try JSONWebKey(pem: text, keyID: "k"), name) { error in
                guard case .invalidKey(let reason) = error as? JOSEError else { return XCTFail("\(name): \(error)") }
                XCTAssertFalse(reason.contains(String(body.prefix(40))), name)
            }
        }
        XCTAssertFalse(
            String(describing: try JSONWebKey(pem: try pem("rsa-pkcs1"), keyID: "k")).contains(body.prefix(20)))
    }

    func testAKeyKeptAsAJWKInACredentialStoreIsRead() async throws {
        let store = InMemoryCredentialStore()
        let keys = try XCTUnwrap(try JSONValue.parse(try Fixtures.data("JOSE/test-keys.json"))["keys"]?.arrayValue)
        let rsa = try XCTUnwrap(keys.first { $0["kid"]?.stringValue == "test-rsa" })
        try await store.write(rsa.serialized(), for: "signing-key")
        let key = try await JSONWebKey(storedIn: store, key: "signing-key")
        XCTAssertEqual(key, try fixtureKey("test-rsa"))
        await XCTAssertThrowsErrorAsync(try await JSONWebKey(storedIn: store, key: "absent"))
    }
}
