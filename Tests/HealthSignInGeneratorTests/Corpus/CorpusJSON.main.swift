import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTesting

// Exercises the generated CorpusJSON family: `record.json` round-trips byte for byte through the generated Codable
// of `Stored` (read from `Record`'s response and written by `Restore`, so it has both directions), every construct
// reads as the schema says, and requests breaking their constraints are refused unsent.

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        print("FAIL: " + message())
        exit(1)
    }
}

let fixture = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let response = try JSONCoding.decode(Stored.self, from: fixture)
let written = try JSONCoding.encode(response)
check(written == fixture, "not byte for byte:\n\(String(decoding: written, as: UTF8.self))")
check(response.note == nil && response.kind == nil, "null and absent read as nil")
check(response.payload["n"]?.numberValue?.text == "1.5", "any value keeps its number: \(response.payload)")
check(response.payload["list"]?[4]?["deep"] == [], "any value keeps nested arrays")
check(response.additionalProperties["x-vendor"]?["since"] == "2026", "members beyond the properties are kept")
check(response.detail?.kind == "a" && response.detail?.additionalProperties == ["extra": 7], "nested extra members")
check(response.labels == ["a": "x", "b": "y"], "a map")
check(response.blob == Data([0, 1, 2, 255]) && response.key == Data("key".utf8), "bytes")
check(
    response.small == -3 && response.weight == 1.5 && response.ratio == 0.25 && response.count == 12_345_678_901,
    "numbers")
let sparse = try JSONCoding.decode(Stored.self, from: Data(#"{"id":"r2","note":null,"payload":null}"#.utf8))
check(sparse.note == nil && sparse.payload == .null && sparse.additionalProperties.isEmpty, "absent fields")
// `note` is required even though it may be null: leaving it out is not the same as sending null.
check(
    (try? JSONCoding.decode(Stored.self, from: Data(#"{"id":"r2","payload":null}"#.utf8))) == nil,
    "a required member that may be null was left out")

func refusal(_ request: Record.Request) -> String? {
    do {
        try request.validate()
        return nil
    } catch let error as SchemaValidationError {
        return error.path
    } catch {
        return "\(error)"
    }
}

check(
    refusal(Record.Request(id: "r1", size: 5, code: "ABC", tags: ["a"], labels: ["k": "v"])) == nil, "a valid request")
check(refusal(Record.Request(id: "r", size: 5)) == "/id", "minLength from the allOf base")
check(refusal(Record.Request(id: "r1", size: 0)) == "/size", "minimum")
check(refusal(Record.Request(id: "r1", size: 101)) == "/size", "maximum")
check(refusal(Record.Request(id: "r1", size: 5, code: "abc")) == "/code", "pattern")
check(refusal(Record.Request(id: "r1", size: 5, tags: ["a", "b", "c", "d"])) == "/tags", "maxItems")

let transport = RecordingTransport(responses: [])
let client = CorpusJSONAPIClient(configuration: .init(transport: transport))
do {
    _ = try await client.record(Record.Request(id: "r1", size: 500), token: BearerToken("t"))
    check(false, "an invalid request was sent")
} catch let error as SchemaValidationError {
    check(error.path == "/size", "\(error)")
}
check(transport.requests.isEmpty, "nothing was sent")
print("ok")
