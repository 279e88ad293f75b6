import Foundation
@_spi(Generated) import HealthSignInCore
import XCTest

final class JSONCodingTests: XCTestCase {
    private struct Sample: Codable, Equatable {
        var count: Int?
        var when: Date?
        var items: [Int]?
        enum CodingKeys: String, CodingKey { case count, when, items, kind, primary, secondary }

        init(count: Int?, when: Date?, items: [Int]?) {
            self.count = count
            self.when = when
            self.items = items
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try container.expectConstant("Sample", forKey: .kind, required: false)
            count = try container.decodeLenientIfPresent(Int.self, forKey: container.firstPresentKey(.count, .primary))
            when = try container.decodeTextIfPresent(Date.self, forKey: .when)
            items = try container.decodeArrayAcceptingSingleIfPresent(Int.self, forKey: .items)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(count, forKey: .count)
            try container.encodeTextIfPresent(when, forKey: .when)
            try container.encodeIfPresent(items, forKey: .items)
        }
    }

    private func decode(_ json: String) throws -> Sample { try JSONCoding.decode(Sample.self, from: Data(json.utf8)) }

    func testTolerantReading() throws {
        XCTAssertEqual(try decode(#"{"count": "3600"}"#).count, 3600)
        XCTAssertEqual(try decode(#"{"primary": 7}"#).count, 7, "an alias")
        XCTAssertEqual(try decode(#"{"items": 5}"#).items, [5], "a single value as an array")
        XCTAssertEqual(
            try decode(#"{"when": "2017-08-10T12:34:56Z", "extra": {"ignored": [1]}}"#).when,
            Date(timeIntervalSince1970: 1_502_368_496))
        XCTAssertEqual(try decode(#"{"count": null}"#).count, nil)
    }

    func testErrorsCarryAPath() {
        let cases = [
            (#"{"count": "x"}"#, #"count: expected Int, found "x""#),
            (#"{"when": "yesterday"}"#, #"when: expected date-time, found "yesterday""#),
            (#"{"kind": "Other"}"#, #"kind: expected "Sample", found "Other""#),
            ("{", "malformed JSON"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try decode(json)) { XCTAssertEqual(String(describing: $0), expected, json) }
        }
        XCTAssertThrowsError(try JSONCoding.decode([[String: Int]].self, from: Data(#"[{"a": 1}, {"a": "b"}]"#.utf8))) {
            error in
            XCTAssertEqual((error as? ResponseDecodingError)?.path, "[1]/a")
        }
    }

    func testEncodingIsDeterministic() throws {
        let value = Sample(count: 1, when: Date(timeIntervalSince1970: 0), items: [1, 2])
        XCTAssertEqual(
            String(decoding: try JSONCoding.encode(value), as: UTF8.self),
            #"{"count":1,"items":[1,2],"when":"1970-01-01T00:00:00.000Z"}"#)
    }

    func testLongValuesAreShortenedInErrors() {
        let long = String(repeating: "s", count: 100)
        XCTAssertThrowsError(try decode(#"{"count": "\#(long)"}"#)) { error in
            XCTAssertEqual(
                String(describing: error), "count: expected Int, found \"\(String(repeating: "s", count: 40))…\"")
        }
    }
}
