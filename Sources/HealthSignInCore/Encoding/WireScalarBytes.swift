import Foundation

// Readings of the common scalars straight from UTF-8 bytes. XML decoders call these on the response's own bytes for
// every attribute and element they read, so a UUID or a date costs no string and no allocation.

extension WireScalar {
    /// Makes a string of `bytes` and reads it with ``init(wireText:)``.
    @inlinable
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self.init(wireText: String(decoding: bytes, as: UTF8.self))
    }
}

extension String {
    /// The text itself.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension Int {
    /// Reads a decimal integer; surrounding whitespace is allowed, as in `xsd:int`.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let value: Int = WireText.integer(WireText.trimmed(bytes)) else { return nil }
        self = value
    }
}

extension Int64 {
    /// Reads a decimal integer; surrounding whitespace is allowed, as in `xsd:long`.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let value: Int64 = WireText.integer(WireText.trimmed(bytes)) else { return nil }
        self = value
    }
}

extension Int32 {
    /// Reads a decimal integer in the 32-bit range; surrounding whitespace is allowed, as in `xsd:int`.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let value: Int32 = WireText.integer(WireText.trimmed(bytes)) else { return nil }
        self = value
    }
}

extension Bool {
    /// Reads `xsd:boolean`: `true`, `false`, `1` or `0`.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let text = WireText.trimmed(bytes)
        if WireText.equal(text, "true") || WireText.equal(text, "1") {
            self = true
        } else if WireText.equal(text, "false") || WireText.equal(text, "0") {
            self = false
        } else {
            return nil
        }
    }
}

extension UUID {
    /// Reads a GUID in either case.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = WireText.uuid(WireText.trimmed(bytes)) else { return nil }
        self = value
    }
}

extension Date {
    /// Reads an `xsd:dateTime` (see ``DateTimeText``).
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = DateTimeText.parse(utf8: WireText.trimmed(bytes)) else { return nil }
        self = value
    }
}

extension LocalDate {
    /// Reads `YYYY-MM-DD`.
    public init?(wireUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        self.init(utf8: WireText.trimmed(bytes))
    }
}

extension WireText {
    /// `bytes` without leading and trailing XML whitespace.
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Whether `bytes` hold exactly the bytes of `text`.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { equal(bytes, $0) }
    }

    /// Whether two byte buffers hold the same bytes.
    static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }

    /// The decimal integer `bytes` spell, read as Swift's `init?(_ text:)` reads one (an optional `+` or `-`, then
    /// one or more ASCII digits), or nil when they do not spell one or it does not fit `T`.
    static func integer<T: FixedWidthInteger & SignedInteger>(_ bytes: UnsafeBufferPointer<UInt8>) -> T? {
        var index = 0
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value: T = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            // Accumulating towards the sign reaches T.min, which has no positive counterpart.
            let (next, carried) =
                negative
                ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflowed, !carried else { return nil }
            value = next
            index += 1
        }
        return value
    }
}
