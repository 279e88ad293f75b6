import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// The id tokens of `Tests/Fixtures/JOSE/refusals.json` (written by `Tests/Tools/jose_vectors.py`): each is
/// accepted, or refused for the reason the file names, or carries a key that cannot be used at all.
final class JOSEVectorTests: XCTestCase {
    private struct Case {
        let name: String
        let token: String
        let key: JSONObject
        let algorithms: Set<JWSAlgorithm>
        let expect: String
    }

    func testEveryVectorIsAcceptedOrRefusedForItsReason() throws {
        let document = try XCTUnwrap(try JSONValue.parse(try Fixtures.data("JOSE/refusals.json")).objectValue)
        let now = Date(timeIntervalSince1970: try XCTUnwrap(document["now"]?.numberValue?.doubleValue))
        let expectations = IDToken.Expectations(
            issuer: try XCTUnwrap(document["issuer"]?.stringValue),
            clientID: try XCTUnwrap(document["clientID"]?.stringValue), nonce: nil,
            leeway: try XCTUnwrap(document["leeway"]?.numberValue?.doubleValue),
            maximumAge: try XCTUnwrap(document["maximumAge"]?.numberValue?.doubleValue))
        let cases = try XCTUnwrap(document["cases"]?.arrayValue).map { entry in
            Case(
                name: try XCTUnwrap(entry["name"]?.stringValue), token: try XCTUnwrap(entry["token"]?.stringValue),
                key: try XCTUnwrap(entry["key"]?.objectValue),
                algorithms: Set(
                    try XCTUnwrap(entry["algorithms"]?.arrayValue).map {
                        try XCTUnwrap(JWSAlgorithm(rawValue: $0.stringValue ?? ""))
                    }),
                expect: try XCTUnwrap(entry["expect"]?.stringValue))
        }
        XCTAssertEqual(Set(cases.map(\.expect)).count, 9, "every kind of outcome is covered")
        for vector in cases {
            if vector.expect == "invalidKey" {
                XCTAssertThrowsError(try JSONWebKey(object: vector.key), vector.name) { error in
                    guard case .invalidKey? = error as? JOSEError else { return XCTFail("\(vector.name): \(error)") }
                }
                continue
            }
            var expected = expectations
            expected.algorithms = vector.algorithms
            let key = try JSONWebKey(object: vector.key)
            do {
                _ = try IDToken(
                    validating: vector.token, keys: JSONWebKeySet(keys: [key]), expecting: expected, now: now)
                XCTAssertEqual(vector.expect, "accepted", vector.name)
            } catch {
                XCTAssertEqual(Self.outcome(of: error), vector.expect, "\(vector.name): \(error)")
            }
        }
    }

    /// The file's name for why `error` refused a token.
    private static func outcome(of error: IDTokenError) -> String {
        switch error {
        case .signature(.unsupportedCriticalHeader): return "unsupportedCriticalHeader"
        case .signature(.algorithmNotAccepted): return "algorithmNotAccepted"
        case .signature(.invalidSignature): return "invalidSignature"
        case .unexpectedTokenType: return "unexpectedTokenType"
        case .notYetValid: return "notYetValid"
        case .tooOld: return "tooOld"
        case .invalidClaim: return "invalidClaim"
        default: return "\(error)"
        }
    }
}
