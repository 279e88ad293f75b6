import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// The runtime's JSON writer: Foundation's bytes for what `JSONEncoder` can write, exact numbers beyond that.
final class JSONValueEncoderTests: XCTestCase {
    private struct Measurement: Codable, Equatable {
        var value: JSONNumber
        var extra: JSONValue?
    }

    private func text(_ value: some Encodable) throws -> String {
        String(decoding: try JSONCoding.encode(value), as: UTF8.self)
    }

    func testNumbersAreWrittenAsTheyWereRead() throws {
        for number in ["1.50", "3.0", "-0", "1e-7", "1E+2", "1e400", "0.000001", "12345678901234567890123"] {
            let json = #"{"extra":{"z":[\#(number)],"a":1.0},"value":\#(number)}"#
            let decoded = try JSONCoding.decode(Measurement.self, from: Data(json.utf8))
            XCTAssertEqual(decoded.value.text, number)
            XCTAssertEqual(try text(decoded), #"{"extra":{"a":1.0,"z":[\#(number)]},"value":\#(number)}"#)
        }
    }

    func testAnotherCodersNumbersAreSpelledFromTheirValue() throws {
        let decoded = try JSONDecoder().decode(Measurement.self, from: Data(#"{"value":1.50}"#.utf8))
        XCTAssertEqual(decoded.value.text, "1.5")
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self), #"{"value":1.5}"#)
        XCTAssertThrowsError(try JSONEncoder().encode(Measurement(value: JSONNumber("1e400")!))) {
            guard case EncodingError.invalidValue = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try JSONCoding.decode(Measurement.self, from: Data(#"{"value":"1.5"}"#.utf8))) {
            XCTAssertEqual(String(describing: $0), "value: expected number, found a string")
        }
    }

    func testNonFiniteNumbersAreRefusedWithTheirPath() {
        XCTAssertThrowsError(try JSONCoding.encode(["a": [1, Double.nan]])) {
            guard case EncodingError.invalidValue(_, let context) = $0 else { return XCTFail("\($0)") }
            XCTAssertEqual(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }, ["a", "1"])
        }
        XCTAssertThrowsError(try JSONCoding.encode(Float.infinity))
    }

    /// Super encoders, nested containers and values that write nothing land where Foundation puts them.
    func testEveryContainerRouteMatchesFoundation() throws {
        for node in [Node.mixed(seed: 1), .mixed(seed: 2), .array([.empty, .mixed(seed: 3), .null])] {
            try assertSameBytes(node)
        }
        // Sorted by UTF-8 bytes: a decomposed `é` before U+007F, U+FF61 before an emoji (a fresh seed's case).
        let keys = ["\u{FF61}", "😀", "\u{7F}", "e\u{301}", "\u{E9}x", "\r\r", "\u{FEFF}"]
        try assertSameBytes(.object(Dictionary(uniqueKeysWithValues: keys.map { ($0, Node.int(1)) })))
        try assertSameBytes(.json(.object(JSONObject(keys.map { ($0, true) }))))
        XCTAssertThrowsError(try JSONCoding.encode(Node.empty), "a document with no value") {
            guard case EncodingError.invalidValue = $0 else { return XCTFail("\($0)") }
        }
    }

    /// Random trees of every scalar, container and route: the same bytes as `JSONEncoder` writes.
    func testRandomValuesMatchFoundation() throws {
        let seed = ProofSeed.jsonWriting.draw()
        var random = SplitMix64(seed: seed)
        for round in 0..<400 {
            let node = Node.array([Node.random(&random, depth: 4)])
            try assertSameBytes(node, "round \(round), seed \(seed)")
        }
    }

    private func assertSameBytes(_ node: Node, _ message: String = "", line: UInt = #line) throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = String(decoding: try foundation.encode(node), as: UTF8.self)
        XCTAssertEqual(try text(node), expected, message, line: line)
    }
}

/// A value encoded through every route a `Codable` implementation can take.
private indirect enum Node: Encodable {
    case string(String)
    case int(Int)
    case int64(Int64)
    case uint64(UInt64)
    case int8(Int8)
    case uint16(UInt16)
    case double(Double)
    case float(Float)
    case bool(Bool)
    case null
    case data(Data)
    case url(URL)
    case decimal(Decimal)
    case date(Date)
    case json(JSONValue)
    case array([Node])
    case object([String: Node])
    /// Typed writes into keyed and unkeyed containers, nested containers and super encoders.
    case mixed(seed: UInt64)
    /// A value that asks for no container, which Foundation writes as `{}`.
    case empty

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let nodes):
            var container = encoder.unkeyedContainer()
            for node in nodes { try container.encode(node) }
        case .object(let members):
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, node) in members { try container.encode(node, forKey: AnyCodingKey(key)) }
        case .mixed(let seed):
            try encodeMixed(seed, to: encoder)
        case .empty:
            break
        default:
            var container = encoder.singleValueContainer()
            try encodeScalar(into: &container)
        }
    }

    private func encodeScalar(into container: inout any SingleValueEncodingContainer) throws {
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .int64(let value): try container.encode(value)
        case .uint64(let value): try container.encode(value)
        case .int8(let value): try container.encode(value)
        case .uint16(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .data(let value): try container.encode(value)
        case .url(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .json(let value): try container.encode(value)
        case .array, .object, .mixed, .empty: try container.encode(self)
        }
    }

    private func encodeMixed(_ seed: UInt64, to encoder: any Encoder) throws {
        var random = SplitMix64(seed: seed)
        var keyed = encoder.container(keyedBy: AnyCodingKey.self)
        try keyed.encode(Int32(truncatingIfNeeded: random.next()), forKey: "int32")
        try keyed.encode(UInt8(truncatingIfNeeded: random.next()), forKey: "uint8")
        try keyed.encode(Double(bitPattern: random.next() & 0x3FFF_FFFF_FFFF_FFFF), forKey: "double")
        try keyed.encode(Self.randomString(&random), forKey: "string")
        try keyed.encodeNil(forKey: "nil")
        try keyed.encodeIfPresent(Int?.none, forKey: "absent")
        var nested = keyed.nestedContainer(keyedBy: AnyCodingKey.self, forKey: "nested")
        try nested.encode(true, forKey: "b")
        try nested.encode(Node.random(&random, depth: 1), forKey: "a")
        var list = keyed.nestedUnkeyedContainer(forKey: "list")
        try list.encode(UInt32(truncatingIfNeeded: random.next()))
        try list.encode(Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x3FFF_FFFF))
        try list.encodeNil()
        var inner = list.nestedContainer(keyedBy: AnyCodingKey.self)
        try inner.encode(Node.random(&random, depth: 1), forKey: "x")
        var innerList = list.nestedUnkeyedContainer()
        try innerList.encode("y")
        try Node.random(&random, depth: 1).encode(to: list.superEncoder())
        try Node.random(&random, depth: 1).encode(to: keyed.superEncoder())
        try Node.random(&random, depth: 1).encode(to: keyed.superEncoder(forKey: "parent"))
        _ = keyed.superEncoder(forKey: "unused")
    }

    static func random(_ random: inout SplitMix64, depth: Int) -> Node {
        let kinds = depth > 0 ? 18 : 15
        switch random.next() % UInt64(kinds) {
        case 0: return .string(randomString(&random))
        case 1: return .int(Int(truncatingIfNeeded: random.next()))
        case 2: return .int64(Int64(truncatingIfNeeded: random.next()) >> (random.next() % 64))
        case 3: return .uint64(random.next() >> (random.next() % 64))
        case 4: return .int8(Int8(truncatingIfNeeded: random.next()))
        case 5: return .uint16(UInt16(truncatingIfNeeded: random.next()))
        case 6: return .double(randomDouble(&random))
        case 7:
            let float = Float(randomDouble(&random))
            return .float(float.isFinite ? float : 1.25)
        case 8: return .bool(random.next() % 2 == 0)
        case 9: return .null
        case 10: return .data(Data((0..<random.next() % 12).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case 11: return .url(URL(string: "https://example.org/a/\(random.next() % 100)?q=\(random.next() % 9)#f")!)
        case 12:
            let text = "\(Int64(truncatingIfNeeded: random.next()) % 100_000).0\(random.next() % 100)"
            return .decimal(Decimal(string: text) ?? 1)
        case 13:
            return .date(Date(timeIntervalSinceReferenceDate: Double(Int32(truncatingIfNeeded: random.next())) / 8))
        case 14: return .json(randomJSON(&random, depth: 2))
        case 15: return .array((0..<random.next() % 4).map { _ in Node.random(&random, depth: depth - 1) })
        case 16:
            var members: [String: Node] = [:]
            for _ in 0..<random.next() % 5 { members[randomString(&random)] = Node.random(&random, depth: depth - 1) }
            return .object(members)
        default: return random.next() % 4 == 0 ? .empty : .mixed(seed: random.next())
        }
    }

    private static let characters: [Character] = [
        "a", "b", "Z", "_", "1", "0", " ", "/", "\"", "\\", "\u{0}", "\u{8}", "\u{C}", "\n", "\r", "\t", "\u{1B}",
        "\u{1F}", "\u{7F}", "é", "e\u{301}", "\u{2028}", "\u{2029}", "😀", "中", "\u{FEFF}", "ß", "A",
    ]

    static func randomString(_ random: inout SplitMix64) -> String {
        String((0..<random.next() % 6).map { _ in characters[Int(random.next() % UInt64(characters.count))] })
    }

    /// Finite doubles of every magnitude, integral ones among them.
    static func randomDouble(_ random: inout SplitMix64) -> Double {
        switch random.next() % 4 {
        case 0: return Double(Int64(truncatingIfNeeded: random.next()) >> (random.next() % 64))
        case 1: return Double(Int32(truncatingIfNeeded: random.next())) / 1000
        case 2:
            return [
                0.0, -0.0, 1e15, 9_007_199_254_740_992, 1e16, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
            ][
                Int(random.next() % 8)]
        default:
            let double = Double(bitPattern: random.next())
            return double.isFinite ? double : 0.5
        }
    }

    /// A JSON value whose numbers are spelled as `JSONEncoder` spells them, so only the writer differs.
    static func randomJSON(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.next() % (depth > 0 ? 7 : 5) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 1)
        case 2: return .number(JSONNumber(Int(truncatingIfNeeded: random.next()) >> (random.next() % 64)))
        case 3: return .number(JSONNumber(Double(Int32(truncatingIfNeeded: random.next())) + 0.5))
        case 4: return .string(randomString(&random))
        case 5: return .array((0..<random.next() % 4).map { _ in randomJSON(&random, depth: depth - 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.next() % 4 { members[randomString(&random)] = randomJSON(&random, depth: depth - 1) }
            return .object(JSONObject(members.map { ($0.key, $0.value) }))
        }
    }
}
