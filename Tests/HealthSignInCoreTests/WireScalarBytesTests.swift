import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInCore

/// The byte-level readings that XML decoders use must accept and refuse exactly what the string readings do.
final class WireScalarBytesTests: XCTestCase {
    private static let spellings = [
        "", " ", "0", "-0", "+0", "7", " 42 ", "\t-17\n", "+", "-", "++1", "1-", "1 2", "0x10", "1e3", "١٢",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "00000000000000000000000042",
        "true", "false", "1", "TRUE", " true ", "yes",
        "cc5e5771-4da7-4961-a758-d7714223d9ab", "CC5E5771-4DA7-4961-A758-D7714223D9AB",
        " cc5e5771-4da7-4961-a758-d7714223d9ab ", "cc5e5771-4da7-4961-a758-d7714223d9a",
        "cc5e5771x4da7-4961-a758-d7714223d9ab",
        "cc5e5771-4da7-4961-a758-d7714223d9ag", "cc5e57714da74961a758d7714223d9ab0000",
        "2017-08-10T12:34:56Z", "2017-08-10T12:34:56.006Z", "2017-08-10T12:34:56+02:00", " 2017-08-10T12:34:56Z ",
        "2017-02-30T12:34:56Z", "2017-08-10", "2017-08-10T12:34:56", "2017-08-10T24:00:00Z", "9999-12-31T23:59:59.999Z",
        "ReadOnly", "a&b", "Alex <primary>", "é",
    ]

    func testEverySpellingReadsAsItsStringDoes() {
        for text in Self.spellings {
            check(text, Int.self)
            check(text, Int64.self)
            check(text, Int32.self)
            check(text, Bool.self)
            check(text, UUID.self)
            check(text, Date.self)
            check(text, LocalDate.self)
            check(text, String.self)
        }
    }

    /// Every byte value in every digit place of a UUID: the byte reading agrees with the string reading (a digit of
    /// either case reads, any other byte refuses the UUID).
    func testEveryByteInEveryPlaceOfAUUIDReadsAsTheStringDoes() {
        let valid = Array("cc5e5771-4da7-4961-a758-d7714223d9ab".utf8)
        for place in valid.indices where valid[place] != UInt8(ascii: "-") {
            for byte in UInt8.min...UInt8.max {
                var bytes = valid
                bytes[place] = byte
                let fromBytes = bytes.withUnsafeBufferPointer { WireText.uuid($0) }
                let isDigit = (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66)
                XCTAssertEqual(fromBytes != nil, isDigit, "byte \(byte) at \(place)")
                if let fromBytes, let text = String(bytes: bytes, encoding: .ascii) {
                    XCTAssertEqual(fromBytes, UUID(uuidString: text), text)
                }
            }
        }
    }

    func testRandomDigitStringsReadAsTheirStringsDo() {
        let seed = ProofSeed.wireScalars.draw()
        var random = SplitMix(seed: seed)
        let alphabet = Array("0123456789+- \t-:TZ.".utf8)
        for _ in 0..<20_000 {
            let length = Int(random.next() % 24)
            let bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            check(text, Int.self, seed: seed)
            check(text, Int32.self, seed: seed)
            check(text, Date.self, seed: seed)
        }
    }

    private func check<T: WireScalar & Equatable>(
        _ text: String, _ type: T.Type, seed: UInt64? = nil, line: UInt = #line
    ) {
        var copy = text
        let fromBytes = copy.withUTF8 { T(wireUTF8: $0) }
        XCTAssertEqual(
            fromBytes, T(wireText: text),
            "\(T.self) from \(text.debugDescription), seed \(seed.map(String.init) ?? "-")", line: line)
    }
}

/// A small deterministic generator, so that a failing seed replays.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
