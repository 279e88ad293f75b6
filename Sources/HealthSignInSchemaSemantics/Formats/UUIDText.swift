/// A UUID in the string form of RFC 9562 §4 (formerly RFC 4122), JSON Schema's `format: uuid`.
///
/// Only the form is checked, as JSON Schema's `uuid` does: the version and variant bits may be anything, so the
/// nil UUID, the max UUID and versions no RFC defines are all accepted.
public struct UUIDText: Sendable, Hashable {
    /// The 16 bytes the hexadecimal digits spell, most significant first.
    public let bytes: [UInt8]

    /// Reads `text` as exactly 8-4-4-4-12 hexadecimal digits in either case with hyphens between the groups, or
    /// returns nil: no braces, no `urn:uuid:` prefix, no whitespace, no hyphen-less 32-digit form.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var index = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard utf8[index] == UInt8(ascii: "-") else { return nil }
                index += 1
                continue
            }
            guard let high = ASCII.hexValue(utf8[index]), let low = ASCII.hexValue(utf8[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        self.bytes = bytes
    }
}
