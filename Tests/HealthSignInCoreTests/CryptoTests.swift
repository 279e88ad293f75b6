import Foundation
import HealthSignInCore
import HealthSignInTesting
import XCTest

final class CryptoTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    private func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { UInt8(hex.dropFirst($0).prefix(2), radix: 16)! }
    }

    func testSHA256KnownAnswers() {
        XCTAssertEqual(
            hex(CryptoPrimitives.sha256(Array("abc".utf8))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex(CryptoPrimitives.sha256([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testHMACSHA256RFC4231() {
        // Test case 1.
        XCTAssertEqual(
            hex(CryptoPrimitives.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        )
        // Test case 2: a key shorter than the block.
        XCTAssertEqual(
            hex(
                CryptoPrimitives.hmacSHA256(
                    key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        )
        // Test case 6: a key longer than the block is hashed first.
        XCTAssertEqual(
            hex(
                CryptoPrimitives.hmacSHA256(
                    key: [UInt8](repeating: 0xaa, count: 131),
                    message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        )
    }

    func testEmptyKeyAndMessage() {
        XCTAssertEqual(
            hex(CryptoPrimitives.hmacSHA256(key: [UInt8](), message: [UInt8]())),
            "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"
        )
    }

    func testDataAndArraysAgree() {
        let key = bytes("000102030405060708090a0b0c0d0e0f")
        XCTAssertEqual(
            CryptoPrimitives.hmacSHA256(key: Data(key), message: Data("m".utf8)),
            CryptoPrimitives.hmacSHA256(key: key, message: Array("m".utf8)))
    }

    func testConstantTimeEqual() {
        XCTAssertTrue(CryptoPrimitives.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(CryptoPrimitives.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(CryptoPrimitives.constantTimeEqual([1, 2, 3], [1, 2]))
        XCTAssertTrue(CryptoPrimitives.constantTimeEqual([UInt8](), [UInt8]()))
    }

    func testRandomBytes() {
        XCTAssertEqual(CryptoPrimitives.randomBytes(count: 0), [])
        let a = CryptoPrimitives.randomBytes(count: 32)
        let b = CryptoPrimitives.randomBytes(count: 32)
        XCTAssertEqual(a.count, 32)
        XCTAssertNotEqual(a, b, "two 256-bit draws should differ")
    }

    func testSeededRandomIsReproducibleAcrossCallSizes() {
        let one = SeededRandomSource(seed: "s")
        let two = SeededRandomSource(seed: "s")
        XCTAssertEqual(one.bytes(count: 10) + one.bytes(count: 40), two.bytes(count: 50))
        XCTAssertNotEqual(
            SeededRandomSource(seed: "t").bytes(count: 16), SeededRandomSource(seed: "s").bytes(count: 16))
    }
}
