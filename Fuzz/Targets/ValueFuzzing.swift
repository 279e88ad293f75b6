import Foundation
import HealthSignInCore

/// Reads the input as any JSON value: what parses must write back to text that parses to the same value.
enum JSONValueFuzzing {
    static func run(_ data: Data) {
        guard let value = try? JSONValue.parse(data) else { return }
        guard let again = try? JSONValue.parse(value.serialized()), again == value else {
            fatalError("a parsed JSON value did not survive writing and reading back")
        }
    }
}

/// Reads the input as XML content: what is accepted keeps its text exactly and can be read as a tree.
enum XMLFragmentFuzzing {
    static func run(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        guard let fragment = try? XMLFragment(wellFormed: text) else { return }
        guard fragment.text == text else { fatalError("an accepted XML fragment changed its text") }
        _ = try? fragment.tree()
    }
}
