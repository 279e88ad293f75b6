/// Why a pattern cannot be read or run.
public struct ECMAPatternError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The two ways a pattern can fail.
    public enum Kind: Sendable, Hashable {
        /// The source is not a pattern ECMA-262 accepts with the u flag.
        case syntax
        /// Reading or running the pattern needs more work than allowed; the pattern may still be valid.
        case tooComplex
    }

    /// Which of the two failures this is.
    public let kind: Kind
    /// Where the problem is, in code points from the start of the source (0 for a search over its step limit).
    public let offset: Int
    /// A short explanation ("unterminated character class", "nothing to repeat", "invalid escape \\a", ...).
    public let reason: String

    /// Makes an error; the engine makes its own, this is for callers that report pattern problems alongside.
    public init(kind: Kind, offset: Int, reason: String) {
        self.kind = kind
        self.offset = offset
        self.reason = reason
    }

    /// The reason with its place, as one line for diagnostics.
    public var description: String {
        switch kind {
        case .syntax: "invalid pattern at offset \(offset): \(reason)"
        case .tooComplex: "pattern too complex at offset \(offset): \(reason)"
        }
    }

    static func syntax(_ reason: String, at offset: Int) -> ECMAPatternError {
        ECMAPatternError(kind: .syntax, offset: offset, reason: reason)
    }
}
