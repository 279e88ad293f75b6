/// Turns a parsed pattern into instructions for `PatternMatcher`.
///
/// The tree is walked with an explicit work list, not recursion, so compiling costs no native stack per level of
/// nesting (a caller may validate on a thread with a small stack).
struct PatternCompiler {
    private var program: PatternProgram
    private let groupNames: [String: Int]
    /// Instructions waiting for a target that is not known yet, innermost last.
    private var openPlaceholders: [Int] = []
    /// Jumps to the end of the alternation being compiled, innermost alternation's last.
    private var pendingJumps: [Int] = []

    static func compile(_ pattern: ParsedPattern) -> PatternProgram {
        var compiler = PatternCompiler(
            program: PatternProgram(groupCount: pattern.groupCount), groupNames: pattern.groupNames)
        var work: [CompileTask] = [.emit(pattern.root, backward: false)]
        while let task = work.popLast() {
            let next = compiler.perform(task)
            work.append(contentsOf: next.reversed())
        }
        compiler.append(.match)
        compiler.program.anchoredAtStart = isAnchoredAtStart(pattern.root)
        return compiler.program
    }

    private init(program: PatternProgram, groupNames: [String: Int]) {
        self.program = program
        self.groupNames = groupNames
    }

    private var here: Int { program.instructions.count }

    private mutating func append(_ instruction: PatternInstruction) {
        program.instructions.append(instruction)
    }

    /// Carries out one task and returns the tasks that follow from it, in the order they must run.
    private mutating func perform(_ task: CompileTask) -> [CompileTask] {
        switch task {
        case .emit(let node, let backward):
            return expand(node, backward: backward)
        case .append(let instruction):
            append(instruction)
        case .openSplit:
            openPlaceholders.append(here)
            append(.split(alternative: -1))
        case .closeSplit:
            program.instructions[openPlaceholders.removeLast()] = .split(alternative: here)
        case .jumpToEnd:
            pendingJumps.append(here)
            append(.jump(-1))
        case .landJumps(let count):
            for _ in 0..<count {
                program.instructions[pendingJumps.removeLast()] = .jump(here)
            }
        case .openLookaround(let negated):
            openPlaceholders.append(here)
            append(.lookaroundStart(negated: negated, continuation: -1))
        case .closeLookaround(let negated):
            append(.lookaroundEnd)
            program.instructions[openPlaceholders.removeLast()] = .lookaroundStart(
                negated: negated, continuation: here)
        case .openLoop(let loop):
            append(.loopInit(loop))
            openPlaceholders.append(here)
            append(.loopHead(loop, exit: -1))
            append(.loopEnter(loop))
        case .closeLoop(let loop):
            let head = openPlaceholders.removeLast()
            append(.loopTail(loop, head: head))
            program.instructions[head] = .loopHead(loop, exit: here)
        }
        return []
    }

    private mutating func expand(_ node: PatternNode, backward: Bool) -> [CompileTask] {
        switch node {
        case .empty:
            return []
        case .scalar(let codePoint):
            return [.append(.character(.scalar(codePoint), backward: backward))]
        case .set(let set):
            return [.append(.character(test(for: set), backward: backward))]
        case .sequence(let terms):
            // Right to left inside a lookbehind, so the last term meets the text nearest the current position.
            return (backward ? terms.reversed() : terms).map { .emit($0, backward: backward) }
        case .alternation(let alternatives):
            var tasks: [CompileTask] = []
            for alternative in alternatives.dropLast() {
                tasks += [.openSplit, .emit(alternative, backward: backward), .jumpToEnd, .closeSplit]
            }
            if let last = alternatives.last {
                tasks.append(.emit(last, backward: backward))
            }
            tasks.append(.landJumps(alternatives.count - 1))
            return tasks
        case .group(let body, let number):
            return [
                .append(.openGroup(number)), .emit(body, backward: backward),
                .append(.closeGroup(number, backward: backward)),
            ]
        case .backreference(let reference):
            return [.append(.backreference(group: groupNumber(reference), backward: backward))]
        case .assertion(let assertion):
            return [.append(instruction(for: assertion))]
        case .lookaround(let body, let behind, let negated):
            return [
                .openLookaround(negated: negated), .emit(body, backward: behind), .closeLookaround(negated: negated),
            ]
        case .quantified(let atom, let quantifier, let captures):
            return expandQuantified(atom, quantifier, captures: captures, backward: backward)
        }
    }

    private mutating func expandQuantified(
        _ atom: PatternNode, _ quantifier: PatternQuantifier, captures: Range<Int>, backward: Bool
    ) -> [CompileTask] {
        // ECMA-262's RepeatMatcher with max 0 never runs the atom, so it leaves no trace.
        guard quantifier.maximum > 0 else { return [] }
        let single: CharacterTest?
        switch atom {
        case .scalar(let codePoint): single = .scalar(codePoint)
        case .set(let set): single = test(for: set)
        default: single = nil
        }
        if let single {
            let repeated = PatternInstruction.repeatCharacter(
                single, minimum: quantifier.minimum, maximum: quantifier.maximum, greedy: quantifier.greedy,
                backward: backward)
            return [.append(repeated)]
        }
        let loop = program.loops.count
        let registers = 3 * program.groupCount + 2 * loop
        program.loops.append(
            PatternLoop(
                minimum: quantifier.minimum, maximum: quantifier.maximum, greedy: quantifier.greedy,
                countRegister: registers, startRegister: registers + 1))
        var tasks: [CompileTask] = [.openLoop(loop)]
        if !captures.isEmpty {
            tasks.append(.append(.clearCaptures(captures)))
        }
        tasks += [.emit(atom, backward: backward), .closeLoop(loop)]
        return tasks
    }

    private mutating func test(for set: CodePointSet) -> CharacterTest {
        program.sets.append(set)
        return .set(program.sets.count - 1)
    }

    private func groupNumber(_ reference: PatternGroupReference) -> Int {
        switch reference {
        case .number(let number): number
        // The parser has checked every name; 0 is never reached and would only match the empty string.
        case .name(let name): groupNames[name] ?? 0
        }
    }

    private func instruction(for assertion: PatternAssertion) -> PatternInstruction {
        switch assertion {
        case .start: .assertStart
        case .end: .assertEnd
        case .wordBoundary: .wordBoundary(negated: false)
        case .notWordBoundary: .wordBoundary(negated: true)
        }
    }

    /// Whether every alternative begins with `^` (seen through groups), so no later start can match.
    private static func isAnchoredAtStart(_ root: PatternNode) -> Bool {
        var pending = [root]
        while let node = pending.popLast() {
            switch node {
            case .assertion(.start):
                continue
            case .sequence(let terms):
                guard let first = terms.first else { return false }
                pending.append(first)
            case .alternation(let alternatives):
                pending += alternatives
            case .group(let body, _):
                pending.append(body)
            default:
                return false
            }
        }
        return true
    }
}

/// A step of compilation. Constructs whose instructions point forward open a placeholder that a later task
/// closes; they nest, so a stack of placeholders is enough.
private enum CompileTask {
    case emit(PatternNode, backward: Bool)
    case append(PatternInstruction)
    case openSplit
    case closeSplit
    case jumpToEnd
    case landJumps(Int)
    case openLookaround(negated: Bool)
    case closeLookaround(negated: Bool)
    case openLoop(Int)
    case closeLoop(Int)
}
