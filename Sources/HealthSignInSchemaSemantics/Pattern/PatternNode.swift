/// A parsed pattern: the tree the parser builds and the compiler turns into instructions.
///
/// Capturing groups are numbered by the position of their opening parenthesis, as ECMA-262 numbers them.
indirect enum PatternNode: Sendable {
    case empty
    /// One code point, possibly a surrogate written as an escape.
    case scalar(UInt32)
    /// A class, a class escape (`\d`, `\p{L}`, ...) or `.`.
    case set(CodePointSet)
    case sequence([PatternNode])
    case alternation([PatternNode])
    case group(PatternNode, number: Int)
    case backreference(PatternGroupReference)
    case assertion(PatternAssertion)
    case lookaround(PatternNode, behind: Bool, negated: Bool)
    /// `captures` are the numbers of the groups inside the repeated atom, which each iteration resets.
    case quantified(PatternNode, PatternQuantifier, captures: Range<Int>)
}

/// How a backreference names its group.
enum PatternGroupReference: Sendable, Hashable {
    case number(Int)
    case name(String)
}

/// The zero-width assertions that are not lookarounds.
enum PatternAssertion: Sendable, Hashable {
    /// `^` without the m flag: the start of the input only.
    case start
    /// `$` without the m flag: the end of the input only.
    case end
    case wordBoundary
    case notWordBoundary
}

/// How often an atom repeats.
struct PatternQuantifier: Sendable, Hashable {
    /// Stands for no upper bound; counts that large can never be reached within a step limit anyway.
    static let unbounded = Int.max

    let minimum: Int
    let maximum: Int
    let greedy: Bool
}

/// What the parser hands the compiler.
struct ParsedPattern: Sendable {
    let root: PatternNode
    let groupCount: Int
    let groupNames: [String: Int]
}
