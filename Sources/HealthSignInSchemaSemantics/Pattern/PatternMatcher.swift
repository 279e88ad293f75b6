/// Runs a `PatternProgram` over a subject by backtracking, as ECMA-262's matcher semantics describe.
///
/// Choice points and undo records share one explicit stack (`trail`), so matching never recurses: a long subject
/// grows the heap, never the native stack. Every instruction and every record popped is a step; past the limit the
/// search stops with `.tooComplex` instead of running for exponential time.
struct PatternMatcher {
    let program: PatternProgram
    let subject: [UInt32]
    var registers: [Int]
    var trail: [BacktrackRecord] = []
    var steps = 0
    let stepLimit: Int

    init(program: PatternProgram, subject: [UInt32], stepLimit: Int) {
        self.program = program
        self.subject = subject
        self.stepLimit = stepLimit
        registers = Array(repeating: -1, count: program.registerCount)
    }

    /// Tries each start position in turn, as an unanchored search does.
    mutating func search() throws(ECMAPatternError) -> Bool {
        let lastStart = program.anchoredAtStart ? 0 : subject.count
        for start in 0...lastStart {
            // A failed attempt pops every record it pushed, so the registers are as they began.
            trail.removeAll(keepingCapacity: true)
            if try run(from: start) {
                return true
            }
        }
        return false
    }

    private mutating func run(from start: Int) throws(ECMAPatternError) -> Bool {
        var pc = 0
        var position = start
        while true {
            try tick()
            var failed = false
            switch program.instructions[pc] {
            case .character(let test, let backward):
                if let next = advance(test, from: position, backward: backward) {
                    position = next
                    pc += 1
                } else {
                    failed = true
                }
            case .repeatCharacter(let test, let minimum, let maximum, let greedy, let backward):
                if let next = try repeatCharacter(
                    at: pc, test: test, bounds: (minimum, maximum), greedy: greedy, from: position,
                    backward: backward)
                {
                    position = next
                    pc += 1
                } else {
                    failed = true
                }
            case .assertStart:
                failed = position != 0
                pc += 1
            case .assertEnd:
                failed = position != subject.count
                pc += 1
            case .wordBoundary(let negated):
                failed = (isWordCharacter(at: position - 1) != isWordCharacter(at: position)) == negated
                pc += 1
            case .backreference(let group, let backward):
                if let next = try matchBackreference(group, at: position, backward: backward) {
                    position = next
                    pc += 1
                } else {
                    failed = true
                }
            case .split(let alternative):
                trail.append(.resume(pc: alternative, position: position))
                pc += 1
            case .jump(let target):
                pc = target
            case .openGroup(let group):
                write(PatternProgram.openRegister(ofGroup: group), position)
                pc += 1
            case .closeGroup(let group, let backward):
                // Backward, the group's text runs from here to where it was opened.
                let opened = registers[PatternProgram.openRegister(ofGroup: group)]
                write(PatternProgram.startRegister(ofGroup: group), backward ? position : opened)
                write(PatternProgram.endRegister(ofGroup: group), backward ? opened : position)
                pc += 1
            case .clearCaptures(let groups):
                steps += groups.count
                for group in groups {
                    write(PatternProgram.startRegister(ofGroup: group), -1)
                    write(PatternProgram.endRegister(ofGroup: group), -1)
                }
                pc += 1
            case .loopInit(let loop):
                write(program.loops[loop].countRegister, 0)
                pc += 1
            case .loopHead(let loop, let exit):
                pc = loopHead(program.loops[loop], at: pc, exit: exit, position: position)
            case .loopEnter(let loop):
                write(program.loops[loop].startRegister, position)
                pc += 1
            case .loopTail(let loop, let head):
                failed = !loopTail(program.loops[loop], position: position)
                pc = head
            case .lookaroundStart(let negated, let continuation):
                trail.append(.lookaround(position: position, negated: negated, continuation: continuation))
                pc += 1
            case .lookaroundEnd:
                if let resumeAt = try finishLookaround() {
                    position = resumeAt
                    pc += 1
                } else {
                    failed = true
                }
            case .match:
                return true
            }
            if failed {
                guard let resume = try backtrack() else { return false }
                pc = resume.pc
                position = resume.position
            }
        }
    }

    mutating func tick() throws(ECMAPatternError) {
        steps += 1
        if steps > stepLimit {
            throw ECMAPatternError(
                kind: .tooComplex, offset: 0, reason: "the search needs more than \(stepLimit) steps")
        }
    }

    /// Sets a register, logging its old value so backtracking restores it.
    mutating func write(_ register: Int, _ value: Int) {
        let old = registers[register]
        if old != value {
            trail.append(.restore(register: register, value: old))
            registers[register] = value
        }
    }

    /// Where the position moves to when the character next to it (after it, or before it backward) passes.
    func advance(_ test: CharacterTest, from position: Int, backward: Bool) -> Int? {
        let index = backward ? position - 1 : position
        guard index >= 0, index < subject.count else { return nil }
        let codePoint = subject[index]
        let passes: Bool
        switch test {
        case .scalar(let expected): passes = codePoint == expected
        case .set(let set): passes = program.sets[set].contains(codePoint)
        }
        guard passes else { return nil }
        return backward ? position - 1 : position + 1
    }

    private func isWordCharacter(at index: Int) -> Bool {
        index >= 0 && index < subject.count && CodePointSet.isWordCharacter(subject[index])
    }
}
