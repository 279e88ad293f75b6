import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// Values sealed at rest: nothing of the value is in what the store keeps, only the key's holder opens it, keys
/// rotate by id, a value cannot be moved to another key, and swaps compare what the caller saw in clear.
final class CredentialSealingTests: XCTestCase {
    private let secret = Data(#"{"refreshToken":"canary-refresh-token"}"#.utf8)
    private let oldKey = Data((0..<32).map { UInt8($0) })
    private let newKey = Data((0..<32).map { UInt8(255 - $0) })

    func testWhatIsStoredIsSealedAndOpensOnlyWithItsKey() async throws {
        let base = InMemoryCredentialStore()
        let store = SealedCredentialStore(base, sealing: try CredentialSealing(keys: ["k1": oldKey], current: "k1"))
        try await store.write(secret, for: "session")
        let stored = try await XCTUnwrapAsync(try await base.read("session"))
        XCTAssertNil(stored.range(of: Data("canary".utf8)), "the token is not in what the store keeps")
        XCTAssertEqual(stored.count, secret.count + 2 + 2 + 12 + 16, "format, id, nonce and tag around the ciphertext")
        await XCTAssertEqualAsync(try await store.read("session"), secret)

        let other = SealedCredentialStore(base, sealing: try CredentialSealing(keys: ["k1": newKey], current: "k1"))
        await XCTAssertThrowsErrorAsync(try await other.read("session")) {
            XCTAssertEqual($0 as? CredentialSealingError, .unopenable(key: "session"))
        }
        var tampered = stored
        tampered[tampered.count - 1] ^= 1
        try await base.write(tampered, for: "session")
        await XCTAssertThrowsErrorAsync(try await store.read("session")) {
            XCTAssertEqual($0 as? CredentialSealingError, .unopenable(key: "session"))
        }
    }

    func testKeysRotateByIdAndAValueCannotMoveToAnotherKey() async throws {
        let base = InMemoryCredentialStore()
        let before = SealedCredentialStore(base, sealing: try CredentialSealing(keys: ["k1": oldKey], current: "k1"))
        try await before.write(secret, for: "session")
        let after = SealedCredentialStore(
            base, sealing: try CredentialSealing(keys: ["k1": oldKey, "k2": newKey], current: "k2"))
        await XCTAssertEqualAsync(try await after.read("session"), secret, "the old key still opens what it sealed")
        try await after.write(secret, for: "session")
        let onlyNew = SealedCredentialStore(base, sealing: try CredentialSealing(keys: ["k2": newKey], current: "k2"))
        await XCTAssertEqualAsync(try await onlyNew.read("session"), secret, "written again, it is sealed with k2")
        await XCTAssertThrowsErrorAsync(try await before.read("session")) {
            XCTAssertEqual($0 as? CredentialSealingError, .unknownKey(id: "k2"))
        }

        try await base.write(try await XCTUnwrapAsync(try await base.read("session")), for: "other")
        await XCTAssertThrowsErrorAsync(try await onlyNew.read("other")) {
            XCTAssertEqual($0 as? CredentialSealingError, .unopenable(key: "other"))
        }
    }

    func testSwapsCompareInClearAndAClearValueIsReadUntilItIsSealed() async throws {
        let base = InMemoryCredentialStore()
        let store = SealedCredentialStore(base, sealing: try CredentialSealing(keys: ["k1": oldKey], current: "k1"))
        try await base.write(secret, for: "session")
        await XCTAssertEqualAsync(try await store.read("session"), secret, "a value stored before sealing is read")
        let next = Data(#"{"refreshToken":"next"}"#.utf8)
        await XCTAssertFalseAsync(try await store.replace(next, with: secret, for: "session"))
        await XCTAssertTrueAsync(try await store.replace(secret, with: next, for: "session"))
        await XCTAssertEqualAsync(try await store.read("session"), next)
        await XCTAssertTrueAsync(try await store.replace(next, with: nil, for: "session"))
        await XCTAssertNilAsync(try await base.read("session"))

        let strict = try CredentialSealing(keys: ["k1": oldKey], current: "k1", readsUnsealedValues: false)
        try await base.write(secret, for: "session")
        await XCTAssertThrowsErrorAsync(try await SealedCredentialStore(base, sealing: strict).read("session")) {
            XCTAssertEqual($0 as? CredentialSealingError, .notSealed(key: "session"))
        }
    }

    func testAKeyOfTheWrongSizeOrAnUnknownCurrentKeyIsRefused() {
        XCTAssertThrowsError(try CredentialSealing(keys: ["short": Data(count: 16)], current: "short")) {
            XCTAssertEqual($0 as? CredentialSealingError, .invalidKey(id: "short"))
        }
        XCTAssertThrowsError(try CredentialSealing(keys: ["k1": oldKey], current: "k2")) {
            XCTAssertEqual($0 as? CredentialSealingError, .unknownKey(id: "k2"))
        }
    }
}
