/// A read position in the UTF-8 bytes of a text, for the fixed-layout grammars here (dates, UUIDs, JSON numbers).
///
/// Reading bytes rather than `Character`s keeps the grammars ASCII-exact: a combining mark after a digit, or a
/// non-ASCII digit such as `৪`, is simply a byte that matches nothing.
struct ByteCursor {
    /// The text's UTF-8 bytes.
    let bytes: [UInt8]
    /// The index of the next unread byte.
    private(set) var index = 0

    /// A cursor at the start of `text`.
    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index >= bytes.count }

    /// The next unread byte, or nil at the end.
    var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Reads `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        index += 1
        return true
    }

    /// Reads an ASCII letter if it is next, in either case (`T` or `t`); `lowercase` must be a lowercase letter.
    mutating func takeLetter(_ lowercase: UInt8) -> Bool {
        guard let byte = next, byte | 0x20 == lowercase else { return false }
        index += 1
        return true
    }

    /// Reads exactly `count` ASCII digits and returns their value; nothing is read unless all of them are there.
    mutating func number(digits count: Int) -> Int? {
        guard count <= 9, index <= bytes.count - count else { return nil }
        var value = 0
        for offset in 0..<count {
            guard let digit = ASCII.digitValue(bytes[index + offset]) else { return nil }
            value = value * 10 + Int(digit)
        }
        index += count
        return value
    }

    /// Reads the longest run of ASCII digits (possibly none) and returns the range it spans.
    mutating func digitRun() -> Range<Int> {
        let start = index
        while let byte = next, ASCII.digitValue(byte) != nil {
            index += 1
        }
        return start..<index
    }
}
