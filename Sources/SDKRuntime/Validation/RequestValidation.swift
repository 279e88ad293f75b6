import Foundation

/// A request value that breaks a constraint of its schema (`minimum`, `maxLength`, `pattern`, …), found before
/// anything was sent. The value itself is never quoted, since it may be a secret.
public struct RequestValidationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the value is in the request, by wire names, e.g. `/parameters/num-results`.
    public let path: String
    /// What it must be, e.g. `at least 1`.
    public let requirement: String

    /// Creates the error.
    public init(path: String, requirement: String) {
        self.path = path
        self.requirement = requirement
    }

    /// `The request's /parameters/num-results must be at least 1`
    public var description: String { "The request's \(path.isEmpty ? "value" : path) must be \(requirement)" }
}

/// The checks generated `validate(at:)` methods run; a nil value (an absent optional field) passes every one.
@_spi(Generated) public enum RequestValidation {
    /// `value >= bound`.
    public static func minimum<Value: Comparable>(_ value: Value?, _ bound: Value, at path: String) throws {
        if let value, value < bound { throw RequestValidationError(path: path, requirement: "at least \(bound)") }
    }

    /// `value <= bound`.
    public static func maximum<Value: Comparable>(_ value: Value?, _ bound: Value, at path: String) throws {
        if let value, value > bound { throw RequestValidationError(path: path, requirement: "at most \(bound)") }
    }

    /// `value > bound`.
    public static func exclusiveMinimum<Value: Comparable>(_ value: Value?, _ bound: Value, at path: String) throws {
        if let value, value <= bound { throw RequestValidationError(path: path, requirement: "more than \(bound)") }
    }

    /// At least `bound` Unicode scalars, as JSON Schema counts.
    public static func minLength(_ value: String?, _ bound: Int, at path: String) throws {
        if let value, value.unicodeScalars.count < bound {
            throw RequestValidationError(path: path, requirement: "at least \(bound) characters long")
        }
    }

    /// At most `bound` Unicode scalars.
    public static func maxLength(_ value: String?, _ bound: Int, at path: String) throws {
        if let value, value.unicodeScalars.count > bound {
            throw RequestValidationError(path: path, requirement: "at most \(bound) characters long")
        }
    }

    /// Contains a match of `pattern` (unanchored, as in JSON Schema).
    public static func pattern(_ value: String?, _ pattern: String, at path: String) throws {
        guard let value else { return }
        let expression = try? NSRegularExpression(pattern: pattern)
        let range = NSRange(value.startIndex..<value.endIndex, in: value)
        guard let expression, expression.firstMatch(in: value, range: range) != nil else {
            throw RequestValidationError(path: path, requirement: "a match of the pattern \(pattern)")
        }
    }

    /// At least `bound` items.
    public static func minItems(_ count: Int?, _ bound: Int, at path: String) throws {
        if let count, count < bound { throw RequestValidationError(path: path, requirement: "at least \(bound) items") }
    }

    /// At most `bound` items.
    public static func maxItems(_ count: Int?, _ bound: Int, at path: String) throws {
        if let count, count > bound { throw RequestValidationError(path: path, requirement: "at most \(bound) items") }
    }
}

extension RequestValidationError: SDKError {
    /// ``ErrorRecovery/fixRequest``: a request value breaks its schema's constraints.
    public var recovery: ErrorRecovery { .fixRequest }
}
