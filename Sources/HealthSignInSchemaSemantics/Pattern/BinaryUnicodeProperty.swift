/// The binary Unicode properties ECMA-262 lists that the standard library answers directly.
///
/// Emoji_Component, Extended_Pictographic and Regional_Indicator are left out: the standard library has no
/// query for them, and a hand-kept table would drift from the Unicode version the rest of the data follows.
enum BinaryUnicodeProperty: Sendable, Hashable {
    case any, ascii, asciiHexDigit, alphabetic, assigned, bidiControl, bidiMirrored, caseIgnorable, cased
    case changesWhenCaseFolded, changesWhenCaseMapped, changesWhenLowercased, changesWhenNFKCCaseFolded
    case changesWhenTitlecased, changesWhenUppercased, dash, defaultIgnorableCodePoint, deprecated, diacritic
    case emoji, emojiModifier, emojiModifierBase, emojiPresentation, extender, graphemeBase, graphemeExtend
    case hexDigit, idsBinaryOperator, idsTrinaryOperator, idContinue, idStart, ideographic, joinControl
    case logicalOrderException, lowercase, math, noncharacterCodePoint, patternSyntax, patternWhiteSpace
    case quotationMark, radical, sentenceTerminal, softDotted, terminalPunctuation, unifiedIdeograph, uppercase
    case variationSelector, whiteSpace, xidContinue, xidStart

    func contains(_ codePoint: UInt32) -> Bool {
        switch self {
        case .any: return true
        case .ascii: return codePoint < 0x80
        // Surrogates are assigned (category Cs) but have no scalar, and no other property holds for them.
        case .assigned:
            guard let scalar = Unicode.Scalar(codePoint) else { return true }
            return scalar.properties.generalCategory != .unassigned
        default:
            guard let scalar = Unicode.Scalar(codePoint) else { return false }
            return holds(for: scalar.properties)
        }
    }

    private func holds(for properties: Unicode.Scalar.Properties) -> Bool {
        switch self {
        case .any, .ascii, .assigned: false
        case .asciiHexDigit: properties.isASCIIHexDigit
        case .alphabetic: properties.isAlphabetic
        case .bidiControl: properties.isBidiControl
        case .bidiMirrored: properties.isBidiMirrored
        case .caseIgnorable: properties.isCaseIgnorable
        case .cased: properties.isCased
        case .changesWhenCaseFolded: properties.changesWhenCaseFolded
        case .changesWhenCaseMapped: properties.changesWhenCaseMapped
        case .changesWhenLowercased: properties.changesWhenLowercased
        case .changesWhenNFKCCaseFolded: properties.changesWhenNFKCCaseFolded
        case .changesWhenTitlecased: properties.changesWhenTitlecased
        case .changesWhenUppercased: properties.changesWhenUppercased
        case .dash: properties.isDash
        case .defaultIgnorableCodePoint: properties.isDefaultIgnorableCodePoint
        case .deprecated: properties.isDeprecated
        case .diacritic: properties.isDiacritic
        case .emoji: properties.isEmoji
        case .emojiModifier: properties.isEmojiModifier
        case .emojiModifierBase: properties.isEmojiModifierBase
        case .emojiPresentation: properties.isEmojiPresentation
        case .extender: properties.isExtender
        case .graphemeBase: properties.isGraphemeBase
        case .graphemeExtend: properties.isGraphemeExtend
        case .hexDigit: properties.isHexDigit
        case .idsBinaryOperator: properties.isIDSBinaryOperator
        case .idsTrinaryOperator: properties.isIDSTrinaryOperator
        case .idContinue: properties.isIDContinue
        case .idStart: properties.isIDStart
        case .ideographic: properties.isIdeographic
        case .joinControl: properties.isJoinControl
        case .logicalOrderException: properties.isLogicalOrderException
        case .lowercase: properties.isLowercase
        case .math: properties.isMath
        case .noncharacterCodePoint: properties.isNoncharacterCodePoint
        case .patternSyntax: properties.isPatternSyntax
        case .patternWhiteSpace: properties.isPatternWhitespace
        case .quotationMark: properties.isQuotationMark
        case .radical: properties.isRadical
        case .sentenceTerminal: properties.isSentenceTerminal
        case .softDotted: properties.isSoftDotted
        case .terminalPunctuation: properties.isTerminalPunctuation
        case .unifiedIdeograph: properties.isUnifiedIdeograph
        case .uppercase: properties.isUppercase
        case .variationSelector: properties.isVariationSelector
        case .whiteSpace: properties.isWhitespace
        case .xidContinue: properties.isXIDContinue
        case .xidStart: properties.isXIDStart
        }
    }

    /// The canonical names and short aliases ECMA-262's table of binary properties gives.
    static let named: [String: BinaryUnicodeProperty] = {
        let entries: [([String], BinaryUnicodeProperty)] = [
            (["Any"], .any), (["ASCII"], .ascii), (["ASCII_Hex_Digit", "AHex"], .asciiHexDigit),
            (["Alphabetic", "Alpha"], .alphabetic), (["Assigned"], .assigned),
            (["Bidi_Control", "Bidi_C"], .bidiControl), (["Bidi_Mirrored", "Bidi_M"], .bidiMirrored),
            (["Case_Ignorable", "CI"], .caseIgnorable), (["Cased"], .cased),
            (["Changes_When_Casefolded", "CWCF"], .changesWhenCaseFolded),
            (["Changes_When_Casemapped", "CWCM"], .changesWhenCaseMapped),
            (["Changes_When_Lowercased", "CWL"], .changesWhenLowercased),
            (["Changes_When_NFKC_Casefolded", "CWKCF"], .changesWhenNFKCCaseFolded),
            (["Changes_When_Titlecased", "CWT"], .changesWhenTitlecased),
            (["Changes_When_Uppercased", "CWU"], .changesWhenUppercased), (["Dash"], .dash),
            (["Default_Ignorable_Code_Point", "DI"], .defaultIgnorableCodePoint),
            (["Deprecated", "Dep"], .deprecated), (["Diacritic", "Dia"], .diacritic), (["Emoji"], .emoji),
            (["Emoji_Modifier", "EMod"], .emojiModifier), (["Emoji_Modifier_Base", "EBase"], .emojiModifierBase),
            (["Emoji_Presentation", "EPres"], .emojiPresentation), (["Extender", "Ext"], .extender),
            (["Grapheme_Base", "Gr_Base"], .graphemeBase), (["Grapheme_Extend", "Gr_Ext"], .graphemeExtend),
            (["Hex_Digit", "Hex"], .hexDigit), (["IDS_Binary_Operator", "IDSB"], .idsBinaryOperator),
            (["IDS_Trinary_Operator", "IDST"], .idsTrinaryOperator), (["ID_Continue", "IDC"], .idContinue),
            (["ID_Start", "IDS"], .idStart), (["Ideographic", "Ideo"], .ideographic),
            (["Join_Control", "Join_C"], .joinControl), (["Logical_Order_Exception", "LOE"], .logicalOrderException),
            (["Lowercase", "Lower"], .lowercase), (["Math"], .math),
            (["Noncharacter_Code_Point", "NChar"], .noncharacterCodePoint),
            (["Pattern_Syntax", "Pat_Syn"], .patternSyntax), (["Pattern_White_Space", "Pat_WS"], .patternWhiteSpace),
            (["Quotation_Mark", "QMark"], .quotationMark), (["Radical"], .radical),
            (["Sentence_Terminal", "STerm"], .sentenceTerminal), (["Soft_Dotted", "SD"], .softDotted),
            (["Terminal_Punctuation", "Term"], .terminalPunctuation),
            (["Unified_Ideograph", "UIdeo"], .unifiedIdeograph), (["Uppercase", "Upper"], .uppercase),
            (["Variation_Selector", "VS"], .variationSelector), (["White_Space", "space"], .whiteSpace),
            (["XID_Continue", "XIDC"], .xidContinue), (["XID_Start", "XIDS"], .xidStart),
        ]
        var table: [String: BinaryUnicodeProperty] = [:]
        for (names, property) in entries {
            for name in names {
                table[name] = property
            }
        }
        return table
    }()
}
