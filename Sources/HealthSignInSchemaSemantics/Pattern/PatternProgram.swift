/// A compiled pattern: instructions for `PatternMatcher`, a backtracking machine with its own stack.
///
/// Registers hold capture boundaries and loop state; every write to one is logged so backtracking can undo it.
/// Group `g` (from 1) owns registers `3(g-1)` (start), `3(g-1)+1` (end) and `3(g-1)+2` (where its match began,
/// kept apart so the group's capture changes only when the group completes, as ECMA-262 specifies).
/// Loop `l` owns the two registers after all groups' (its iteration count and where its iteration began).
struct PatternProgram: Sendable {
    var instructions: [PatternInstruction] = []
    var sets: [CodePointSet] = []
    var loops: [PatternLoop] = []
    let groupCount: Int
    /// Whether every match must begin at the start of the input, so the search tries no other position.
    var anchoredAtStart = false

    var registerCount: Int { 3 * groupCount + 2 * loops.count }

    static func startRegister(ofGroup group: Int) -> Int { 3 * (group - 1) }
    static func endRegister(ofGroup group: Int) -> Int { 3 * (group - 1) + 1 }
    static func openRegister(ofGroup group: Int) -> Int { 3 * (group - 1) + 2 }
}

/// One quantified atom other than a single character.
struct PatternLoop: Sendable {
    let minimum: Int
    let maximum: Int
    let greedy: Bool
    let countRegister: Int
    let startRegister: Int
}

/// How one character is tested.
enum CharacterTest: Sendable {
    case scalar(UInt32)
    /// An index into `PatternProgram.sets`.
    case set(Int)
}

/// A machine instruction. `backward` is set inside lookbehinds, which ECMA-262 matches right to left.
enum PatternInstruction: Sendable {
    case character(CharacterTest, backward: Bool)
    /// A quantified single character: matched in one scan, then given back (or taken) one at a time.
    case repeatCharacter(CharacterTest, minimum: Int, maximum: Int, greedy: Bool, backward: Bool)
    case assertStart
    case assertEnd
    case wordBoundary(negated: Bool)
    case backreference(group: Int, backward: Bool)
    /// Continues with the next instruction, and on failure tries `alternative` at the same position.
    case split(alternative: Int)
    case jump(Int)
    case openGroup(Int)
    case closeGroup(Int, backward: Bool)
    /// Makes the groups in the range undefined, as each iteration of a quantifier does for the groups inside.
    case clearCaptures(Range<Int>)
    case loopInit(Int)
    /// Decides whether loop `l` iterates again, exits to `exit`, or leaves a choice point for the other.
    case loopHead(Int, exit: Int)
    case loopEnter(Int)
    /// Fails an optional iteration that matched nothing, counts the iteration, and jumps to `head`.
    case loopTail(Int, head: Int)
    /// Begins a lookaround whose body ends with `lookaroundEnd`; `continuation` follows that instruction.
    case lookaroundStart(negated: Bool, continuation: Int)
    case lookaroundEnd
    case match
}
