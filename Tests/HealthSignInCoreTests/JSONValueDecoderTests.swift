import Foundation
import HealthSignInSchemaSemantics
import XCTest

@_spi(Generated) @testable import HealthSignInCore

/// `JSONValueDecoder`: JSON Schema's types without coercion, integers decided exactly from the number's text,
/// containers only from the JSON type they stand for, `JSONValue` read back unchanged, and errors with the path
/// `ResponseDecodingError` shows.
final class JSONValueDecoderTests: XCTestCase {
    // MARK: - Helpers

    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONValueDecoder().decode(T.self, from: Data(json.utf8))
    }

    /// The `DecodingError` decoding `json` as `type` throws, failing the test when it decodes or throws another.
    private func decodingError<T: Decodable>(
        _ type: T.Type, _ json: String, file: StaticString = #filePath, line: UInt = #line
    ) -> DecodingError? {
        do {
            let value = try decode(T.self, json)
            XCTFail("\(json) decoded as \(value)", file: file, line: line)
        } catch let error as DecodingError {
            return error
        } catch {
            XCTFail("\(json) threw \(error)", file: file, line: line)
        }
        return nil
    }

    /// Checks that decoding `json` as `type` fails with `expected` as `ResponseDecodingError` describes it.
    private func assertFails<T: Decodable>(
        _ type: T.Type, _ json: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let error = decodingError(T.self, json, file: file, line: line) else { return }
        XCTAssertEqual(ResponseDecodingError(error).description, expected, json, file: file, line: line)
    }

    /// Checks that decoding `json` as `type` is `dataCorrupted` saying `expected`.
    ///
    /// For top-level values: `ResponseDecodingError` reads corrupted data without a path as malformed JSON.
    private func assertCorrupted<T: Decodable>(
        _ type: T.Type, _ json: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let error = decodingError(T.self, json, file: file, line: line)
        XCTAssertEqual(kind(error), "dataCorrupted", json, file: file, line: line)
        XCTAssertEqual(context(error)?.debugDescription, expected, json, file: file, line: line)
    }

    private func kind(_ error: DecodingError?) -> String {
        switch error {
        case .typeMismatch?: return "typeMismatch"
        case .valueNotFound?: return "valueNotFound"
        case .keyNotFound?: return "keyNotFound"
        case .dataCorrupted?: return "dataCorrupted"
        default: return "none"
        }
    }

    private func context(_ error: DecodingError?) -> DecodingError.Context? {
        switch error {
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?,
            .dataCorrupted(let context)?:
            return context
        default:
            return nil
        }
    }

    // MARK: - Models mirroring generated code

    /// Like OAuth2's generated `TokenResponse`: a lenient integer and the members it does not name kept as
    /// `JSONValue`.
    private struct TokenResponse: Decodable, Equatable {
        let accessToken: String
        let tokenType: String?
        let expiresIn: Int?
        let scope: String?
        let additionalProperties: [String: JSONValue]

        init(from decoder: any Decoder) throws {
            let container = try JSONCoding.members(of: decoder, notNull: ["token_type", "scope"])
            accessToken = try container.decode(String.self, forKey: "access_token")
            tokenType = try container.decodeIfPresent(String.self, forKey: "token_type")
            expiresIn = try container.decodeLenientIfPresent(Int.self, forKey: "expires_in")
            scope = try container.decodeIfPresent(String.self, forKey: "scope")
            var additionalProperties: [String: JSONValue] = [:]
            let declared = ["access_token", "token_type", "expires_in", "scope"]
            for key in try JSONCoding.undeclaredKeys(of: decoder, besides: declared) {
                additionalProperties[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self.additionalProperties = additionalProperties
        }
    }

    /// Like Koppeltaal's generated `Coding`.
    private struct Coding: Decodable, Equatable {
        let system: String?
        let code: String?
        let display: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            system = try container.decodeIfPresent(String.self, forKey: "system")
            code = try container.decodeIfPresent(String.self, forKey: "code")
            display = try container.decodeIfPresent(String.self, forKey: "display")
        }
    }

    /// Like Koppeltaal's generated `OperationOutcomeIssue`, with its string-or-object `details`.
    private struct Issue: Decodable, Equatable {
        enum Details: Decodable, Equatable {
            case string(String)
            case coding([Coding])

            init(from decoder: any Decoder) throws {
                if let value = try? decoder.singleValueContainer().decode(String.self) {
                    self = .string(value)
                    return
                }
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                self = .coding(try container.decode([Coding].self, forKey: "coding"))
            }
        }

        let severity: String
        let type: Coding?
        let details: Details?
        let location: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            severity = try container.decode(String.self, forKey: "severity")
            type = try container.decodeIfPresent(Coding.self, forKey: "type")
            details = try container.decodeIfPresent(Details.self, forKey: "details")
            location = (try container.decodeIfPresent([String].self, forKey: "location")) ?? []
        }
    }

    /// Like Koppeltaal's generated `OperationOutcome`: a constant, an aliased field and wire scalars read as text.
    private struct Outcome: Decodable, Equatable {
        let id: UUID?
        let issued: Date?
        let count: Int
        let issue: [Issue]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            try container.expectConstant("OperationOutcome", forKey: "resourceType", required: true)
            id = try container.decodeTextIfPresent(UUID.self, forKey: "id")
            issued = try container.decodeTextIfPresent(Date.self, forKey: "issued")
            count = try container.decodeLenient(Int.self, forKey: container.firstPresentKey("count", "total"))
            issue = try container.decode([Issue].self, forKey: "issue")
        }
    }

    func testGeneratedStyleModelsDecode() throws {
        let token = try decode(
            TokenResponse.self,
            #"{"access_token":"abc","token_type":"Bearer","expires_in":"3600","patient":"p1","ctx":{"b":2.50,"a":[]}}"#
        )
        XCTAssertEqual(token.accessToken, "abc")
        XCTAssertEqual(token.tokenType, "Bearer")
        XCTAssertEqual(token.expiresIn, 3600, "a numeric string is accepted by decodeLenient")
        XCTAssertNil(token.scope)
        XCTAssertEqual(token.additionalProperties["patient"], "p1")
        XCTAssertEqual(token.additionalProperties["ctx"]?.description, #"{"b":2.50,"a":[]}"#)
        XCTAssertEqual(try decode(TokenResponse.self, #"{"access_token":"a","expires_in":3600}"#).expiresIn, 3600)
        XCTAssertEqual(try decode(TokenResponse.self, #"{"access_token":"a","expires_in":3.6e3}"#).expiresIn, 3600)
        XCTAssertEqual(try decode(TokenResponse.self, #"{"access_token":"a","expires_in":null}"#).expiresIn, nil)

        let outcome = try decode(
            Outcome.self,
            """
            {"resourceType":"OperationOutcome","id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f",
             "issued":"2017-08-10T12:34:56Z","total":2,
             "issue":[{"severity":"error","type":{"code":"invalid"},"details":"bad","location":["a","b"]},
                      {"severity":"warning","details":{"coding":[{"system":"s","code":"c"}]}}]}
            """)
        XCTAssertEqual(outcome.id, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(outcome.issued, Date(timeIntervalSince1970: 1_502_368_496))
        XCTAssertEqual(outcome.count, 2, "read through the alias")
        XCTAssertEqual(outcome.issue.count, 2)
        XCTAssertEqual(outcome.issue[0].type?.code, "invalid")
        XCTAssertEqual(outcome.issue[0].details, .string("bad"))
        XCTAssertEqual(outcome.issue[0].location, ["a", "b"])
        XCTAssertEqual(outcome.issue[1].details, .coding([try decode(Coding.self, #"{"system":"s","code":"c"}"#)]))
        XCTAssertEqual(outcome.issue[1].location, [])
    }

    /// The runtime's reader takes a shortcut through the members for the nulls a model refuses and for the members
    /// it keeps; Foundation's `JSONDecoder` goes through the container. Both give the same model and the same error.
    func testRefusedNullsAndKeptMembersReadAlikeByEitherDecoder() throws {
        let documents = [
            #"{"access_token":"a"}"#,
            #"{"access_token":"a","token_type":"Bearer","scope":"s","x":{"y":[1,null]},"z":null}"#,
            #"{"access_token":"a","expires_in":null,"patient":"p","encounter":"e"}"#,
        ]
        for document in documents {
            let ours = try decode(TokenResponse.self, document)
            XCTAssertEqual(ours, try JSONDecoder().decode(TokenResponse.self, from: Data(document.utf8)), document)
        }
        XCTAssertEqual(try decode(TokenResponse.self, documents[1]).additionalProperties.keys.sorted(), ["x", "z"])
        for refused in [#"{"access_token":"a","scope":null}"#, #"{"token_type":null,"access_token":"a"}"#] {
            let key = refused.contains("scope") ? "scope" : "token_type"
            assertFails(TokenResponse.self, refused, "\(key): null, which the schema does not allow")
            XCTAssertThrowsError(try JSONDecoder().decode(TokenResponse.self, from: Data(refused.utf8))) { error in
                XCTAssertEqual(
                    (error as? DecodingError).map { ResponseDecodingError($0).description },
                    "\(key): null, which the schema does not allow")
            }
        }
    }

    /// A key given twice reads its last member, for the nulls refused as for every other read, and a kept member
    /// is kept once, with its last value.
    func testRefusedNullsAndKeptMembersReadTheLastOfADuplicateKey() throws {
        XCTAssertEqual(try decode(TokenResponse.self, #"{"access_token":"a","scope":null,"scope":"s"}"#).scope, "s")
        assertFails(
            TokenResponse.self, #"{"access_token":"a","scope":"s","scope":null}"#,
            "scope: null, which the schema does not allow")
        let kept = try decode(TokenResponse.self, #"{"access_token":"a","x":1,"y":2,"x":3}"#).additionalProperties
        XCTAssertEqual(kept, ["x": 3, "y": 2])
    }

    func testGeneratedStyleModelsReportPaths() {
        let prefix = #"{"resourceType":"OperationOutcome","count":1,"issue":"#
        assertFails(
            Outcome.self, prefix + #"[{"severity":"error","type":{"code":5}}]}"#,
            "issue[0]/type/code: expected string, found a number")
        assertFails(
            Outcome.self, prefix + #"[{"severity":"error"},{"severity":null}]}"#,
            "issue[1]/severity: expected string, found null")
        assertFails(Outcome.self, prefix + #"[{"type":{}}]}"#, "issue[0]/severity: missing required field")
        assertFails(
            Outcome.self, prefix + #"[{"severity":"error","location":["a",1]}]}"#,
            "issue[0]/location[1]: expected string, found a number")
        assertFails(
            Outcome.self, prefix + #"[{"severity":"error","details":{"coding":[{},{"code":[]}]}}]}"#,
            "issue[0]/details/coding[1]/code: expected string, found an array")
        assertFails(
            Outcome.self, prefix + #"[{"severity":"error","details":[]}]}"#,
            "issue[0]/details: expected object, found an array")
        assertFails(Outcome.self, prefix + #"{}}"#, "issue: expected array, found an object")
        assertFails(
            Outcome.self, #"{"resourceType":"Patient"}"#, #"resourceType: expected "OperationOutcome", found "Patient""#
        )
        assertFails(Outcome.self, #"{"count":1,"issue":[]}"#, "resourceType: missing required field")
        assertFails(
            Outcome.self, #"{"resourceType":"OperationOutcome","issue":[],"count":"x"}"#,
            #"count: expected Int, found "x""#)
        assertFails(
            Outcome.self, #"{"resourceType":"OperationOutcome","issue":[],"count":1.5}"#,
            "count: expected string, found a number")
        assertFails(
            Outcome.self, #"{"resourceType":"OperationOutcome","count":1,"issue":[],"id":"x"}"#,
            #"id: expected UUID, found "x""#)
        assertFails(
            Outcome.self, #"{"resourceType":"OperationOutcome","count":1,"issue":[],"id":7}"#,
            "id: expected string, found a number")
        assertFails(
            TokenResponse.self, #"{"access_token":"a","expires_in":"soon"}"#, #"expires_in: expected Int, found "soon""#
        )
        assertFails(TokenResponse.self, "{", "malformed JSON")
    }

    // MARK: - No coercion

    func testScalarsAreNeverCoerced() {
        assertFails(String.self, "1", "expected string, found a number")
        assertFails(String.self, "true", "expected string, found a boolean")
        assertFails(String.self, "[]", "expected string, found an array")
        assertFails(String.self, "{}", "expected string, found an object")
        assertFails(Bool.self, "1", "expected boolean, found a number")
        assertFails(Bool.self, #""true""#, "expected boolean, found a string")
        assertFails(Int.self, #""1""#, "expected integer, found a string")
        assertFails(Int.self, "true", "expected integer, found a boolean")
        assertFails(Double.self, #""1.5""#, "expected number, found a string")
        assertFails(UInt8.self, "[1]", "expected UInt8, found an array")
        assertFails([String: Int].self, #"{"a":"1"}"#, "a: expected integer, found a string")
        assertFails([Bool].self, "[true,0]", "[1]: expected boolean, found a number")
        XCTAssertEqual(kind(decodingError(String.self, "1")), "typeMismatch")
        XCTAssertEqual(context(decodingError(String.self, "1"))?.debugDescription, "found a number")
    }

    func testNullWhereAValueIsRequiredIsValueNotFound() {
        for error in [
            decodingError(String.self, "null"), decodingError(Int.self, "null"), decodingError([Int].self, "null"),
            decodingError(Coding.self, "null"),
        ] {
            XCTAssertEqual(kind(error), "valueNotFound")
            XCTAssertEqual(context(error)?.debugDescription, "found null")
        }
        assertFails(Issue.self, #"{"severity":null}"#, "severity: expected string, found null")
        assertFails([Double].self, "[1,null]", "[1]: expected number, found null")
    }

    func testScalarsDecodeFromTheirOwnType() throws {
        XCTAssertEqual(try decode(String.self, #""a\u00e9\n""#), "aé\n")
        XCTAssertEqual(try decode(Bool.self, "false"), false)
        XCTAssertEqual(try decode(Double.self, "1"), 1)
        XCTAssertEqual(try decode(Double.self, "-2.5e-3"), -0.0025)
        XCTAssertEqual(try decode(Float.self, "0.1"), 0.1 as Float)
        XCTAssertEqual(try decode(Int?.self, "null"), nil)
        XCTAssertEqual(try decode(Int?.self, "1"), 1)
    }

    // MARK: - Integers

    func testIntegersAreReadExactlyFromTheNumbersText() throws {
        let cases: [(String, Int64)] = [
            ("1", 1), ("1.0", 1), ("1e2", 100), ("1E+2", 100), ("-0", 0), ("-0.0e-7", 0), ("0e1000000000", 0),
            ("1.50e1", 15), ("100e-2", 1), ("12.5e1", 125), ("-12e0", -12), ("9007199254740993", 9_007_199_254_740_993),
            ("9223372036854775807", .max), ("-9223372036854775808", .min), ("-9.223372036854775808e18", .min),
            ("0.00000000000000000000000000001e29", 1),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try decode(Int64.self, text), expected, text)
            XCTAssertEqual(try decode(JSONValue.self, text), .number(JSONNumber(text)!), "the text is kept")
        }
        XCTAssertEqual(try decode(Int.self, "9007199254740993"), 9_007_199_254_740_993, "beyond Double's precision")
        XCTAssertEqual(try decode(UInt64.self, "18446744073709551615"), .max)
        XCTAssertEqual(try decode(UInt64.self, "1.8446744073709551615e19"), .max)
        XCTAssertEqual(try decode(UInt.self, "-0"), 0)
        let one = "1" + String(repeating: "0", count: 100_000) + "e-100000"
        XCTAssertEqual(try decode(Int.self, one), 1, "a long text whose value is 1")
        let leadingZeros = "0." + String(repeating: "0", count: 100_000) + "5e100001"
        XCTAssertEqual(try decode(Int.self, leadingZeros), 5)
    }

    func testEveryIntegerTypeChecksItsRange() throws {
        XCTAssertEqual(try decode(Int8.self, "-128"), .min)
        XCTAssertEqual(try decode(Int8.self, "127"), .max)
        XCTAssertEqual(try decode(Int16.self, "-32768"), .min)
        XCTAssertEqual(try decode(Int32.self, "2147483647"), .max)
        XCTAssertEqual(try decode(UInt8.self, "255"), .max)
        XCTAssertEqual(try decode(UInt16.self, "65535"), .max)
        XCTAssertEqual(try decode(UInt32.self, "4294967295"), .max)
        XCTAssertEqual(try decode(Int.self, "-9223372036854775808"), .min)
        XCTAssertEqual(try decode(UInt.self, "18446744073709551615"), .max)
        assertCorrupted(Int8.self, "128", "the integer 128 is beyond the range of Int8")
        assertCorrupted(Int8.self, "-129", "the integer -129 is beyond the range of Int8")
        assertCorrupted(Int16.self, "3.2768e4", "the integer 3.2768e4 is beyond the range of Int16")
        assertCorrupted(Int32.self, "-2147483649", "the integer -2147483649 is beyond the range of Int32")
        assertCorrupted(
            Int64.self, "9223372036854775808", "the integer 9223372036854775808 is beyond the range of Int64")
        assertCorrupted(UInt8.self, "256", "the integer 256 is beyond the range of UInt8")
        assertCorrupted(UInt16.self, "-1", "the integer -1 is beyond the range of UInt16")
        assertCorrupted(UInt32.self, "4294967296", "the integer 4294967296 is beyond the range of UInt32")
        assertCorrupted(
            UInt64.self, "18446744073709551616", "the integer 18446744073709551616 is beyond the range of UInt64")
        assertCorrupted(UInt64.self, "1e20", "the integer 1e20 is beyond the range of UInt64")
        assertCorrupted(UInt.self, "-1", "the integer -1 is beyond the range of UInt")
        assertCorrupted(Int.self, "1e19", "the integer 1e19 is beyond the range of Int")
    }

    func testIntegersOutOfRangeAreCorruptedData() {
        let error = decodingError(Int64.self, "123456789012345678901234567890")
        XCTAssertEqual(kind(error), "dataCorrupted")
        XCTAssertEqual(
            context(error)?.debugDescription,
            "the integer 123456789012345678901234567890 is beyond the range of Int64")
        assertFails([String: Int].self, #"{"n":1e400}"#, "n: the integer 1e400 is beyond the range of Int")
        let long = String(repeating: "9", count: 5000)
        assertCorrupted(
            Int.self, long, "the integer " + String(repeating: "9", count: 40) + "… is beyond the range of Int")
    }

    func testNumbersThatAreNotIntegersAreATypeMismatch() {
        for text in ["1.5", "0.1", "1e-1", "-1.25e1", "9007199254740993.5", "1e-1000000000", "5e-324"] {
            let error = decodingError(Int.self, text)
            XCTAssertEqual(kind(error), "typeMismatch", text)
            XCTAssertEqual(context(error)?.debugDescription, "found a number that is not an integer", text)
        }
        assertFails([UInt8].self, "[1,2.5]", "[1]: expected UInt8, found a number that is not an integer")
    }

    func testHugeExponentsAreRefusedWithoutExpandingDigits() {
        let start = Date()
        for text in ["1e1000000000", "1e99999999999999999999999999999", "-7E+999999999999", "1e-99999999999999999999"] {
            XCTAssertNotEqual(kind(decodingError(Int.self, text)), "none", text)
            XCTAssertNotEqual(kind(decodingError(UInt8.self, text)), "none", text)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1, "no digits were expanded")
        XCTAssertEqual(JSONIntegerValue("1e1000000000"), .tooLarge)
        XCTAssertEqual(JSONIntegerValue("1e-1000000000"), .fractional)
        XCTAssertEqual(JSONIntegerValue("-0e1000000000"), .integer(negative: false, magnitude: 0))
    }

    // MARK: - Floating point

    func testFloatingPointRangeAndUnderflow() throws {
        assertCorrupted(Double.self, "1e400", "the number 1e400 is beyond the range of Double")
        assertCorrupted(Double.self, "-1e400", "the number -1e400 is beyond the range of Double")
        assertCorrupted(Float.self, "3.5e38", "the number 3.5e38 is beyond the range of Float")
        XCTAssertEqual(kind(decodingError(Double.self, "1e400")), "dataCorrupted")
        XCTAssertEqual(try decode(Double.self, "1e-400"), 0, "underflow reads as zero")
        XCTAssertEqual(try decode(Float.self, "1e-50"), 0)
        XCTAssertEqual(try decode(Float.self, "3.4e38"), 3.4e38)
        XCTAssertEqual(try decode(Double.self, "123456789012345678901234567890"), 1.2345678901234568e29)
        XCTAssertEqual(try decode(Double.self, String(repeating: "1", count: 100_000) + "e-99999"), 1.1111111111111112)
    }

    // MARK: - Optional values

    private struct Optionals: Decodable {
        let absent: String?
        let null: String?
        let present: String?
        let containsNull: Bool
        let containsAbsent: Bool
        let nullIsNil: Bool
        let nestedNull: [String?]
        let nullJSON: JSONValue?
        let requiredNullJSON: JSONValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            absent = try container.decodeIfPresent(String.self, forKey: "absent")
            null = try container.decodeIfPresent(String.self, forKey: "null")
            present = try container.decodeIfPresent(String.self, forKey: "present")
            containsNull = container.contains("null")
            containsAbsent = container.contains("absent")
            nullIsNil = try container.decodeNil(forKey: "null")
            nestedNull = try container.decode([String?].self, forKey: "list")
            nullJSON = try container.decodeIfPresent(JSONValue.self, forKey: "null")
            requiredNullJSON = try container.decode(JSONValue.self, forKey: "null")
        }
    }

    func testNullCountsAsAbsentForDecodeIfPresent() throws {
        let value = try decode(Optionals.self, #"{"null":null,"present":"p","list":["a",null]}"#)
        XCTAssertNil(value.absent)
        XCTAssertNil(value.null)
        XCTAssertEqual(value.present, "p")
        XCTAssertTrue(value.containsNull, "contains is true for a null member")
        XCTAssertFalse(value.containsAbsent)
        XCTAssertTrue(value.nullIsNil)
        XCTAssertEqual(value.nestedNull, ["a", nil])
        XCTAssertNil(value.nullJSON, "decodeIfPresent reads null as absent, JSONValue too")
        XCTAssertEqual(value.requiredNullJSON, .null, "decode reads JSON null as JSONValue.null")
        assertFails(Optionals.self, #"{"null":null,"present":1,"list":[]}"#, "present: expected string, found a number")
        assertFails(Optionals.self, #"{"null":null}"#, "list: missing required field")
    }

    private struct NilProbe: Decodable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            _ = try container.decodeNil(forKey: "missing")
        }
    }

    func testDecodeNilOfAnAbsentKeyIsKeyNotFound() {
        XCTAssertEqual(kind(decodingError(NilProbe.self, "{}")), "keyNotFound")
    }

    /// Every overload of `decodeIfPresent`, which the container implements itself rather than through `contains`.
    private struct EveryScalar: Decodable {
        var values: [String] = []

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            func add(_ value: Any?) { values.append(value.map { "\($0)" } ?? "nil") }
            for key in ["v", "null", "absent"] {
                let key = AnyCodingKey(key)
                add(try container.decodeIfPresent(Int.self, forKey: key))
                add(try container.decodeIfPresent(Int8.self, forKey: key))
                add(try container.decodeIfPresent(Int16.self, forKey: key))
                add(try container.decodeIfPresent(Int32.self, forKey: key))
                add(try container.decodeIfPresent(Int64.self, forKey: key))
                add(try container.decodeIfPresent(UInt.self, forKey: key))
                add(try container.decodeIfPresent(UInt8.self, forKey: key))
                add(try container.decodeIfPresent(UInt16.self, forKey: key))
                add(try container.decodeIfPresent(UInt32.self, forKey: key))
                add(try container.decodeIfPresent(UInt64.self, forKey: key))
                add(try container.decodeIfPresent(Double.self, forKey: key))
                add(try container.decodeIfPresent(Float.self, forKey: key))
            }
            for (bool, string) in [("b", "s"), ("null", "null"), ("absent", "absent")] {
                add(try container.decodeIfPresent(Bool.self, forKey: AnyCodingKey(bool)))
                add(try container.decodeIfPresent(String.self, forKey: AnyCodingKey(string)))
            }
        }
    }

    func testEveryScalarOverloadReadsPresentNullAndAbsent() throws {
        let values = try decode(EveryScalar.self, #"{"v":1e1,"null":null,"b":true,"s":"x"}"#).values
        XCTAssertEqual(values.count, 42)
        XCTAssertEqual(values[0..<12], ["10", "10", "10", "10", "10", "10", "10", "10", "10", "10", "10.0", "10.0"])
        XCTAssertEqual(Array(values[12..<36]), Array(repeating: "nil", count: 24))
        XCTAssertEqual(Array(values[36...]), ["true", "x", "nil", "nil", "nil", "nil"])
    }

    // MARK: - Keyed containers

    func testObjectsOnlyMakeKeyedContainers() {
        for json in ["1", #""foo""#, "true", "[]", "[{}]"] {
            XCTAssertEqual(kind(decodingError(Coding.self, json)), "typeMismatch", json)
        }
        XCTAssertEqual(kind(decodingError(Coding.self, "null")), "valueNotFound")
        assertFails(Coding.self, #""foo""#, "expected object, found a string")
        assertFails([String: Int].self, "[1]", "expected object, found an array")
    }

    private struct Keys: Decodable {
        let keys: [String]
        let values: [Int]
        let containerPath: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            keys = container.allKeys.map(\.stringValue)
            values = try container.allKeys.map { try container.decode(Int.self, forKey: $0) }
            containerPath = ResponseDecodingError.path(container.codingPath)
        }
    }

    func testAllKeysInMemberOrderOnceEachWithTheLastValue() throws {
        let small = try decode(Keys.self, #"{"b":1,"a":2,"b":3,"c":4,"a":5}"#)
        XCTAssertEqual(small.keys, ["b", "a", "c"])
        XCTAssertEqual(small.values, [3, 5, 4])

        // Past the linear-scan limit the container looks keys up through an index: same answers.
        let count = JSONValueDecoding.linearLookupLimit * 2
        let members = (0..<count).map { #""k\#($0)":\#($0)"# } + [#""k3":-1"#, #""k0":-2"#]
        let large = try decode(Keys.self, "{" + members.joined(separator: ",") + "}")
        XCTAssertEqual(large.keys, (0..<count).map { "k\($0)" })
        XCTAssertEqual(large.values[0], -2)
        XCTAssertEqual(large.values[3], -1)
        XCTAssertEqual(large.values[count - 1], count - 1)
        XCTAssertEqual(try decode([String: Int].self, "{" + members.joined(separator: ",") + "}")["k3"], -1)
        assertFails(
            Keys.self, "{" + members.joined(separator: ",") + #","k9":"x"}"#, "k9: expected integer, found a string")
    }

    /// Keys of an enum: members the type does not name are left out of `allKeys`.
    private struct Named: Decodable {
        enum CodingKeys: String, CodingKey { case one, two }
        let keys: [CodingKeys]

        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: CodingKeys.self).allKeys
        }
    }

    func testAllKeysSkipsKeysTheKeyTypeCannotName() throws {
        XCTAssertEqual(try decode(Named.self, #"{"two":1,"three":2,"one":3}"#).keys, [.two, .one])
    }

    func testMissingRequiredKey() {
        assertFails(TokenResponse.self, #"{"token_type":"Bearer"}"#, "access_token: missing required field")
        guard case .keyNotFound(let key, let context)? = decodingError(TokenResponse.self, "{}") else {
            return XCTFail("expected keyNotFound")
        }
        XCTAssertEqual(key.stringValue, "access_token")
        XCTAssertTrue(context.codingPath.isEmpty)
    }

    // MARK: - Unkeyed containers

    func testArraysOnlyMakeUnkeyedContainers() {
        assertFails([Int].self, #"{"0":1}"#, "expected array, found an object")
        assertFails([Int].self, #""1,2""#, "expected array, found a string")
        XCTAssertEqual(kind(decodingError([Int].self, "null")), "valueNotFound")
    }

    func testNestedArraysOfArrays() throws {
        XCTAssertEqual(try decode([[Int]].self, "[[1,2],[],[3]]"), [[1, 2], [], [3]])
        XCTAssertEqual(try decode([[[String]]].self, #"[[["a"]],[[],["b","c"]]]"#), [[["a"]], [[], ["b", "c"]]])
        assertFails([[Int]].self, "[[1],[2,[3]]]", "[1][1]: expected integer, found an array")
        assertFails([[Int]].self, "[[1],{}]", "[1]: expected array, found an object")
    }

    /// Walks an array by hand: a failed read does not advance, and reading past the end says so.
    private struct Walk: Decodable {
        var log: [String] = []

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            try readItems(&container)
            try readNested(&container)
            try readToTheEnd(&container)
        }

        private mutating func readItems(_ container: inout any UnkeyedDecodingContainer) throws {
            log.append("count \(container.count ?? -1)")
            if (try? container.decode(String.self)) == nil { log.append("not a string at \(container.currentIndex)") }
            log.append("int \(try container.decode(Int.self))")
            log.append("nil \(try container.decodeNil())")
            log.append("nil \(try container.decodeNil())")
        }

        private mutating func readNested(_ container: inout any UnkeyedDecodingContainer) throws {
            var nested = try container.nestedUnkeyedContainer()
            log.append("nested \(try nested.decode(Bool.self)) at \(ResponseDecodingError.path(nested.codingPath))")
            let keyed = try container.nestedContainer(keyedBy: AnyCodingKey.self)
            log.append(
                "keyed \(try keyed.decode(Int.self, forKey: "a")) \(ResponseDecodingError.path(keyed.codingPath))")
            let superDecoder = try container.superDecoder()
            log.append("super \(try superDecoder.singleValueContainer().decode(String.self))")
            log.append("super path \(ResponseDecodingError.path(superDecoder.codingPath))")
        }

        private mutating func readToTheEnd(_ container: inout any UnkeyedDecodingContainer) throws {
            log.append("optional \(String(describing: try container.decodeIfPresent(Int.self)))")
            log.append("optional \(String(describing: try container.decodeIfPresent(Int.self)))")
            log.append("at end \(container.isAtEnd)")
            log.append("end \(String(describing: try container.decodeIfPresent(Int.self)))")
            do {
                _ = try container.decode(Int.self)
            } catch DecodingError.valueNotFound(_, let context) {
                log.append("past the end at \(ResponseDecodingError.path(context.codingPath))")
            }
            do {
                _ = try container.decodeNil()
            } catch DecodingError.valueNotFound {
                log.append("no nil past the end")
            }
        }
    }

    func testUnkeyedContainerWalk() throws {
        XCTAssertEqual(
            try decode(Walk.self, #"[7,null,[true],{"a":1},"s",null,8]"#).log,
            [
                "count 7", "not a string at 0", "int 7", "nil true", "nil false", "nested true at [2]",
                "keyed 1 [3]", "super s", "super path [4]", "optional nil", "optional Optional(8)", "at end true",
                "end nil", "past the end at [7]", "no nil past the end",
            ])
    }

    // MARK: - Single-value containers and super decoders

    private struct Anything: Decodable {
        let description: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                description = "null"
            } else if let number = try? container.decode(Int.self) {
                description = "int \(number)"
            } else if let string = try? container.decode(String.self) {
                description = "string \(string)"
            } else {
                description = "other \(try container.decode(JSONValue.self))"
            }
        }
    }

    func testSingleValueContainersFromAnything() throws {
        XCTAssertEqual(
            try decode([Anything].self, #"[null,1,"s",1.5,{"b":1.0,"a":[]},[true]]"#).map(\.description),
            ["null", "int 1", "string s", #"other 1.5"#, #"other {"b":1.0,"a":[]}"#, "other [true]"])
    }

    private struct Super: Decodable {
        let base: Coding
        let named: Coding
        let missing: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            base = try Coding(from: container.superDecoder())
            named = try Coding(from: container.superDecoder(forKey: "parent"))
            missing = try container.superDecoder(forKey: "missing").singleValueContainer().decodeNil()
        }
    }

    func testSuperDecoders() throws {
        let value = try decode(Super.self, #"{"super":{"code":"s"},"parent":{"code":"p"}}"#)
        XCTAssertEqual(value.base.code, "s")
        XCTAssertEqual(value.named.code, "p")
        XCTAssertTrue(value.missing, "an absent key gives a decoder of null")
        assertFails(Super.self, #"{"super":{"code":1}}"#, "super/code: expected string, found a number")
        assertFails(
            Super.self, #"{"super":{},"parent":[]}"#, "parent: expected object, found an array")
    }

    private struct Nested: Decodable {
        let inner: Int
        let list: [Int]
        let paths: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            let object = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: "object")
            inner = try object.decode(Int.self, forKey: "inner")
            var array = try container.nestedUnkeyedContainer(forKey: "array")
            var list: [Int] = []
            while !array.isAtEnd { list.append(try array.decode(Int.self)) }
            self.list = list
            paths = [decoder.codingPath, container.codingPath, object.codingPath, array.codingPath]
                .map(ResponseDecodingError.path)
        }
    }

    func testNestedContainersAndCodingPaths() throws {
        let value = try decode([String: [Nested]].self, #"{"x":[{"object":{"inner":1},"array":[2,3]}]}"#)
        XCTAssertEqual(value["x"]?.first?.inner, 1)
        XCTAssertEqual(value["x"]?.first?.list, [2, 3])
        XCTAssertEqual(value["x"]?.first?.paths, ["x[0]", "x[0]", "x[0]/object", "x[0]/array"])
        assertFails(
            [Nested].self, #"[{"object":{"inner":1},"array":[2,"3"]}]"#,
            "[0]/array[1]: expected integer, found a string")
        assertFails([Nested].self, #"[{"object":{},"array":[]}]"#, "[0]/object/inner: missing required field")
        assertFails([Nested].self, #"[{"array":[]}]"#, "[0]/object: missing required field")
        assertFails(
            [Nested].self, #"[{"object":{"inner":1},"array":{}}]"#, "[0]/array: expected array, found an object")
    }

    // MARK: - JSONValue

    private struct Holder: Decodable {
        let value: JSONValue
        let list: [JSONValue]
        let map: [String: JSONValue]
        let single: JSONValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            value = try container.decode(JSONValue.self, forKey: "value")
            var unkeyed = try container.nestedUnkeyedContainer(forKey: "list")
            var list: [JSONValue] = []
            while !unkeyed.isAtEnd { list.append(try unkeyed.decode(JSONValue.self)) }
            self.list = list
            map = try container.decode([String: JSONValue].self, forKey: "map")
            single = try container.superDecoder(forKey: "value").singleValueContainer().decode(JSONValue.self)
        }
    }

    func testJSONValueIsReadUnchanged() throws {
        let document = #"{"z":2.50,"a":[1.0,-0,1e400,{"y":null,"x":"s","y":12345678901234567890}],"m":{}}"#
        XCTAssertEqual(try decode(JSONValue.self, document).description, document, "top level")
        XCTAssertEqual(
            try JSONValueDecoder().decode(JSONValue.self, from: try JSONValue.parse(Data(document.utf8))).description,
            document)
        let holder = try decode(
            Holder.self, #"{"value":\#(document),"list":[2.50,\#(document)],"map":{"n":1.0,"o":\#(document)}}"#)
        XCTAssertEqual(holder.value.description, document, "in a keyed container")
        XCTAssertEqual(holder.single.description, document, "in a single-value container")
        XCTAssertEqual(holder.list.map(\.description), ["2.50", document], "in an unkeyed container")
        XCTAssertEqual(holder.map["n"]?.description, "1.0", "in a dictionary")
        XCTAssertEqual(holder.map["o"]?.description, document)
        XCTAssertEqual(try decode([JSONValue].self, "[1.0,[2.50]]").map(\.description), ["1.0", "[2.50]"])
        XCTAssertEqual(try decode([String: JSONValue].self, #"{"a":1E2}"#)["a"]?.numberValue?.text, "1E2")
        XCTAssertEqual(try decode(JSONValue?.self, "null"), nil)
        XCTAssertEqual(try decode([JSONValue?].self, "[null,1.0]").map { $0?.description }, [nil, "1.0"])
    }

    // MARK: - Dictionaries

    func testDictionariesDecodeFromObjects() throws {
        XCTAssertEqual(try decode([String: Int].self, #"{"a":1,"b":2e0}"#), ["a": 1, "b": 2])
        XCTAssertEqual(
            try decode([String: [String: Bool]].self, #"{"a":{"b":true},"c":{}}"#), ["a": ["b": true], "c": [:]])
        XCTAssertEqual(try decode([String: Int].self, #"{"a":1,"a":2}"#), ["a": 2], "the last duplicate wins")
        XCTAssertEqual(try decode([String: String?].self, #"{"a":null}"#), ["a": nil])
        XCTAssertEqual(try decode([Int: String].self, #"{"1":"one","20":"twenty"}"#), [1: "one", 20: "twenty"])
        XCTAssertEqual(try decode([String: [Int]].self, "{}"), [:])
        assertFails([String: [Int]].self, #"{"a":[1],"b":[1,"2"]}"#, "b[1]: expected integer, found a string")
    }

    // MARK: - Foundation types read through their own Decodable

    func testFoundationTypesGetNoSpecialStrategies() throws {
        XCTAssertEqual(try decode(Date.self, "0"), Date(timeIntervalSinceReferenceDate: 0))
        XCTAssertEqual(kind(decodingError(Date.self, #""2017-08-10T12:34:56Z""#)), "typeMismatch")
        XCTAssertEqual(try decode(Data.self, "[1,2,3]"), Data([1, 2, 3]))
        XCTAssertEqual(kind(decodingError(Data.self, #""AQID""#)), "typeMismatch", "no base64 strategy")
        XCTAssertEqual(kind(decodingError(Data.self, "[1,2,300]")), "dataCorrupted")
        XCTAssertEqual(
            try decode(UUID.self, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#),
            UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        XCTAssertEqual(kind(decodingError(UUID.self, #""nope""#)), "dataCorrupted")
        // URL and Decimal read whatever their own implementations read; nothing may crash on any input.
        let inputs = [
            "1", "1.5", "-1e400", #""https://example.com""#, "null", "[]", "{}", #"{"relative":"a"}"#,
            #"{"exponent":1000,"length":99,"isNegative":true,"isCompact":false,"mantissa":[1,2,3,4,5,6,7,8]}"#,
            #"{"exponent":-129,"length":-1,"isNegative":1,"isCompact":true,"mantissa":[70000]}"#,
            #"{"exponent":127,"length":8,"isNegative":true,"isCompact":false,"mantissa":[1,1,1,1,1,1,1,1,1]}"#,
        ]
        for json in inputs {
            _ = try? decode(URL.self, json)
            _ = try? decode(Decimal.self, json)
            _ = try? decode(Date.self, json)
            _ = try? decode(Data.self, json)
            _ = try? decode(UUID.self, json)
        }
    }

    // MARK: - Malformed input and user info

    func testMalformedJSONIsCorruptedDataWithAnEmptyPath() {
        for json in ["{", "[1,]", "\u{FEFF}{}", #"{"a":01}"#, "", "1 2", "[\"\\x\"]"] {
            let error = decodingError(JSONValue.self, json)
            XCTAssertEqual(kind(error), "dataCorrupted", json)
            XCTAssertEqual(context(error)?.codingPath.isEmpty, true, json)
            XCTAssertTrue(context(error)?.underlyingError is JSONValueError, json)
            if let error { XCTAssertEqual(ResponseDecodingError(error).description, "malformed JSON", json) }
        }
        XCTAssertEqual(
            context(decodingError(Int.self, "[1,]"))?.debugDescription,
            "malformed JSON at byte 3: unexpected ']'")
    }

    private struct UserInfoProbe: Decodable {
        let found: [String]

        init(from decoder: any Decoder) throws {
            let nested = try decoder.container(keyedBy: AnyCodingKey.self).superDecoder(forKey: "a")
            found = [decoder, nested].map { ($0.userInfo[JSONValueDecoderTests.userInfoKey] as? String) ?? "none" }
        }
    }

    private static let userInfoKey = CodingUserInfoKey(rawValue: "probe")!

    func testUserInfoReachesEveryDecoder() throws {
        let decoder = JSONValueDecoder(userInfo: [Self.userInfoKey: "here"])
        XCTAssertEqual(try decoder.decode(UserInfoProbe.self, from: Data(#"{"a":{}}"#.utf8)).found, ["here", "here"])
        XCTAssertEqual(try JSONValueDecoder().decode(UserInfoProbe.self, from: .object([:])).found, ["none", "none"])
    }

    // MARK: - Depth and hostile input

    private indirect enum Tree: Decodable {
        case leaf
        case node([Tree])

        var depth: Int {
            guard case .node(let children) = self else { return 0 }
            return 1 + (children.map(\.depth).max() ?? 0)
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var children: [Tree] = []
            while !container.isAtEnd {
                if try container.decodeNil() {
                    children.append(.leaf)
                } else {
                    children.append(try container.decode(Tree.self))
                }
            }
            self = .node(children)
        }
    }

    func testTheDeepestDocumentTheParserAccepts() throws {
        let depth = JSONValue.maximumDepth
        let json = String(repeating: "[", count: depth) + "null" + String(repeating: "]", count: depth)
        XCTAssertEqual(try decode(Tree.self, json).depth, depth)
        XCTAssertEqual(try decode(JSONValue.self, json).description, json)
        let keyed = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        XCTAssertEqual(try decode(JSONValue.self, keyed).description, keyed)
    }

    private struct Chain: Decodable {
        let next: [Chain]?

        init(from decoder: any Decoder) throws {
            next = try decoder.container(keyedBy: AnyCodingKey.self).decodeIfPresent([Chain].self, forKey: "n")
        }
    }

    /// The deepest document on a thread with the 512 KiB stack Apple platforms give secondary threads.
    func testTheDeepestDocumentOnASmallStack() throws {
        let depth = JSONValue.maximumDepth / 2 - 1
        let json = String(repeating: #"{"n":["#, count: depth) + "{}" + String(repeating: "]}", count: depth)
        let data = Data(json.utf8)
        let finished = expectation(description: "decoded")
        let thread = Thread {
            do {
                _ = try JSONValueDecoder().decode(Chain.self, from: data)
            } catch {
                XCTFail("\(error)")
            }
            finished.fulfill()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        wait(for: [finished], timeout: 60)
    }

    /// Mutations of a valid document, decoded as every model here: each must decode or throw, never crash.
    func testMutatedDocumentsNeverCrash() {
        let seed = Array(
            #"""
            {"resourceType":"OperationOutcome","id":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","total":2,"count":1e400,
            "issue":[{"severity":"error","type":{"code":"x"},"details":{"coding":[{"code":1.5e-3}]},"location":["a"]}],
            "access_token":"t","expires_in":-9223372036854775809,"super":{"code":null},"m":[[[]]],"n":-0.0E+0}
            """#.utf8)
        let alphabet = Array(#"{}[]",:0123456789.eE+-nultrfase\ "#.utf8)
        var generator = SplitMix64(seed: 42)
        for _ in 0..<3000 {
            var bytes = seed
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                let byte = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                switch generator.next() % 3 {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: bytes.remove(at: position)
                }
            }
            let data = Data(bytes)
            let decoder = JSONValueDecoder()
            _ = try? decoder.decode(Outcome.self, from: data)
            _ = try? decoder.decode(TokenResponse.self, from: data)
            _ = try? decoder.decode(Super.self, from: data)
            _ = try? decoder.decode([String: JSONValue].self, from: data)
            _ = try? decoder.decode([String: Anything].self, from: data)
            _ = try? decoder.decode(EveryScalar.self, from: data)
        }
    }
}

/// A small deterministic generator, so a failing mutation can be replayed.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
