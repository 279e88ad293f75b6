import Foundation
@_spi(Generated) import HealthSignInCore

/// Reads and writes FHIR's JSON with the generated models, by the same codecs the client uses.
///
/// Reading is strict: a member of the wrong JSON type is an error, never coerced. Every decimal keeps the text it was
/// written with (`1.50` stays `1.50`), and every member a model does not name is kept and written back. Writing is
/// deterministic: keys sorted, slashes unescaped, so the same model always gives the same bytes.
///
/// Decode ``Resource`` when the document may hold any resource, and switch over its cases (`.patient`,
/// `.observation`); decode the resource's own type when only one will do.
public enum FHIRJSON {
    /// Decodes `type` (a resource such as ``Patient``, or ``Resource`` for whichever `resourceType` the document
    /// names) from the JSON document `data`.
    ///
    /// - Throws: `ResponseDecodingError`, with the path to the member that could not be read.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONCoding.decode(type, from: data)
    }

    /// The JSON document of `value`.
    ///
    /// - Throws: `EncodingError` when a member cannot be written as JSON.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try JSONCoding.encode(value)
    }
}
