import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInTesting

// Exercises the generated CorpusSemantics family: each keyword of `Read.json` decodes and validates as JSON Schema
// 2020-12 says, where Foundation or Swift would say otherwise.

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        print("FAIL: " + message())
        exit(1)
    }
}

/// The response read from `json` and validated, or the error either step threw.
func read(_ json: String) -> Result<Read.Response, any Error> {
    Result {
        let response = try JSONCoding.decode(Read.Response.self, from: Data(json.utf8))
        try response.validate()
        return response
    }
}

func accepts(_ json: String, _ message: String) {
    if case .failure(let error) = read(json) { check(false, "\(message): \(json) was refused: \(error)") }
}

func refuses(_ json: String, _ message: String, saying words: String? = nil) {
    switch read(json) {
    case .success: check(false, "\(message): \(json) was accepted")
    case .failure(let error):
        if let words { check("\(error)".contains(words), "\(message): \(json): \(error)") }
    }
}

// Types are never coerced, and integers are whole numbers of any spelling within 64 bits.
refuses(#"{"count": "1"}"#, "a string is not an integer")
accepts(#"{"count": 1.0}"#, "1.0 is an integer")
accepts(#"{"count": 1e2}"#, "1e2 is an integer")
refuses(#"{"count": 1.5}"#, "1.5 is not an integer")
refuses(#"{"count": 9223372036854775808}"#, "an integer beyond 64 bits", saying: "beyond the range of Int")
accepts(#"{"count": -9223372036854775808}"#, "the smallest 64-bit integer")
accepts(#"{"lenient": "3600"}"#, "acceptString reads a numeric string")
refuses(#"{"lenient": "soon"}"#, "acceptString still needs a number")
refuses(#"{"count": null}"#, "null for a property that may only be left out")
refuses(#"{"grid": null}"#, "null for an array that may only be left out")
refuses(#"1"#, "an object is read only from a JSON object")
refuses(#"null"#, "an object is read only from a JSON object")

// Numbers compare and divide by their decimal values.
accepts(#"{"amount": 0.3}"#, "0.3 is a multiple of 0.1")
refuses(#"{"amount": 0.35}"#, "0.35 is no multiple of 0.1")
refuses(#"{"amount": 10}"#, "exclusiveMaximum")
accepts(#"{"amount": 9.9}"#, "below the exclusive maximum")

// Patterns are ECMA-262: \d, \w and \s are what ECMA-262 says, not Unicode's classes; minLength 2.0 is 2.
accepts(#"{"code": "12"}"#, "digits")
refuses(#"{"code": "1"}"#, "minLength 2.0")
refuses(#"{"code": "\u07c0\u07c0"}"#, "NKO digits are not \\d")
refuses(#"{"word": "\u00e9"}"#, "é is not \\w")
accepts(#"{"space": "\ufeff"}"#, "U+FEFF is \\s")

// const and enum compare code points; an unlisted enum value decodes but is not valid.
accepts(#"{"fixed": "\u00e4", "mark": "\u00e4"}"#, "the listed spelling")
refuses(#"{"fixed": "a\u0308"}"#, "a canonically equivalent const")
refuses(#"{"mark": "a\u0308"}"#, "a canonically equivalent enum value")
check(Read.Response.Mark(rawValue: "a_b") == .aB2 && Read.Response.Mark(rawValue: "unknown") == .unknown2, "names")
check(Read.Response.Mark(rawValue: "a\u{308}") == .unknown("a\u{308}"), "an unlisted value is kept")

// A default documents: it is not substituted, so an absent value stays absent.
if case .success(let response) = read("{}") {
    check(response.limit == nil && response.tags.isEmpty && response.choice == nil, "nothing is substituted")
}

// Formats are their RFC grammars.
accepts(#"{"day": "2024-02-29", "at": "1998-12-31T23:59:60Z", "link": "urn:isbn:0451450523"}"#, "valid formats")
accepts(#"{"at": "1998-12-31T15:59:60.123-08:00"}"#, "a leap second at 23:59:60 UTC")
refuses(#"{"at": "1998-12-31T23:58:60Z"}"#, "a leap second on another minute")
refuses(#"{"day": " 2024-01-15"}"#, "surrounding space")
refuses(#"{"day": "2023-02-29"}"#, "not a real day")
refuses(#"{"id": "123e4567e89b12d3a456426614174000"}"#, "a UUID without hyphens")
accepts(#"{"id": "123E4567-E89B-12D3-A456-426614174000"}"#, "a UUID in capitals")
for text in ["/abc", "foo bar.txt", "http://example.com/%"] {
    refuses(#"{"link": "\#(text)"}"#, "not an absolute URI")
}

// Arrays of arrays with constraints on the inner items; uniqueItems by code points.
accepts(#"{"grid": [[1, 2], [], [0]]}"#, "an array of arrays")
refuses(#"{"grid": [[1], [-1]]}"#, "a constraint on inner items", saying: "/grid/1/0")
refuses(#"{"tags": ["a", "b", "a"]}"#, "repeated items")
accepts(#"{"tags": ["\u00e4", "a\u0308"]}"#, "two spellings are two items")

// oneOf takes exactly one variant: 2 is an integer and a number of at least 0.5.
refuses(#"{"choice": 2}"#, "two variants", saying: "valid against 2 of the oneOf variants")
check((try? read(#"{"choice": 0.75}"#).get())?.choice == .double(0.75), "one variant")
check((try? read(#"{"choice": 0}"#).get())?.choice == .int(0), "the other variant")

// Any value keeps its number text.
check((try? read(#"{"any": [2.50, 1e2]}"#).get())?.any?[0]?.numberValue?.text == "2.50", "number text")

// $ref pointers with ~1, ~0 and percent escapes.
accepts(#"{"slashed": {"x": 1}, "tilde": "p", "spaced": "ab"}"#, "escaped references")
refuses(#"{"spaced": "abc"}"#, "a constraint on a named type")

// additionalProperties beside allOf counts only the schema's own properties.
accepts(#"{"closed": {"own": "x"}}"#, "the schema's own property")
refuses(#"{"closed": {"base": "x"}}"#, "allOf's properties are additional")
// A JSON request with nothing to choose is no parameter, and its one value is sent.
let transport = RecordingTransport { _ in HTTPResponseMessage(status: 204) }
let client = CorpusSemanticsAPIClient(configuration: .init(transport: transport))
try await client.ping()
try await client.touch()
let bodies = transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
check(bodies == [#"{"kind":"ping"}"#, "{}"], "the fixed bodies: \(bodies)")
print("ok")
