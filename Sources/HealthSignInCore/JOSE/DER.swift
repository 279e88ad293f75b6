/// The little DER (X.690) the JOSE keys and signatures need: building RSA and EC key structures from JWK members,
/// and converting ECDSA signatures between DER and the fixed-width `R‖S` form JWS uses (RFC 7518 §3.4).
enum DER {
    /// `SEQUENCE { elements }`
    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { element(0x30, elements.flatMap { $0 }) }

    /// A non-negative `INTEGER` from unsigned big-endian bytes.
    static func integer(_ magnitude: some Collection<UInt8>) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return element(0x02, bytes)
    }

    /// `INTEGER` for a small number.
    static func integer(_ value: UInt8) -> [UInt8] { element(0x02, [value]) }

    /// `OCTET STRING`
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(0x04, bytes) }

    /// `BIT STRING` with no unused bits.
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(0x03, [0] + bytes) }

    /// `NULL`
    static let null: [UInt8] = [0x05, 0x00]

    /// A context-specific constructed tag, `[n] { content }`.
    static func context(_ number: UInt8, _ content: [UInt8]) -> [UInt8] { element(0xA0 | number, content) }

    /// Object identifiers, already encoded.
    enum OID {
        static let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
        static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
        static let p256: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        static let p384: [UInt8] = [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]
        static let p521: [UInt8] = [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]

        /// The curve an encoded OID names, by its JWK `crv`.
        static func curve(_ oid: [UInt8]) -> String? {
            switch oid {
            case p256: return "P-256"
            case p384: return "P-384"
            case p521: return "P-521"
            default: return nil
            }
        }
    }

    static func element(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }

    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// An ECDSA signature `SEQUENCE { r INTEGER, s INTEGER }` as `R‖S`, each `width` bytes; nil when it is not one.
    static func rawSignature(fromDER der: [UInt8], width: Int) -> [UInt8]? {
        var reader = Reader(der)
        guard let sequence = reader.read(tag: 0x30), reader.isAtEnd else { return nil }
        var inner = Reader(sequence)
        guard let r = inner.read(tag: 0x02), let s = inner.read(tag: 0x02), inner.isAtEnd else { return nil }
        guard let left = fixedWidth(r, width), let right = fixedWidth(s, width) else { return nil }
        return left + right
    }

    /// `R‖S` as the DER `SEQUENCE { r, s }` libcrypto verifies.
    static func derSignature(fromRaw raw: [UInt8]) -> [UInt8] {
        let half = raw.count / 2
        return sequence([integer(raw[..<half]), integer(raw[half...])])
    }

    private static func fixedWidth(_ integer: [UInt8], _ width: Int) -> [UInt8]? {
        let magnitude = integer.drop { $0 == 0 }
        guard magnitude.count <= width else { return nil }
        return [UInt8](repeating: 0, count: width - magnitude.count) + magnitude
    }

    /// Reads definite-length DER elements.
    struct Reader {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        /// The tag of the next element, nil at the end.
        var nextTag: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// The content of the next element when it has `tag`.
        mutating func read(tag: UInt8) -> [UInt8]? {
            guard index + 2 <= bytes.count, bytes[index] == tag else { return nil }
            var length = Int(bytes[index + 1])
            var start = index + 2
            if length & 0x80 != 0 {
                let count = length & 0x7F
                guard count > 0, count <= 4, start + count <= bytes.count else { return nil }
                length = bytes[start..<(start + count)].reduce(0) { $0 << 8 | Int($1) }
                start += count
            }
            guard length >= 0, start + length <= bytes.count else { return nil }
            index = start + length
            return Array(bytes[start..<(start + length)])
        }
    }
}
