import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// `JSONValue`: exact round trips of member order and number text, strict refusal of malformed input with the
/// byte it failed at, and `Codable` through Foundation's coders.
final class JSONValueTests: XCTestCase {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(Data(text.utf8)) }

    private func roundTrip(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let value = try parse(text)
            XCTAssertEqual(String(decoding: value.serialized(), as: UTF8.self), text, file: file, line: line)
            XCTAssertEqual(value.description, text, file: file, line: line)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
        }
    }

    private func assertRefused(
        _ bytes: [UInt8], _ reason: JSONValueError.Reason, at offset: Int, _ message: String = "",
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try JSONValue.parse(Data(bytes)), message, file: file, line: line) { error in
            let expected = JSONValueError(reason, offset: offset)
            XCTAssertEqual(error as? JSONValueError, expected, message, file: file, line: line)
        }
    }

    private func assertRefused(
        _ text: String, _ reason: JSONValueError.Reason, at offset: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        assertRefused(Array(text.utf8), reason, at: offset, file: file, line: line)
    }

    // MARK: - Round trips

    func testCompactInputComesBackByteForByte() {
        let delete = #""grüße ✓ 😀 \u0000\u001f\b\f\n\r\t\"\\ / "# + "\u{7F}\""
        let decomposed = #"{"é":"\u0001","e"# + "\u{301}" + #"":"é"}"#
        let cases: [String] = [
            "null", "true", "false", "0", "-0", "1.0", "-0.0", "1e400", "-1E-400", "2.50e+10", "1E5",
            "12345678901234567890", "123456789012345678901234567890.000000000000000000001",
            #""""#, #""plain""#, delete,
            "[]", "{}", "[[],{},[{}]]", #"[1,"two",3.0,null,true,false,{"k":[]}]"#,
            #"{"z":1,"a":2,"m":{"y":[1,2,{"b":null,"a":true}],"x":"x"}}"#,
            #"{"dup":1,"dup":2}"#, #"{"":""}"#, decomposed,
        ]
        for text in cases { roundTrip(text) }
    }

    func testNumbersKeepTheirText() throws {
        for text in ["1.0", "1e400", "-0", "12345678901234567890", "0.10", "1E+2", "-1.5e-3"] {
            XCTAssertEqual(try parse("[\(text)]")[0]?.numberValue?.text, text)
        }
        XCTAssertNotEqual(try parse("1"), try parse("1.0"), "numbers compare by text")
    }

    /// Quotes, backslashes and control characters are escaped wherever they stand, with the short escapes where
    /// JSON has one; everything else, non-ASCII included, is written as it is.
    func testStringsEscapeExactlyWhatJSONRequires() throws {
        let escapes: [(String, String)] = [
            ("\"", #"\""#), ("\\", #"\\"#), ("\u{08}", #"\b"#), ("\u{0C}", #"\f"#), ("\n", #"\n"#), ("\r", #"\r"#),
            ("\t", #"\t"#), ("\u{00}", #"\u0000"#), ("\u{1F}", #"\u001f"#), ("/", "/"), ("\u{7F}", "\u{7F}"),
            ("é😀", "é😀"),
        ]
        for (character, written) in escapes {
            for (before, after) in [("", ""), ("ab", ""), ("", "cd"), ("a long run of text before it", "and after")] {
                let value = JSONValue.string(before + character + after + character)
                let expected = "\"" + before + written + after + written + "\""
                XCTAssertEqual(String(decoding: value.serialized(), as: UTF8.self), expected)
                XCTAssertEqual(try JSONValue.parse(value.serialized()), value)
            }
        }
        let many = (0..<1_000).map { "\($0)\"\n" }.joined()
        XCTAssertEqual(try JSONValue.parse(JSONValue.string(many).serialized()), .string(many), "escapes between runs")
        let key = JSONValue.object(JSONObject([("k\"\n", .string(""))]))
        XCTAssertEqual(String(decoding: key.serialized(), as: UTF8.self), #"{"k\"\n":""}"#)
    }

    func testWhitespaceAndEscapeSpellingsAreNormalised() throws {
        let value = try parse(" {\n\t\"a\" : [ 1 , \"\\/\\u00e9\\u000A\\uD83D\\uDE00\" ] }\r\n")
        XCTAssertEqual(String(decoding: value.serialized(), as: UTF8.self), "{\"a\":[1,\"/é\\n😀\"]}")
        XCTAssertEqual(value["a"]?[1]?.stringValue, "/é\n😀")
    }

    func testMemberOrderAndDuplicatesAreKept() throws {
        let value = try parse(#"{"b":1,"a":2,"b":3}"#)
        let object = try XCTUnwrap(value.objectValue)
        XCTAssertEqual(object.keys, ["b", "a", "b"])
        XCTAssertEqual(object.count, 3)
        XCTAssertEqual(value["b"], 3, "the last member with a key wins")
        XCTAssertEqual(object.map(\.key), ["b", "a", "b"])
        let forward = try parse(#"{"a":1,"b":2}"#)
        let backward = try parse(#"{"b":2,"a":1}"#)
        XCTAssertEqual(forward, backward, "JSON objects are unordered")
        XCTAssertEqual(forward.hashValue, backward.hashValue)
        XCTAssertEqual(
            String(decoding: backward.serialized(), as: UTF8.self), #"{"b":2,"a":1}"#, "writing keeps the order")
        XCTAssertNotEqual(forward, try parse(#"{"a":1,"b":3}"#))
    }

    func testObjectEditing() {
        var object: JSONObject = ["b": 1, "a": 2, "c": 3]
        object["a"] = "x"
        object["d"] = .null
        XCTAssertEqual(JSONValue.object(object).description, #"{"b":1,"a":"x","c":3,"d":null}"#)
        object["b"] = nil
        XCTAssertEqual(object.description, #"{"a":"x","c":3,"d":null}"#)
        var duplicates = JSONObject([("k", 1), ("j", 2), ("k", 3)])
        duplicates["k"] = 4
        XCTAssertEqual(duplicates.description, #"{"k":4,"j":2}"#, "setting a key leaves one member where the first was")
        XCTAssertTrue(JSONObject().isEmpty)
    }

    func testLiteralsAndAccessors() throws {
        let value: JSONValue = ["name": "x", "n": 3, "f": 0.5, "ok": true, "list": [1, .null, "s"], "none": .null]
        XCTAssertEqual(value.description, #"{"name":"x","n":3,"f":0.5,"ok":true,"list":[1,null,"s"],"none":null}"#)
        XCTAssertEqual(value["name"]?.stringValue, "x")
        XCTAssertEqual(value["n"]?.numberValue?.intValue, 3)
        XCTAssertEqual(value["f"]?.numberValue?.doubleValue, 0.5)
        XCTAssertEqual(value["ok"]?.boolValue, true)
        XCTAssertEqual(value["list"]?[1]?.isNull, true)
        XCTAssertEqual(value["list"]?.arrayValue?.count, 3)
        XCTAssertNil(value["list"]?[3], "out of range")
        XCTAssertNil(value["list"]?[-1], "out of range")
        XCTAssertNil(value["missing"])
        XCTAssertNil(value[0], "not an array")
        XCTAssertNil(value["name"]?["x"], "not an object")
        XCTAssertNil(value["name"]?.boolValue)
        XCTAssertFalse(value.isNull)
    }

    func testNumberConversions() throws {
        XCTAssertEqual(JSONNumber("1.0")?.text, "1.0")
        let invalidNumbers = [
            "", " 1", "1 ", "+1", "01", "-01", "1.", ".5", "-", "1e", "1e+", "0x10", "NaN", "Infinity", "1_0", "١",
        ]
        for invalid in invalidNumbers {
            XCTAssertNil(JSONNumber(invalid), invalid)
        }
        XCTAssertEqual(JSONNumber(42).text, "42")
        XCTAssertEqual(JSONNumber(-7).text, "-7")
        XCTAssertEqual(JSONNumber(1.0).text, "1.0")
        XCTAssertEqual(JSONNumber(0.1).text, "0.1")
        XCTAssertEqual(JSONNumber(1e16).text, "1e+16")
        XCTAssertEqual(JSONNumber(-0.0).text, "-0.0")
        XCTAssertEqual(JSONNumber(Double.leastNonzeroMagnitude).text, "5e-324")
        XCTAssertNil(JSONNumber(exactly: .infinity))
        XCTAssertNil(JSONNumber(exactly: .nan))
        for value in [0.1, 1.0 / 3.0, 6.02214076e23, -2.5e-300, Double.greatestFiniteMagnitude] {
            let number = try XCTUnwrap(JSONNumber(exactly: value))
            XCTAssertNotNil(JSONNumber(number.text), "\(number.text) is a JSON number")
            XCTAssertEqual(number.doubleValue, value, "shortest text reads back as the same Double")
        }

        let ints: [(String, Int?)] = [
            ("0", 0), ("-0", 0), ("3", 3), ("3.0", 3), ("3.50e1", 35), ("1e2", 100), ("100e-2", 1), ("0.0e99999", 0),
            ("-9223372036854775808", Int.min), ("9223372036854775807", Int.max), ("9223372036854775808", nil),
            ("12345678901234567890", nil), ("3.5", nil), ("1e-1", nil), ("1e19", nil), ("1e99999999999999999999", nil),
            ("0.000000000000000000000000000000000000000001e42", 1),
        ]
        for (text, expected) in ints { XCTAssertEqual(JSONNumber(text)?.intValue, expected, text) }
        XCTAssertNil(JSONNumber("1e400")?.doubleValue, "too large for a Double")
        XCTAssertEqual(JSONNumber("1e-400")?.doubleValue, 0)
        XCTAssertEqual(JSONNumber("12345678901234567890")?.doubleValue, Double(UInt64(12_345_678_901_234_567_890)))
    }

    func testIntValueWithHugeExponents() {
        let zeros = String(repeating: "0", count: 2_000)
        XCTAssertNil(JSONNumber("1" + zeros + "e-3000")?.intValue, "10^-1000 is not an integer")
        XCTAssertEqual(JSONNumber("1" + zeros + "e-2000")?.intValue, 1)
        XCTAssertEqual(JSONNumber("-1" + zeros + "e-1999")?.intValue, -10)
        XCTAssertEqual(JSONNumber("0e99999999999999999999")?.intValue, 0)
        XCTAssertNil(JSONNumber("1e-99999999999999999999")?.intValue)
    }

    // MARK: - Malformed input

    func testMutatedInputNeverCrashesAndWhatParsesRoundTrips() throws {
        let seeds = [
            #"{"a":[1,-2.5e+3,true,false,null,"x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"],"b":{"c":{}}}"#,
            #"[0,-0,1e400,"grüße ✓",[[[]]],{"":""}]"#,
            " \t\r\n[ 1 , { \"k\" : \"v\" } ] ",
        ]
        var random = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"[]{}",:\-0e."#.utf8)
        var accepted = 0
        for round in 0..<3_000 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0...random.next(in: 0...3) {
                let position = random.next(in: 0...bytes.count)
                switch random.next(in: 0...3) {
                case 0 where position < bytes.count: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.insert(alphabet[random.next(in: 0...alphabet.count - 1)], at: position)
                case 2 where position < bytes.count: bytes.remove(at: position)
                default: bytes.removeLast(min(bytes.count, random.next(in: 0...2)))
                }
            }
            guard let value = try? JSONValue.parse(Data(bytes)) else { continue }
            accepted += 1
            let serialized = value.serialized()
            let reread = try JSONValue.parse(serialized)
            XCTAssertEqual(reread, value, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(reread.serialized(), serialized)
        }
        XCTAssertGreaterThan(accepted, 100, "some mutations are still JSON")
    }

    func testMalformedInputIsRefusedWithTheOffset() {
        assertRefused("", .unexpectedEnd, at: 0)
        assertRefused("   ", .unexpectedEnd, at: 3)
        assertRefused("[1,2,]", .unexpectedByte(UInt8(ascii: "]")), at: 5)
        assertRefused(#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}")), at: 7)
        assertRefused("[1 2]", .unexpectedByte(UInt8(ascii: "2")), at: 3)
        assertRefused(#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1")), at: 5)
        assertRefused("{a:1}", .unexpectedByte(UInt8(ascii: "a")), at: 1)
        assertRefused("[1", .unexpectedEnd, at: 2)
        assertRefused(#"{"a":"#, .unexpectedEnd, at: 5)
        assertRefused("01", .invalidNumber, at: 1)
        assertRefused("[-012]", .invalidNumber, at: 3)
        assertRefused("1.", .invalidNumber, at: 2)
        assertRefused("1.e5", .invalidNumber, at: 2)
        assertRefused("-", .invalidNumber, at: 1)
        assertRefused("1e+", .invalidNumber, at: 3)
        assertRefused("+1", .unexpectedByte(UInt8(ascii: "+")), at: 0)
        assertRefused(".5", .unexpectedByte(UInt8(ascii: ".")), at: 0)
        assertRefused("NaN", .unexpectedByte(UInt8(ascii: "N")), at: 0)
        assertRefused("tru", .invalidLiteral, at: 0)
        assertRefused("[nul]", .invalidLiteral, at: 1)
        assertRefused("True", .unexpectedByte(UInt8(ascii: "T")), at: 0)
        assertRefused(#"["abc"#, .unterminatedString, at: 1)
        assertRefused(#""abc\"#, .unterminatedString, at: 4)
        assertRefused("\"a\nb\"", .controlCharacterInString, at: 2)
        assertRefused("\"a\tb\"", .controlCharacterInString, at: 2)
        assertRefused(#""\x""#, .invalidEscape, at: 1)
        assertRefused(#""\u12""#, .invalidEscape, at: 1)
        assertRefused(#""\u12G4""#, .invalidEscape, at: 1)
        assertRefused(#""\uD800""#, .loneSurrogate, at: 1)
        assertRefused(#""a\uD83Dx""#, .loneSurrogate, at: 2)
        assertRefused(#""\uD83D\u0041""#, .loneSurrogate, at: 1)
        assertRefused(#""\uD83D\uD83D""#, .loneSurrogate, at: 1)
        assertRefused(#""\uDE00""#, .loneSurrogate, at: 1)
        assertRefused("1 2", .trailingContent, at: 2)
        assertRefused("{} x", .trailingContent, at: 3)
        assertRefused("[1] // comment", .trailingContent, at: 4)
        assertRefused("\u{FEFF}1", .unexpectedByte(0xEF), at: 0)
        assertRefused("[1,\u{A0}2]", .unexpectedByte(0xC2), at: 3)
    }

    func testBytesThatAreNotUTF8AreRefused() {
        let quote = UInt8(ascii: "\"")
        assertRefused([quote, 0xC3, 0x28, quote], .invalidUTF8, at: 1)
        assertRefused([quote, 0xC0, 0xAF, quote], .invalidUTF8, at: 1, "an overlong '/'")
        assertRefused([quote, 0xED, 0xA0, 0x80, quote], .invalidUTF8, at: 1, "an encoded surrogate")
        assertRefused([quote, 0xF4, 0x90, 0x80, 0x80, quote], .invalidUTF8, at: 1, "above U+10FFFF")
        assertRefused([quote, 0xE2, 0x82], .invalidUTF8, at: 1, "cut short")
        assertRefused([quote, 0x61, 0xFF, quote], .invalidUTF8, at: 2)
        XCTAssertEqual(try JSONValue.parse(Data([quote, 0xF0, 0x9F, 0x98, 0x80, quote])).stringValue, "😀")
    }

    func testNestingIsBoundedWithoutRecursion() throws {
        let depth = JSONValue.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        roundTrip(deepest)
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        assertRefused(tooDeep, .tooDeep, at: depth)
        assertRefused(String(repeating: "[", count: 10_000), .tooDeep, at: depth)
        assertRefused(String(repeating: #"{"a":"#, count: 10_000), .tooDeep, at: depth * 5)
        assertRefused(String(repeating: "[", count: 100), .unexpectedEnd, at: 100)
    }

    /// The deepest value the SDK reads can be written by the stores, inside as many levels of its own state as
    /// remain: the reader never accepts what the store cannot write.
    func testTheDeepestValueReadCanBeStored() async throws {
        let depth = JSONValue.maximumDepth
        let deepest = try JSONValue.parse(
            Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8))
        var wrapped = deepest
        for level in 0..<(JSONValue.writableDepth - depth) {
            wrapped = level.isMultiple(of: 2) ? .array([wrapped]) : .object(JSONObject([(key: "m", value: wrapped)]))
        }
        let store = InMemoryCredentialStore()
        try await store.writeValue(wrapped, for: "deep")
        await XCTAssertEqualAsync(try await store.readValue(JSONValue.self, for: "deep"), wrapped)
        XCTAssertThrowsError(try JSONCoding.encode(JSONValue.array([wrapped])), "the writer's limit is where it was")
    }

    func testErrorsDescribeThemselves() {
        XCTAssertEqual(
            JSONValueError(.invalidNumber, offset: 7).description,
            "malformed JSON at byte 7: a leading zero or a missing digit in a number"
        )
        XCTAssertEqual(
            JSONValueError(.unexpectedByte(UInt8(ascii: "]")), offset: 5).description,
            "malformed JSON at byte 5: unexpected ']'"
        )
        XCTAssertEqual(
            JSONValueError(.unexpectedByte(0xEF), offset: 0).description,
            "malformed JSON at byte 0: unexpected byte 0xEF"
        )
    }

    // MARK: - Codable

    private struct Envelope: Codable, Equatable {
        let id: Int
        let extra: JSONValue
        let optional: JSONValue?
    }

    func testDecodingThroughJSONDecoder() throws {
        let json = #"{"id":7,"extra":{"z":[1,2.5,-3,18446744073709551615,"s",true,null],"a":{"b":{}}},"optional":null}"#
        let envelope = try JSONDecoder().decode(Envelope.self, from: Data(json.utf8))
        XCTAssertEqual(envelope.id, 7)
        XCTAssertEqual(envelope.extra["z"]?.description, #"[1,2.5,-3,18446744073709551615,"s",true,null]"#)
        XCTAssertEqual(envelope.extra.objectValue?.keys, ["a", "z"], "members read through a Decoder are sorted")
        XCTAssertEqual(envelope.extra["a"], ["b": [:]])
        XCTAssertNil(envelope.optional, "null for an optional is nil, as for any Codable type")
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: Data("null".utf8)), .null)
        XCTAssertEqual(try JSONDecoder().decode([JSONValue].self, from: Data("[null,1.5]".utf8)), [.null, 1.5])
        XCTAssertEqual(try JSONCoding.decode(JSONValue.self, from: Data(#""x""#.utf8)), "x")
    }

    func testEncodingThroughJSONEncoder() throws {
        let value = try parse(#"{"b":[1,2.5,-0,12345678901234567890,"s\n",true,null],"a":{}}"#)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(Envelope(id: 1, extra: value, optional: "x"))
        let reread = try JSONValue.parse(data)
        XCTAssertEqual(
            reread.description,
            #"{"extra":{"a":{},"b":[1,2.5,0,12345678901234567890,"s\n",true,null]},"id":1,"optional":"x"}"#
        )
        let decoded = try JSONDecoder().decode(Envelope.self, from: data)
        XCTAssertEqual(decoded.extra["b"]?[3], try parse("12345678901234567890"))
        XCTAssertThrowsError(try JSONEncoder().encode(try parse("[1e400]"))) { error in
            guard case EncodingError.invalidValue = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(
            String(decoding: try JSONCoding.encode(["k": 1.0] as JSONValue), as: UTF8.self), #"{"k":1.0}"#,
            "the SDK's own writing keeps the number's text")
    }

    func testValuesAreHashable() throws {
        let values: Set<JSONValue> = [try parse("[1,2]"), try parse("[1, 2]"), try parse("[2,1]"), try parse("{}")]
        XCTAssertEqual(values.count, 3)
    }
}
