/// Reads a pattern's source as ECMA-262's `Pattern` grammar with the u flag, into a `PatternNode` tree, and checks
/// the early errors that grammar defines (duplicate names, references to missing groups, reversed bounds, ...).
///
/// Open groups live on an explicit stack rather than in recursive calls, so nesting costs heap, not native stack.
/// The depth is still capped: releasing a tree is recursive in the Swift runtime, one call chain per level.
struct PatternParser {
    /// How deeply groups may nest: far beyond any real schema, and a tree this deep is released well within a
    /// 128 KB thread stack even in a debug build.
    static let maximumNesting = 256

    let text: [Unicode.Scalar]
    var index = 0
    var groupCount = 0
    var groupNames: [String: Int] = [:]
    /// Checked once the whole pattern is read, since a reference may point forward.
    var numberedReferences: [(number: Int, offset: Int)] = []
    var namedReferences: [(name: String, offset: Int)] = []

    static func parse(_ source: String) throws(ECMAPatternError) -> ParsedPattern {
        var parser = PatternParser(text: Array(source.unicodeScalars))
        let root = try parser.parseDisjunction()
        try parser.checkReferences()
        return ParsedPattern(root: root, groupCount: parser.groupCount, groupNames: parser.groupNames)
    }

    private init(text: [Unicode.Scalar]) {
        self.text = text
    }

    var peek: Unicode.Scalar? { scalar(at: index) }

    func scalar(at position: Int) -> Unicode.Scalar? {
        position >= 0 && position < text.count ? text[position] : nil
    }

    private mutating func parseDisjunction() throws(ECMAPatternError) -> PatternNode {
        var stack = [OpenGroup(kind: .plain, offset: 0, groupsBefore: 0)]
        while let scalar = peek {
            let start = index
            switch scalar {
            case "|":
                index += 1
                stack[stack.count - 1].endAlternative()
            case "(":
                guard stack.count <= Self.maximumNesting else {
                    let reason = "groups nested more than \(Self.maximumNesting) deep"
                    throw ECMAPatternError(kind: .tooComplex, offset: start, reason: reason)
                }
                stack.append(try parseGroupOpening())
            case ")":
                guard stack.count > 1 else { throw .syntax("unmatched ')'", at: start) }
                index += 1
                try closeGroup(stack.removeLast(), into: &stack)
            case "^":
                index += 1
                try appendAssertion(.assertion(.start), to: &stack)
            case "$":
                index += 1
                try appendAssertion(.assertion(.end), to: &stack)
            case "\\":
                let escape = try parseAtomEscape()
                if escape.quantifiable {
                    try appendAtom(escape.node, groupsBefore: groupCount, to: &stack)
                } else {
                    try appendAssertion(escape.node, to: &stack)
                }
            case "[":
                try appendAtom(.set(try parseClass()), groupsBefore: groupCount, to: &stack)
            case ".":
                index += 1
                try appendAtom(.set(.dot), groupsBefore: groupCount, to: &stack)
            case "*", "+", "?":
                throw .syntax("nothing to repeat", at: start)
            case "{":
                // With the u flag a brace is never a literal, so it is either a misplaced quantifier or a stray.
                let reason = scanBraces(at: start) == nil ? "lone '{'" : "nothing to repeat"
                throw .syntax(reason, at: start)
            case "}", "]":
                throw .syntax("lone '\(scalar)'", at: start)
            default:
                index += 1
                try appendAtom(.scalar(scalar.value), groupsBefore: groupCount, to: &stack)
            }
        }
        guard stack.count == 1, let root = stack.first else {
            throw .syntax("unterminated group", at: stack[stack.count - 1].offset)
        }
        return root.body()
    }

    private mutating func parseGroupOpening() throws(ECMAPatternError) -> OpenGroup {
        let start = index
        let before = groupCount
        index += 1
        guard peek == "?" else {
            groupCount += 1
            return OpenGroup(kind: .capture(groupCount), offset: start, groupsBefore: before)
        }
        index += 1
        let kind: OpenGroup.Kind
        switch peek {
        case ":"?:
            index += 1
            kind = .plain
        case "="?, "!"?:
            kind = .lookaround(behind: false, negated: peek == "!")
            index += 1
        case "<"? where scalar(at: index + 1) == "=" || scalar(at: index + 1) == "!":
            kind = .lookaround(behind: true, negated: scalar(at: index + 1) == "!")
            index += 2
        case "<"?:
            index += 1
            let nameStart = index
            let name = try parseGroupName()
            guard groupNames[name] == nil else { throw .syntax("duplicate group name \(name)", at: nameStart) }
            groupCount += 1
            groupNames[name] = groupCount
            kind = .capture(groupCount)
        default:
            throw .syntax("invalid group", at: start)
        }
        return OpenGroup(kind: kind, offset: start, groupsBefore: before)
    }

    private mutating func closeGroup(_ group: OpenGroup, into stack: inout [OpenGroup]) throws(ECMAPatternError) {
        let body = group.body()
        switch group.kind {
        case .plain:
            try appendAtom(body, groupsBefore: group.groupsBefore, to: &stack)
        case .capture(let number):
            try appendAtom(.group(body, number: number), groupsBefore: group.groupsBefore, to: &stack)
        case .lookaround(let behind, let negated):
            try appendAssertion(.lookaround(body, behind: behind, negated: negated), to: &stack)
        }
    }

    /// Appends an atom with its quantifier, if one follows; `groupsBefore` numbers the groups the atom holds.
    private mutating func appendAtom(
        _ atom: PatternNode, groupsBefore: Int, to stack: inout [OpenGroup]
    ) throws(ECMAPatternError) {
        var term = atom
        if let quantifier = try parseQuantifier() {
            term = .quantified(atom, quantifier, captures: (groupsBefore + 1)..<(groupCount + 1))
        }
        stack[stack.count - 1].terms.append(term)
    }

    /// With the u flag no assertion, lookarounds included, may be quantified.
    private mutating func appendAssertion(_ assertion: PatternNode, to stack: inout [OpenGroup])
        throws(ECMAPatternError)
    {
        if let next = peek, next == "*" || next == "+" || next == "?" || next == "{" {
            throw .syntax("nothing to repeat", at: index)
        }
        stack[stack.count - 1].terms.append(assertion)
    }

    private func checkReferences() throws(ECMAPatternError) {
        var first: ECMAPatternError?
        for reference in numberedReferences where reference.number > groupCount {
            let error = ECMAPatternError.syntax(
                "reference to nonexistent group \(reference.number)", at: reference.offset)
            if first.map({ error.offset < $0.offset }) ?? true {
                first = error
            }
        }
        for reference in namedReferences where groupNames[reference.name] == nil {
            let error = ECMAPatternError.syntax(
                "reference to nonexistent group <\(reference.name)>", at: reference.offset)
            if first.map({ error.offset < $0.offset }) ?? true {
                first = error
            }
        }
        if let first {
            throw first
        }
    }
}

/// A group whose closing parenthesis has not been read yet (the whole pattern is the outermost one).
private struct OpenGroup {
    enum Kind {
        case plain
        case capture(Int)
        case lookaround(behind: Bool, negated: Bool)
    }

    let kind: Kind
    /// Where its opening parenthesis is, for an "unterminated group" error.
    let offset: Int
    let groupsBefore: Int
    var alternatives: [PatternNode] = []
    var terms: [PatternNode] = []

    mutating func endAlternative() {
        alternatives.append(Self.sequence(terms))
        terms = []
    }

    func body() -> PatternNode {
        let all = alternatives + [Self.sequence(terms)]
        return all.count == 1 ? all[0] : .alternation(all)
    }

    private static func sequence(_ terms: [PatternNode]) -> PatternNode {
        switch terms.count {
        case 0: .empty
        case 1: terms[0]
        default: .sequence(terms)
        }
    }
}
