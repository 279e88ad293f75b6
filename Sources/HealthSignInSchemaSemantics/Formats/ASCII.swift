/// Byte classes of ASCII, the alphabet every grammar here is written in.
enum ASCII {
    /// The value of an ASCII decimal digit, or nil for any other byte.
    static func digitValue(_ byte: UInt8) -> UInt8? {
        byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : nil
    }

    /// The value of an ASCII hexadecimal digit in either case, or nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Whether `byte` is an ASCII letter (ABNF's `ALPHA`).
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }
}

/// A set of ASCII bytes as a 128-bit mask, so the URI grammar's character classes are one lookup each.
struct ASCIISet: Sendable {
    /// Bytes 0–63.
    private var low: UInt64 = 0
    /// Bytes 64–127.
    private var high: UInt64 = 0

    /// The set of the ASCII characters in `members`, each listed one by one.
    init(_ members: String) {
        for byte in members.utf8 { insert(byte) }
    }

    /// The set of both sets' members.
    func union(_ other: ASCIISet) -> ASCIISet {
        var result = self
        result.low |= other.low
        result.high |= other.high
        return result
    }

    /// Whether `byte` is a member; a non-ASCII byte never is.
    func contains(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<64: return low & (1 << UInt64(byte)) != 0
        case 64..<128: return high & (1 << UInt64(byte - 64)) != 0
        default: return false
        }
    }

    /// Adds an ASCII byte; other bytes are ignored, as no grammar here admits them.
    private mutating func insert(_ byte: UInt8) {
        switch byte {
        case 0..<64: low |= 1 << UInt64(byte)
        case 64..<128: high |= 1 << UInt64(byte - 64)
        default: break
        }
    }
}
