import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInTestSupport
import XCTest

/// The application's JWKS: public halves only, with kid, use and alg, and a replaced key kept through its overlap.
final class KeySetTests: XCTestCase {
    private func key(_ id: String) throws -> JSONWebKey {
        try XCTUnwrap(try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == id })
    }

    func testTheDocumentHoldsOnlyPublicHalvesWithKidUseAndAlg() throws {
        let keys = try Koppeltaal2KeySet(keys: [key("test-rsa"), key("test-p521")])
        let document = try JSONValue.parse(keys.document())
        let entries = try XCTUnwrap(document["keys"]?.arrayValue)
        XCTAssertEqual(entries.map { $0["kid"]?.stringValue }, ["test-rsa", "test-p521"])
        XCTAssertEqual(entries.map { $0["alg"]?.stringValue }, ["RS512", "ES512"])
        XCTAssertEqual(entries.map { $0["use"]?.stringValue }, ["sig", "sig"])
        for entry in entries {
            for member in ["d", "p", "q", "dp", "dq", "qi"] { XCTAssertNil(entry[member], member) }
        }
        let published = try JSONWebKeySet(json: keys.document())
        XCTAssertEqual(published.keys.map(\.thumbprint), try [key("test-rsa"), key("test-p521")].map(\.thumbprint))
        XCTAssertFalse(published.keys.contains { $0.isPrivate })
    }

    func testARotatedOutKeyStaysPublishedThroughItsOverlapOnly() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var keys = try Koppeltaal2KeySet(keys: [key("test-rsa")])
        try keys.rotate(to: key("test-p256"), overlap: 600, now: start)
        XCTAssertEqual(keys.signingKey?.keyID, "test-p256")
        XCTAssertEqual(keys.keys(at: start.addingTimeInterval(599)).map(\.keyID), ["test-p256", "test-rsa"])
        XCTAssertEqual(keys.keys(at: start.addingTimeInterval(600)).map(\.keyID), ["test-p256"])
        XCTAssertThrowsError(try keys.rotate(to: key("test-p256"), overlap: 600, now: start), "a kid is published once")
        XCTAssertFalse(keys.description.contains(try XCTUnwrap(key("test-rsa").member("d"))))
    }
}
