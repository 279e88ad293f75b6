/// A set of code points as a character class describes it: ranges and Unicode properties, possibly inverted.
///
/// Code points are `UInt32`, not `Unicode.Scalar`, because a u-mode pattern may name surrogates (`\uD800`) that
/// a scalar cannot hold; they never match, since a Swift string has no lone surrogates, but they must still parse.
/// Properties stay predicates instead of being expanded into ranges, so `\p{L}` costs nothing until it is used.
struct CodePointSet: Sendable, Hashable {
    /// Sorted, disjoint and non-adjacent.
    private(set) var ranges: [ClosedRange<UInt32>]
    private(set) var properties: [UnicodePropertyTerm]
    /// Set for `[^...]`, `\D`, `\W`, `\S` and `.`: membership is then the complement of ranges and properties.
    private(set) var inverted: Bool

    init(ranges: [ClosedRange<UInt32>] = [], properties: [UnicodePropertyTerm] = [], inverted: Bool = false) {
        self.ranges = Self.normalized(ranges)
        self.properties = properties
        self.inverted = inverted
    }

    func contains(_ codePoint: UInt32) -> Bool {
        var found = rangesContain(codePoint)
        if !found {
            found = properties.contains { $0.contains(codePoint) }
        }
        return found != inverted
    }

    /// The same set with membership flipped.
    func inverting() -> CodePointSet {
        var copy = self
        copy.inverted.toggle()
        return copy
    }

    private func rangesContain(_ codePoint: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = low + (high - low) / 2
            let range = ranges[middle]
            if codePoint < range.lowerBound {
                high = middle
            } else if codePoint > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        for range in sorted {
            if let last = merged.last, last.upperBound == .max || range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The code points in 0...0x10FFFF that `ranges` (sorted, disjoint) leave out.
    static func complement(of ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in normalized(ranges) {
            if range.lowerBound > next {
                result.append(next...(range.lowerBound - 1))
            }
            guard range.upperBound < maximumCodePoint else { return result }
            next = range.upperBound + 1
        }
        result.append(next...maximumCodePoint)
        return result
    }

    static let maximumCodePoint: UInt32 = 0x10_FFFF
}

// MARK: - The sets ECMA-262 names

extension CodePointSet {
    /// `\d`: ASCII digits only, never other Unicode decimal digits.
    static let digitRanges: [ClosedRange<UInt32>] = [0x30...0x39]

    /// `\w` without the i flag: `[A-Za-z0-9_]`, never letters outside ASCII.
    static let wordRanges: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]

    /// `\s`: WhiteSpace (tab, VT, FF, space, NBSP, ZWNBSP and category Zs) plus LineTerminator.
    static let spaceRanges: [ClosedRange<UInt32>] = [
        0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
        0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
    ]

    /// LineTerminator, the code points `.` does not match.
    static let lineTerminatorRanges: [ClosedRange<UInt32>] = [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]

    /// `.` without the s flag.
    static let dot = CodePointSet(ranges: lineTerminatorRanges, inverted: true)

    static func isWordCharacter(_ codePoint: UInt32) -> Bool {
        switch codePoint {
        case 0x30...0x39, 0x41...0x5A, 0x5F, 0x61...0x7A: true
        default: false
        }
    }
}
