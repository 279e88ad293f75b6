import Foundation
import SDKRuntime
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
        for text in ["2017-08-10T12:34:56", "2017-08-10T12:34:56Z", "2017-08-10T12:34:56.000Z", "2017-08-10T12:34:56.0000000+00:00", "2017-08-10T14:34:56+02:00", "2017-08-10T05:34:56-07:00"] {
            XCTAssertEqual(DateTimeText.parse(text), instant, text)
        }
        XCTAssertEqual(try XCTUnwrap(DateTimeText.parse("2016-07-12T22:14:36.69Z")).timeIntervalSince1970, 1_468_361_676.69, accuracy: 1e-6)
        XCTAssertEqual(DateTimeText.parse("9999-12-31T23:59:59.999Z").map(DateTimeText.format), "9999-12-31T23:59:59.999Z")
    }

    func testRoundTripOfMillisecondSpellings() {
        for text in ["2017-08-10T12:34:56.001Z", "2024-02-29T23:59:59.999Z", "1999-12-31T00:00:00.500Z"] {
            XCTAssertEqual(DateTimeText.parse(text).map(DateTimeText.format), text)
        }
    }

    func testInvalidSpellings() {
        for text in ["", "2017-08-10", "2017-13-10T00:00:00Z", "2017-02-29T00:00:00Z", "2017-08-10T24:00:00Z", "2017-08-10T12:34:56.Z", "2017-08-10T12:34:56+2:00", "2017-08-10T12:34:56Zjunk", "٢٠١٧-08-10T12:34:56Z"] {
            XCTAssertNil(DateTimeText.parse(text), text)
        }
    }

    func testLocalDate() {
        XCTAssertEqual(LocalDate("1990-05-17"), LocalDate(year: 1990, month: 5, day: 17))
        XCTAssertEqual(LocalDate(year: 2024, month: 2, day: 29)?.description, "2024-02-29")
        XCTAssertNil(LocalDate("2023-02-29"))
        XCTAssertNil(LocalDate("1990-5-17"))
        XCTAssertTrue(LocalDate("1990-05-17")! < LocalDate("1990-05-18")!)
    }
}
