extension PatternParser {
    /// Reads `\...` outside a class: an assertion (`\b`, `\B`, not quantifiable), a backreference, a class escape
    /// or a character escape. Every other escape is an error with the u flag.
    mutating func parseAtomEscape() throws(ECMAPatternError) -> (node: PatternNode, quantifiable: Bool) {
        let start = index
        index += 1
        guard let letter = peek else { throw .syntax("\\ at end of pattern", at: start) }
        switch letter {
        case "b":
            index += 1
            return (.assertion(.wordBoundary), false)
        case "B":
            index += 1
            return (.assertion(.notWordBoundary), false)
        case "1"..."9":
            // With the u flag a decimal escape is always a backreference, never an octal escape.
            var digits = index
            while let scalar = scalar(at: digits), ("0"..."9").contains(scalar) {
                digits += 1
            }
            let number = Self.decimalValue(text[index..<digits])
            index = digits
            numberedReferences.append((number, start))
            return (.backreference(.number(number)), true)
        case "k":
            index += 1
            guard peek == "<" else { throw .syntax("invalid named reference", at: start) }
            index += 1
            let name = try parseGroupName()
            namedReferences.append((name, start))
            return (.backreference(.name(name)), true)
        default:
            if let set = try parseClassEscape(from: start) {
                return (.set(CodePointSet(ranges: set.ranges, properties: set.properties)), true)
            }
            return (.scalar(try parseCharacterEscape(from: start, inClass: false)), true)
        }
    }

    /// Reads a CharacterEscape (the part after the backslash at `start`), shared by atoms and classes.
    mutating func parseCharacterEscape(from start: Int, inClass: Bool) throws(ECMAPatternError) -> UInt32 {
        guard let letter = peek else { throw .syntax("\\ at end of pattern", at: start) }
        index += 1
        switch letter {
        case "f": return 0x0C
        case "n": return 0x0A
        case "r": return 0x0D
        case "t": return 0x09
        case "v": return 0x0B
        case "c":
            guard let control = peek, ("a"..."z").contains(control) || ("A"..."Z").contains(control) else {
                throw .syntax("invalid control escape", at: start)
            }
            index += 1
            return control.value % 32
        case "0":
            if let next = peek, ("0"..."9").contains(next) {
                throw .syntax("invalid decimal escape", at: start)
            }
            return 0
        case "x":
            guard let high = Self.hexValue(peek), let low = Self.hexValue(scalar(at: index + 1)) else {
                throw .syntax("invalid hexadecimal escape", at: start)
            }
            index += 2
            return high << 4 | low
        case "u":
            return try parseUnicodeEscape(from: start)
        case "^", "$", "\\", ".", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "/":
            return letter.value
        case "-" where inClass:
            return letter.value
        default:
            throw .syntax("invalid escape \\\(letter)", at: start)
        }
    }

    /// Reads what follows `\u`: four hex digits (a lead and trail surrogate pair written as two such escapes is
    /// one code point) or `{...}` up to 10FFFF.
    mutating func parseUnicodeEscape(from start: Int) throws(ECMAPatternError) -> UInt32 {
        if peek == "{" {
            var cursor = index + 1
            var value: UInt32 = 0
            while let digit = Self.hexValue(scalar(at: cursor)) {
                value = value << 4 | digit
                guard value <= CodePointSet.maximumCodePoint else {
                    throw .syntax("Unicode escape beyond 10FFFF", at: start)
                }
                cursor += 1
            }
            guard cursor > index + 1, scalar(at: cursor) == "}" else {
                throw .syntax("invalid Unicode escape", at: start)
            }
            index = cursor + 1
            return value
        }
        guard let lead = fourHexDigits(at: index) else { throw .syntax("invalid Unicode escape", at: start) }
        index += 4
        if (0xD800...0xDBFF).contains(lead), scalar(at: index) == "\\", scalar(at: index + 1) == "u",
            let trail = fourHexDigits(at: index + 2), (0xDC00...0xDFFF).contains(trail)
        {
            index += 6
            return 0x1_0000 + (lead - 0xD800) << 10 + (trail - 0xDC00)
        }
        return lead
    }

    /// Reads a group name after `<` through its closing `>`: an identifier whose characters may be written as
    /// `\u` escapes.
    mutating func parseGroupName() throws(ECMAPatternError) -> String {
        let nameStart = index
        var name = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else { throw .syntax("unterminated group name", at: nameStart) }
            let characterStart = index
            index += 1
            if scalar == ">" {
                break
            }
            var codePoint = scalar.value
            if scalar == "\\" {
                guard peek == "u" else { throw .syntax("invalid group name", at: characterStart) }
                index += 1
                codePoint = try parseUnicodeEscape(from: characterStart)
            }
            let allowed = name.isEmpty ? Self.isIdentifierStart(codePoint) : Self.isIdentifierPart(codePoint)
            guard allowed, let decoded = Unicode.Scalar(codePoint) else {
                throw .syntax("invalid group name", at: characterStart)
            }
            name.append(decoded)
        }
        guard !name.isEmpty else { throw .syntax("empty group name", at: nameStart) }
        return String(name)
    }

    private func fourHexDigits(at position: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = Self.hexValue(scalar(at: position + offset)) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    static func hexValue(_ scalar: Unicode.Scalar?) -> UInt32? {
        guard let scalar else { return nil }
        switch scalar {
        case "0"..."9": return scalar.value - 0x30
        case "a"..."f": return scalar.value - 0x61 + 10
        case "A"..."F": return scalar.value - 0x41 + 10
        default: return nil
        }
    }

    private static func isIdentifierStart(_ codePoint: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(codePoint) else { return false }
        return scalar == "$" || scalar == "_" || scalar.properties.isIDStart
    }

    private static func isIdentifierPart(_ codePoint: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(codePoint) else { return false }
        // U+200C and U+200D are ZWNJ and ZWJ, which identifiers may contain.
        return scalar == "$" || codePoint == 0x200C || codePoint == 0x200D || scalar.properties.isIDContinue
    }
}
