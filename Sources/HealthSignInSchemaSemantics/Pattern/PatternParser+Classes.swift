/// What a class escape (`\d`, `\W`, `\p{L}`, ...) stands for, ready to join a class.
struct ClassEscapeSet {
    /// Already complemented for `\D`, `\S` and `\W`.
    var ranges: [ClosedRange<UInt32>] = []
    var properties: [UnicodePropertyTerm] = []
}

extension PatternParser {
    /// Reads `[...]` or `[^...]`. Without the v flag a class holds no nested classes, so `[` inside is literal.
    mutating func parseClass() throws(ECMAPatternError) -> CodePointSet {
        let start = index
        index += 1
        let inverted = peek == "^"
        if inverted {
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var properties: [UnicodePropertyTerm] = []
        while true {
            guard let scalar = peek else { throw .syntax("unterminated character class", at: start) }
            if scalar == "]" {
                index += 1
                break
            }
            let atomStart = index
            let first = try parseClassAtom(classStart: start)
            // A dash is a range only between two atoms; first or last in the class it is itself.
            if peek == "-", let after = self.scalar(at: index + 1), after != "]" {
                index += 1
                let second = try parseClassAtom(classStart: start)
                guard case .single(let low) = first, case .single(let high) = second else {
                    throw .syntax("class escape used as a range endpoint", at: atomStart)
                }
                guard low <= high else { throw .syntax("range out of order in character class", at: atomStart) }
                ranges.append(low...high)
                continue
            }
            switch first {
            case .single(let codePoint):
                ranges.append(codePoint...codePoint)
            case .set(let set):
                ranges += set.ranges
                properties += set.properties
            }
        }
        return CodePointSet(ranges: ranges, properties: properties, inverted: inverted)
    }

    private mutating func parseClassAtom(classStart: Int) throws(ECMAPatternError) -> ClassAtom {
        guard let scalar = peek else { throw .syntax("unterminated character class", at: classStart) }
        guard scalar == "\\" else {
            index += 1
            return .single(scalar.value)
        }
        let start = index
        index += 1
        if peek == "b" {
            index += 1
            return .single(0x08)
        }
        if let set = try parseClassEscape(from: start) {
            return .set(set)
        }
        return .single(try parseCharacterEscape(from: start, inClass: true))
    }

    /// Reads a CharacterClassEscape if the letter after the backslash at `start` begins one.
    mutating func parseClassEscape(from start: Int) throws(ECMAPatternError) -> ClassEscapeSet? {
        guard let letter = peek else { return nil }
        let ranges: [ClosedRange<UInt32>]
        switch letter {
        case "d": ranges = CodePointSet.digitRanges
        case "D": ranges = CodePointSet.complement(of: CodePointSet.digitRanges)
        case "s": ranges = CodePointSet.spaceRanges
        case "S": ranges = CodePointSet.complement(of: CodePointSet.spaceRanges)
        case "w": ranges = CodePointSet.wordRanges
        case "W": ranges = CodePointSet.complement(of: CodePointSet.wordRanges)
        case "p", "P": return try parsePropertyEscape(from: start)
        default: return nil
        }
        index += 1
        return ClassEscapeSet(ranges: ranges)
    }

    /// Reads `p{...}` or `P{...}`; names are matched exactly, as ECMA-262 requires (no loose matching).
    private mutating func parsePropertyEscape(from start: Int) throws(ECMAPatternError) -> ClassEscapeSet {
        let negated = peek == "P"
        index += 1
        guard peek == "{" else { throw .syntax("invalid property escape", at: start) }
        index += 1
        var name = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw .syntax("unterminated property escape", at: start) }
            index += 1
            if scalar == "}" {
                break
            }
            let allowed =
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "="
            guard allowed else { throw .syntax("invalid property name", at: start) }
            name.append(scalar)
        }
        guard !name.isEmpty else { throw .syntax("empty property name", at: start) }
        switch UnicodeProperty.named(String(name)) {
        case .success(let property):
            return ClassEscapeSet(properties: [UnicodePropertyTerm(property: property, negated: negated)])
        case .failure(let error):
            throw .syntax(error.reason, at: start)
        }
    }
}

/// One side of a possible range in a class.
private enum ClassAtom {
    case single(UInt32)
    case set(ClassEscapeSet)
}
