import Foundation

/// A JSON value with the position it was read from, so every diagnostic can point into the file.
package struct JSONNode: Sendable, Equatable {
    /// One member of an object, in file order.
    struct Member: Sendable, Equatable {
        /// The key.
        let key: String
        /// Where the key starts.
        let keyLocation: SourceLocation
        /// The value.
        let value: JSONNode
    }

    /// The value itself.
    indirect enum Value: Sendable, Equatable {
        /// `null`
        case null
        /// `true` or `false`
        case bool(Bool)
        /// A number with its literal spelling; `isInteger` when it has no fraction or exponent.
        case number(Double, literal: String, isInteger: Bool)
        /// A string.
        case string(String)
        /// An array.
        case array([JSONNode])
        /// An object, members in file order.
        case object([Member])
    }

    /// The value.
    let value: Value
    /// Where the value starts.
    let location: SourceLocation
    /// The JSON pointer of the value inside its file, e.g. `/request/properties/code`.
    let pointer: String

    /// The JSON type's name, for messages ("expected string, found number").
    var kindName: String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number(_, _, let isInteger): return isInteger ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The string, when the value is one.
    var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The members, when the value is an object.
    var members: [Member]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements, when the value is an array.
    var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// The member called `key`, when the value is an object that has it.
    subscript(key: String) -> JSONNode? {
        members?.first { $0.key == key }?.value
    }

    /// Escapes a key for use in a JSON pointer (RFC 6901).
    static func escape(_ key: String) -> String {
        // Almost no key needs escaping; checking the bytes first keeps parsing linear and allocation-free.
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
