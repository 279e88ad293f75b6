/// An entry of the matcher's stack: a way to resume after a failure, or a register write to undo on the way back.
enum BacktrackRecord {
    case resume(pc: Int, position: Int)
    case restore(register: Int, value: Int)
    /// A greedy single-character repeat that can end one character earlier, down to `limit`.
    case giveBack(instruction: Int, position: Int, limit: Int)
    /// A lazy single-character repeat that can take one more character, `remaining` more at most.
    case takeMore(instruction: Int, position: Int, remaining: Int)
    /// The start of a lookaround's body: reached by backtracking, it means the body failed.
    case lookaround(position: Int, negated: Bool, continuation: Int)
}

extension PatternMatcher {
    /// Pops records, undoing writes, until one says how to go on; nil when no choice is left.
    mutating func backtrack() throws(ECMAPatternError) -> (pc: Int, position: Int)? {
        while let record = trail.popLast() {
            try tick()
            switch record {
            case .restore(let register, let value):
                registers[register] = value
            case .resume(let pc, let position):
                return (pc, position)
            case .giveBack(let instruction, let position, let limit):
                guard case .repeatCharacter(_, _, _, _, let backward) = program.instructions[instruction] else {
                    continue
                }
                let shorter = backward ? position + 1 : position - 1
                if shorter != limit {
                    trail.append(.giveBack(instruction: instruction, position: shorter, limit: limit))
                }
                return (instruction + 1, shorter)
            case .takeMore(let instruction, let position, let remaining):
                guard case .repeatCharacter(let test, _, _, _, let backward) = program.instructions[instruction],
                    let longer = advance(test, from: position, backward: backward)
                else { continue }
                if remaining > 1 {
                    let left = remaining == PatternQuantifier.unbounded ? remaining : remaining - 1
                    trail.append(.takeMore(instruction: instruction, position: longer, remaining: left))
                }
                return (instruction + 1, longer)
            case .lookaround(let position, let negated, let continuation):
                // A negative lookaround whose body has failed holds; a positive one fails in turn.
                if negated {
                    return (continuation, position)
                }
            }
        }
        return nil
    }

    /// Runs a single-character repeat: takes as many characters as it may (greedy) or must (lazy) and leaves a
    /// record to revisit the choice. Nil when fewer than `minimum` characters pass.
    mutating func repeatCharacter(
        at pc: Int, test: CharacterTest, bounds: (minimum: Int, maximum: Int), greedy: Bool, from start: Int,
        backward: Bool
    ) throws(ECMAPatternError) -> Int? {
        let wanted = greedy ? bounds.maximum : bounds.minimum
        var count = 0
        var position = start
        while count < wanted, let next = advance(test, from: position, backward: backward) {
            try tick()
            position = next
            count += 1
        }
        guard count >= bounds.minimum else { return nil }
        if greedy {
            if count > bounds.minimum {
                let limit = backward ? start - bounds.minimum : start + bounds.minimum
                trail.append(.giveBack(instruction: pc, position: position, limit: limit))
            }
        } else if bounds.maximum > bounds.minimum {
            let remaining =
                bounds.maximum == PatternQuantifier.unbounded
                ? PatternQuantifier.unbounded : bounds.maximum - bounds.minimum
            trail.append(.takeMore(instruction: pc, position: position, remaining: remaining))
        }
        return position
    }

    /// Where to go at a loop's head (ECMA-262's RepeatMatcher): into the body while below the minimum, out at
    /// the maximum, otherwise one way now and the other on failure, greedy preferring another iteration.
    mutating func loopHead(_ loop: PatternLoop, at pc: Int, exit: Int, position: Int) -> Int {
        let count = registers[loop.countRegister]
        if count < loop.minimum {
            return pc + 1
        }
        if count >= loop.maximum {
            return exit
        }
        if loop.greedy {
            trail.append(.resume(pc: exit, position: position))
            return pc + 1
        }
        trail.append(.resume(pc: pc + 1, position: position))
        return exit
    }

    /// Ends an iteration; false when it was optional and matched nothing, which ECMA-262 treats as a failure so
    /// that a loop cannot spin on an empty match.
    mutating func loopTail(_ loop: PatternLoop, position: Int) -> Bool {
        let count = registers[loop.countRegister]
        if count >= loop.minimum && position == registers[loop.startRegister] {
            return false
        }
        // Past the minimum an unbounded loop no longer needs its count, so it is not logged every iteration.
        if count < loop.minimum || loop.maximum != PatternQuantifier.unbounded {
            write(loop.countRegister, count + 1)
        }
        return true
    }

    /// Ends a lookaround's body, which has matched. A positive lookaround keeps the body's captures but drops its
    /// choice points (lookarounds are atomic) and returns the position it started at; a negative one fails.
    mutating func finishLookaround() throws(ECMAPatternError) -> Int? {
        var marker = trail.count - 1
        while marker >= 0 {
            try tick()
            if case .lookaround = trail[marker] {
                break
            }
            marker -= 1
        }
        guard marker >= 0, case .lookaround(let position, let negated, _) = trail[marker] else { return nil }
        if negated {
            while trail.count > marker {
                if case .restore(let register, let value) = trail.removeLast() {
                    registers[register] = value
                }
            }
            return nil
        }
        var kept = marker
        for index in (marker + 1)..<trail.count {
            if case .restore = trail[index] {
                trail[kept] = trail[index]
                kept += 1
            }
        }
        trail.removeSubrange(kept...)
        return position
    }

    /// Matches the text group `group` captured (nothing, if it did not participate), code point by code point.
    mutating func matchBackreference(_ group: Int, at position: Int, backward: Bool) throws(ECMAPatternError) -> Int? {
        guard group >= 1, group <= program.groupCount else { return position }
        let start = registers[PatternProgram.startRegister(ofGroup: group)]
        let end = registers[PatternProgram.endRegister(ofGroup: group)]
        guard start >= 0, end >= start else { return position }
        let length = end - start
        let from = backward ? position - length : position
        guard from >= 0, from + length <= subject.count else { return nil }
        steps += length
        try tick()
        for offset in 0..<length where subject[start + offset] != subject[from + offset] {
            return nil
        }
        return backward ? from : position + length
    }
}
