import Foundation
import HealthSignInSchemaSemantics

extension JSONNumber: Codable {
    /// Reads a JSON number.
    ///
    /// The SDK's own JSON reading keeps the number's exact text (`1.50` stays `1.50`). Other decoders do not report
    /// it, so the number is spelled from the value they parsed: integers exactly, others as the shortest text that
    /// reads back as the same `Double`.
    ///
    /// - Throws: `DecodingError.typeMismatch` for anything but a number.
    public init(from decoder: any Decoder) throws {
        if let decoding = decoder as? JSONValueDecoding {
            guard case .number(let number) = decoding.value else {
                throw DecodingError.mismatch(JSONNumber.self, found: decoding.value, codingPath: decoding.codingPath)
            }
            self = number
            return
        }
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int64.self) {
            self.init(uncheckedText: String(integer))
        } else if let integer = try? container.decode(UInt64.self) {
            self.init(uncheckedText: String(integer))
        } else {
            let double = try container.decode(Double.self)
            guard let number = JSONNumber(exactly: double) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a number JSON cannot hold")
            }
            self = number
        }
    }

    /// Writes the number.
    ///
    /// The SDK's own JSON writing keeps its exact text. Other encoders get it as an `Int64` or `UInt64` when the
    /// text is an integer that fits, else as a `Double`.
    ///
    /// - Throws: `EncodingError.invalidValue` when another encoder would need a `Double` for a number too large for
    ///   one (such as `1e400`).
    public func encode(to encoder: any Encoder) throws {
        if let encoding = encoder as? JSONValueEncoding {
            encoding.set(.value(.number(self)))
            return
        }
        var container = encoder.singleValueContainer()
        if isIntegerText, let integer = Int64(text) {
            try container.encode(integer)
        } else if isIntegerText, let integer = UInt64(text) {
            try container.encode(integer)
        } else if let double = doubleValue {
            try container.encode(double)
        } else {
            throw EncodingError.invalidValue(
                self,
                EncodingError.Context(
                    codingPath: encoder.codingPath, debugDescription: "the number is too large for a Double"))
        }
    }
}

extension JSONNumber: WireScalar {
    /// Reads a JSON number, allowing surrounding whitespace as XML Schema's `xsd:decimal` does.
    public init?(wireText: String) { self.init(WireText.trimmed(wireText)) }

    /// Reads exactly a JSON number.
    public init?(jsonText: String) { self.init(jsonText) }

    /// The number's text.
    public var wireText: String { text }

    /// `number`
    public static var wireTypeName: String { "number" }
}

@_spi(Generated) extension JSONNumber: SchemaNumber {
    /// The exact value, for `minimum`, `maximum` and `multipleOf`.
    public var decimalValue: DecimalNumber? { DecimalNumber(jsonText: text) }
}

extension JSONNumber {
    /// The number spelled `literal` in source code, exactly as spelled (`JSONNumber(literal: "1.50")` keeps the
    /// zero a float literal would lose); how generated code writes a `decimal` default as the schema spelled it.
    ///
    /// - Precondition: `literal` is a JSON number. Text from elsewhere goes to the failable `JSONNumber(_:)`,
    ///   which returns nil instead.
    public init(literal: StaticString) {
        let text = literal.description
        guard let number = JSONNumber(text) else { preconditionFailure("JSONNumber: \(text) is not a JSON number") }
        self = number
    }
}
