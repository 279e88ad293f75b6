import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

final class DateTimeTextTests: XCTestCase {
    func testFormatIsUTCWithMilliseconds() {
        XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: 1_502_368_496)), "2017-08-10T12:34:56.000Z")
        XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: 1_502_368_496.1234)), "2017-08-10T12:34:56.123Z")
        XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: 1_502_368_496.9996)), "2017-08-10T12:34:57.000Z")
        XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59.000Z")
        XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00.000Z")
    }

    func testParseSpellingsSeenOnTheWire() throws {
        let instant = Date(timeIntervalSince1970: 1_502_368_496)
        for text in [
            "2017-08-10T12:34:56", "2017-08-10T12:34:56Z", "2017-08-10T12:34:56.000Z",
            "2017-08-10T12:34:56.0000000+00:00", "2017-08-10T14:34:56+02:00", "2017-08-10T05:34:56-07:00",
        ] {
            XCTAssertEqual(DateTimeText.parse(text), instant, text)
        }
        XCTAssertEqual(
            try XCTUnwrap(DateTimeText.parse("2016-07-12T22:14:36.69Z")).timeIntervalSince1970, 1_468_361_676.69,
            accuracy: 1e-6)
        XCTAssertEqual(
            DateTimeText.parse("9999-12-31T23:59:59.999Z").map(DateTimeText.format), "9999-12-31T23:59:59.999Z")
    }

    func testRoundTripOfMillisecondSpellings() {
        for text in ["2017-08-10T12:34:56.001Z", "2024-02-29T23:59:59.999Z", "1999-12-31T00:00:00.500Z"] {
            XCTAssertEqual(DateTimeText.parse(text).map(DateTimeText.format), text)
        }
    }

    func testInvalidSpellings() {
        for text in [
            "", "2017-08-10", "2017-13-10T00:00:00Z", "2017-02-29T00:00:00Z", "2017-08-10T24:00:00Z",
            "2017-08-10T12:34:56.Z", "2017-08-10T12:34:56+2:00", "2017-08-10T12:34:56Zjunk", "٢٠١٧-08-10T12:34:56Z",
        ] {
            XCTAssertNil(DateTimeText.parse(text), text)
        }
    }

    func testAnyDateFormatsWithoutTrapping() {
        let bounds = [
            (-Double.infinity, "0001-01-01T00:00:00.000Z"), (Double.infinity, "9999-12-31T23:59:59.999Z"),
            (Double.nan, "0001-01-01T00:00:00.000Z"), (-1e300, "0001-01-01T00:00:00.000Z"),
            (1e300, "9999-12-31T23:59:59.999Z"), (Date.distantPast.timeIntervalSince1970, "0001-01-01T00:00:00.000Z"),
            (Date.distantFuture.timeIntervalSince1970, "4001-01-01T00:00:00.000Z"),
        ]
        for (seconds, text) in bounds {
            XCTAssertEqual(DateTimeText.format(Date(timeIntervalSince1970: seconds)), text, "\(seconds)")
        }
        // Random bit patterns cover every exponent, subnormals, NaNs with payloads and both infinities: each formats
        // to 24 characters, and one within the four-digit years reads back to the same millisecond.
        let seed = ProofSeed.dateTimeText.draw()
        var random = SplitMix64(seed: seed)
        for _ in 0..<20_000 {
            let bits = random.next()
            let seconds =
                random.chance(0.5) ? Double(bitPattern: bits) : Double(Int64(bitPattern: bits) % 400_000_000_000)
            let text = DateTimeText.format(Date(timeIntervalSince1970: seconds))
            XCTAssertEqual(text.utf8.count, 24, "seed \(seed): \(seconds) -> \(text)")
            guard let back = DateTimeText.parse(text) else { return XCTFail("seed \(seed): \(text) does not parse") }
            XCTAssertEqual(DateTimeText.format(back), text, "seed \(seed)")
        }
        // Descriptions of models and grants show dates through Redaction, never through Foundation's description.
        XCTAssertEqual(Redaction.show(Optional(Date(timeIntervalSince1970: .nan))), "0001-01-01T00:00:00.000Z")
        XCTAssertEqual(Redaction.show(Optional(Date(timeIntervalSince1970: 1e300))), "9999-12-31T23:59:59.999Z")
    }

    func testLocalDate() {
        XCTAssertEqual(LocalDate("1990-05-17"), LocalDate(year: 1990, month: 5, day: 17))
        XCTAssertEqual(LocalDate(year: 2024, month: 2, day: 29)?.description, "2024-02-29")
        XCTAssertNil(LocalDate("2023-02-29"))
        XCTAssertNil(LocalDate("1990-5-17"))
        XCTAssertTrue(LocalDate("1990-05-17")! < LocalDate("1990-05-18")!)
    }
}
