import HealthSignInSchemaSemantics

/// A type read straight from one JSON node, exactly as JSON Schema types it: never coerced from another JSON type.
///
/// Containers read these without a decoder of their own; `init(from:)` of each reads the same way through a
/// single-value container, so the result does not depend on the route.
protocol JSONScalar: Decodable {
    /// The value `value` holds, or why it holds none.
    ///
    /// The failure carries no coding path: the caller adds it only when there is an error to report, so a
    /// successful read costs no path.
    static func read(_ value: JSONValue) throws(JSONScalarFailure) -> Self
}

extension String: JSONScalar {
    static func read(_ value: JSONValue) throws(JSONScalarFailure) -> String {
        guard case .string(let string) = value else { throw .mismatch(value) }
        return string
    }
}

extension Bool: JSONScalar {
    static func read(_ value: JSONValue) throws(JSONScalarFailure) -> Bool {
        guard case .bool(let bool) = value else { throw .mismatch(value) }
        return bool
    }
}

extension Double: JSONScalar {
    static func read(_ value: JSONValue) throws(JSONScalarFailure) -> Double {
        guard case .number(let number) = value else { throw .mismatch(value) }
        // Any valid JSON number parses; only one too large comes back infinite (or nil, in older runtimes).
        guard let double = Double(number.text), double.isFinite else { throw .beyondRange("number", number) }
        return double
    }
}

extension Float: JSONScalar {
    static func read(_ value: JSONValue) throws(JSONScalarFailure) -> Float {
        guard case .number(let number) = value else { throw .mismatch(value) }
        // Parsed from the text directly: rounding through Double first could round twice.
        guard let float = Float(number.text), float.isFinite else { throw .beyondRange("number", number) }
        return float
    }
}

extension JSONScalar where Self: FixedWidthInteger {
    static func read(_ value: JSONValue) throws(JSONScalarFailure) -> Self {
        guard case .number(let number) = value else { throw .mismatch(value) }
        let whole = JSONIntegerValue(number.text)
        guard whole.isInteger else { throw .notInteger }
        guard let integer = whole.value(as: Self.self) else { throw .beyondRange("integer", number) }
        return integer
    }
}

extension Int: JSONScalar {}
extension Int8: JSONScalar {}
extension Int16: JSONScalar {}
extension Int32: JSONScalar {}
extension Int64: JSONScalar {}
extension UInt: JSONScalar {}
extension UInt8: JSONScalar {}
extension UInt16: JSONScalar {}
extension UInt32: JSONScalar {}
extension UInt64: JSONScalar {}
