import Foundation
import HealthSignInSchemaSemantics

/// A value that breaks a constraint of its schema (`minimum`, `maxLength`, `pattern`, an unlisted enum value, …),
/// found by a generated `validate()`: before a request is sent, or when an app checks a value it received. The value
/// itself is never quoted, since it may be a secret.
public struct SchemaValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the value is, by wire names (a JSON pointer), e.g. `/parameters/num-results`.
    public let path: String
    /// What it must be, e.g. `at least 1`.
    public let requirement: String

    /// Creates the error.
    public init(path: String, requirement: String) {
        self.path = path
        self.requirement = requirement
    }

    /// `The value at /parameters/num-results must be at least 1`
    public var description: String { "The value\(path.isEmpty ? "" : " at " + path) must be \(requirement)" }
}

/// A generated model that checks its schema's constraints on itself and on its parts: every struct or enum whose
/// values have something to check (a `pattern`, a `minimum`, an enum's listed values, …) somewhere inside.
///
/// Client methods check a request before sending it; an app may check anything it built or received, and code
/// generic over models can require the conformance.
public protocol SchemaValidating: Sendable {
    /// Checks the value and its parts.
    ///
    /// - Parameter path: where the value is, as a JSON pointer by wire names; errors name the path below it.
    /// - Throws: ``SchemaValidationError`` for the first value that breaks a constraint.
    func validate(at path: String) throws
}

/// A number JSON Schema's numeric keywords compare and divide by its decimal value.
@_spi(Generated) public protocol SchemaNumber {
    /// The value as a decimal number: exact for integers; the shortest spelling that reads back for floating point,
    /// as the number was written in JSON.
    var decimalValue: DecimalNumber? { get }
}

@_spi(Generated) extension Int: SchemaNumber {
    /// The integer.
    public var decimalValue: DecimalNumber? { DecimalNumber(Int64(self)) }
}

@_spi(Generated) extension Int32: SchemaNumber {
    /// The integer.
    public var decimalValue: DecimalNumber? { DecimalNumber(Int64(self)) }
}

@_spi(Generated) extension Int64: SchemaNumber {
    /// The integer.
    public var decimalValue: DecimalNumber? { DecimalNumber(self) }
}

@_spi(Generated) extension Double: SchemaNumber {
    /// The shortest decimal spelling of the value.
    public var decimalValue: DecimalNumber? { DecimalNumber(self) }
}

@_spi(Generated) extension Float: SchemaNumber {
    /// The shortest decimal spelling of the `Float` (0.1 for `Float(0.1)`, not its `Double` expansion).
    public var decimalValue: DecimalNumber? { isFinite ? DecimalNumber(jsonText: description) : nil }
}

/// The checks generated `validate(at:)` methods run: each is a ``SchemaKeyword`` of `HealthSignInSchemaSemantics`,
/// evaluated there, as the generator evaluates a schema's own `default`.
@_spi(Generated) public enum RequestValidation {
    /// `value >= bound`.
    public static func minimum(_ value: some SchemaNumber, _ bound: String, at path: String) throws {
        try check(.minimum(bound), number: value, at: path)
    }

    /// `value <= bound`.
    public static func maximum(_ value: some SchemaNumber, _ bound: String, at path: String) throws {
        try check(.maximum(bound), number: value, at: path)
    }

    /// `value > bound`.
    public static func exclusiveMinimum(_ value: some SchemaNumber, _ bound: String, at path: String) throws {
        try check(.exclusiveMinimum(bound), number: value, at: path)
    }

    /// `value < bound`.
    public static func exclusiveMaximum(_ value: some SchemaNumber, _ bound: String, at path: String) throws {
        try check(.exclusiveMaximum(bound), number: value, at: path)
    }

    /// `value / divisor` is an integer, computed exactly in decimal (0.3 is a multiple of 0.1).
    public static func multipleOf(_ value: some SchemaNumber, _ divisor: String, at path: String) throws {
        try check(.multipleOf(divisor), number: value, at: path)
    }

    private static func check(_ keyword: SchemaKeyword, number value: some SchemaNumber, at path: String) throws {
        guard let number = value.decimalValue, keyword.accepts(number: number) else {
            throw SchemaValidationError(path: path, requirement: keyword.requirement)
        }
    }

    /// At least `bound` Unicode scalars, as JSON Schema counts.
    public static func minLength(_ value: String, _ bound: Int, at path: String) throws {
        try check(.minLength(bound), string: value, at: path)
    }

    /// At most `bound` Unicode scalars.
    public static func maxLength(_ value: String, _ bound: Int, at path: String) throws {
        try check(.maxLength(bound), string: value, at: path)
    }

    /// Contains a match of `pattern`, an ECMA-262 regular expression (unanchored, as in JSON Schema).
    public static func pattern(_ value: String, _ pattern: String, at path: String) throws {
        let keyword = SchemaKeyword.pattern(pattern)
        do {
            try check(keyword, string: value, compiled: compiled(pattern), at: path)
        } catch let error as ECMAPatternError {
            throw SchemaValidationError(path: path, requirement: "checkable against the pattern \(pattern): \(error)")
        }
    }

    private static func check(
        _ keyword: SchemaKeyword, string value: String, compiled: ECMAPattern? = nil, at path: String
    ) throws {
        if try !keyword.accepts(string: value, compiled: compiled) {
            throw SchemaValidationError(path: path, requirement: keyword.requirement)
        }
    }

    /// The patterns compiled so far: a schema's patterns are few, and each request would otherwise parse its own.
    private static let patterns = LockedValue<[String: ECMAPattern]>([:])

    private static func compiled(_ source: String) throws(ECMAPatternError) -> ECMAPattern {
        if let pattern = patterns.current[source] { return pattern }
        let pattern = try ECMAPattern(source)
        patterns.withValue { $0[source] = pattern }
        return pattern
    }

    /// At least `bound` items.
    public static func minItems(_ count: Int, _ bound: Int, at path: String) throws {
        try check(.minItems(bound), itemCount: count, at: path)
    }

    /// At most `bound` items.
    public static func maxItems(_ count: Int, _ bound: Int, at path: String) throws {
        try check(.maxItems(bound), itemCount: count, at: path)
    }

    private static func check(_ keyword: SchemaKeyword, itemCount count: Int, at path: String) throws {
        if !keyword.accepts(itemCount: count) {
            throw SchemaValidationError(path: path, requirement: keyword.requirement)
        }
    }

    /// No two items equal as JSON values (numbers by value, strings by code points, objects whatever their order).
    public static func uniqueItems<Item: Encodable & Equatable>(_ items: [Item], at path: String) throws {
        let values = try items.map { try JSONValue.parse(JSONCoding.encode($0)) }
        try distinct(values, at: path)
    }

    /// No two items equal; for items that cannot be written as JSON, by their `==`.
    public static func uniqueItems<Item: Equatable>(_ items: [Item], at path: String) throws {
        for (index, item) in items.enumerated() where items[..<index].contains(item) {
            throw SchemaValidationError(
                path: path, requirement: "\(SchemaKeyword.uniqueItems.requirement) (item \(index))")
        }
    }

    /// No two strings with the same code points.
    public static func uniqueItems(_ items: [String], at path: String) throws {
        try distinct(items.map(JSONValue.string), at: path)
    }

    private static func distinct(_ values: [JSONValue], at path: String) throws {
        if let requirement = SchemaKeyword.uniqueItems.violation(by: SchemaJSON(.array(values))) {
            throw SchemaValidationError(path: path, requirement: requirement)
        }
    }

    /// One of the values the schema lists: an unlisted one decodes (servers add values) but is not valid.
    public static func listed(_ value: some OpenEnum, at path: String) throws {
        if !value.isListed {
            throw SchemaValidationError(path: path, requirement: "one of the values the schema lists")
        }
    }

    /// Checks `value` at `path` when there is one.
    ///
    /// Generic, so that generated code hands the value over in place: the checks run without copying it out of the
    /// optional (a copy of a large model costs code in every file that makes one).
    public static func validate(_ value: (some SchemaValidating)?, at path: String) throws {
        if let value { try value.validate(at: path) }
    }

    /// Checks each element of `items`, at `path` extended by its index.
    public static func validate(each items: [some SchemaValidating], at path: String) throws {
        for (index, item) in items.enumerated() { try item.validate(at: path + "/\(index)") }
    }

    /// `path` extended by the map key `key`, escaped as a JSON pointer token (RFC 6901).
    public static func pointer(_ path: String, _ key: String) -> String {
        path + "/" + key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

extension JSONValue {
    /// Whether the two values are equal as JSON Schema compares instances (`const`, `enum`, `uniqueItems`): numbers
    /// by value (1 and 1.0 are equal), strings by code points, arrays item by item, objects by their members
    /// whatever their order.
    public func isSchemaEqual(to other: JSONValue) -> Bool {
        SchemaJSON(self).isSchemaEqual(to: SchemaJSON(other))
    }
}

/// A JSON value seen by JSON Schema's keywords, which `HealthSignInSchemaSemantics` evaluates once for the runtime
/// and the generator.
struct SchemaJSON: SchemaInstance {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    var schemaShape: SchemaInstanceShape<SchemaJSON> {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(text: number.text)
        case .string(let string): return .string(string)
        case .array(let items): return .array(items.map(SchemaJSON.init))
        case .object(let object): return .object(object.members.map { ($0.key, SchemaJSON($0.value)) })
        }
    }
}

extension SchemaValidationError: SDKError {
    /// `ErrorRecovery.fixRequest`: a value breaks its schema's constraints.
    public var recovery: ErrorRecovery { .fixRequest }
}
