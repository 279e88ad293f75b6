import Foundation
@_spi(Generated) import HealthSignInCore
import XCTest

/// The context sample requests are written with: every bindable value and a signer.
@_spi(Generated) public let roundTripContext = EncodingContext(
    values: ["applicationID": "b5c5593b-afb4-466d-88f2-31707fb8634b", "signingTime": "2017-08-10T12:34:56.000Z"],
    signer: { region in "signature-over-\(region.count)-bytes" }
)

/// Writes `value` as the content of a `<sample>` element, reads it back, and checks the result is equal.
@_spi(Generated) public func assertXMLRoundTrip<T: XMLCodable & Equatable>(
    _ value: T, context: EncodingContext = roundTripContext, file: StaticString = #filePath, line: UInt = #line
) throws {
    var writer = XMLWriter()
    try writer.element("sample", writing: value, context: context)
    let decoded = try T(xml: XMLTree.parse(Data(writer.bytes)).root)
    XCTAssertEqual(
        decoded, value, "XML round trip of \(T.self) through \(String(decoding: writer.bytes, as: UTF8.self))",
        file: file, line: line)
    var again = XMLWriter()
    try again.element("sample", writing: decoded, context: context)
    XCTAssertEqual(again.bytes, writer.bytes, "writing \(T.self) is not deterministic", file: file, line: line)
}

/// Encodes `value` as JSON, decodes it back, and checks the result is equal and re-encodes to the same bytes.
public func assertJSONRoundTrip<T: Codable & Equatable>(_ value: T, file: StaticString = #filePath, line: UInt = #line)
    throws
{
    let data = try JSONCoding.encode(value)
    let decoded = try JSONCoding.decode(T.self, from: data)
    XCTAssertEqual(
        decoded, value, "JSON round trip of \(T.self) through \(String(decoding: data, as: UTF8.self))", file: file,
        line: line)
    XCTAssertEqual(
        try JSONCoding.encode(decoded), data, "encoding \(T.self) is not deterministic", file: file, line: line)
}
