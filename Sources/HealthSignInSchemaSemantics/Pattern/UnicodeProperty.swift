/// A Unicode property a `\p{...}` or `\P{...}` escape names, answered from the standard library's Unicode data.
///
/// Only properties the standard library can answer exactly are here; any other name is a syntax error rather
/// than a guess, so a pattern never matches differently from what its author wrote.
enum UnicodeProperty: Sendable, Hashable {
    /// A union of general categories, as a bit mask over `GeneralCategoryBits`.
    case generalCategory(UInt32)
    case binary(BinaryUnicodeProperty)

    func contains(_ codePoint: UInt32) -> Bool {
        switch self {
        case .generalCategory(let mask):
            return mask & GeneralCategoryBits.bit(of: codePoint) != 0
        case .binary(let property):
            return property.contains(codePoint)
        }
    }

    /// Reads the text between the braces of `\p{...}`.
    static func named(_ text: String) -> Result<UnicodeProperty, UnicodePropertyLookupError> {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        if parts.count == 2 {
            let name = String(parts[0])
            let value = String(parts[1])
            switch name {
            case "General_Category", "gc":
                guard let mask = GeneralCategoryBits.named[value] else { return .failure(.unknownValue(value)) }
                return .success(.generalCategory(mask))
            case "Script", "sc", "Script_Extensions", "scx":
                return .failure(.unsupported(name))
            default:
                return .failure(.unknownName(name))
            }
        }
        if let mask = GeneralCategoryBits.named[text] {
            return .success(.generalCategory(mask))
        }
        if let property = BinaryUnicodeProperty.named[text] {
            return .success(.binary(property))
        }
        return .failure(.unknownName(text))
    }
}

/// Why a property escape's text names nothing this engine can answer.
enum UnicodePropertyLookupError: Error {
    case unknownName(String)
    case unknownValue(String)
    case unsupported(String)

    var reason: String {
        switch self {
        case .unknownName(let name): "unknown Unicode property \(name)"
        case .unknownValue(let value): "unknown General_Category value \(value)"
        case .unsupported(let name): "unsupported Unicode property \(name)"
        }
    }
}

/// A property escape inside a set: `\p{...}` or, when `negated`, `\P{...}`.
struct UnicodePropertyTerm: Sendable, Hashable {
    let property: UnicodeProperty
    let negated: Bool

    func contains(_ codePoint: UInt32) -> Bool {
        property.contains(codePoint) != negated
    }
}

/// General categories as bits, so a grouping such as `L` or `P` is one mask test.
enum GeneralCategoryBits {
    static func bit(of codePoint: UInt32) -> UInt32 {
        // Surrogate code points have no scalar; they are category Cs.
        guard let scalar = Unicode.Scalar(codePoint) else { return 1 << 27 }
        return 1 << index(of: scalar.properties.generalCategory)
    }

    private static func index(of category: Unicode.GeneralCategory) -> UInt32 {
        switch category {
        case .uppercaseLetter: 0
        case .lowercaseLetter: 1
        case .titlecaseLetter: 2
        case .modifierLetter: 3
        case .otherLetter: 4
        case .nonspacingMark: 5
        case .spacingMark: 6
        case .enclosingMark: 7
        case .decimalNumber: 8
        case .letterNumber: 9
        case .otherNumber: 10
        case .connectorPunctuation: 11
        case .dashPunctuation: 12
        case .openPunctuation: 13
        case .closePunctuation: 14
        case .initialPunctuation: 15
        case .finalPunctuation: 16
        case .otherPunctuation: 17
        case .mathSymbol: 18
        case .currencySymbol: 19
        case .modifierSymbol: 20
        case .otherSymbol: 21
        case .spaceSeparator: 22
        case .lineSeparator: 23
        case .paragraphSeparator: 24
        case .control: 25
        case .format: 26
        case .surrogate: 27
        case .privateUse: 28
        case .unassigned: 29
        @unknown default: 29
        }
    }

    /// Every General_Category value and alias ECMA-262 accepts (its table of value aliases), to its mask.
    static let named: [String: UInt32] = {
        let letter: UInt32 = 0b11111
        let mark: UInt32 = 0b111 << 5
        let number: UInt32 = 0b111 << 8
        let punctuation: UInt32 = 0b1111111 << 11
        let symbol: UInt32 = 0b1111 << 18
        let separator: UInt32 = 0b111 << 22
        let other: UInt32 = 0b11111 << 25
        let entries: [([String], UInt32)] = [
            (["L", "Letter"], letter),
            (["LC", "Cased_Letter"], 0b111),
            (["Lu", "Uppercase_Letter"], 1 << 0),
            (["Ll", "Lowercase_Letter"], 1 << 1),
            (["Lt", "Titlecase_Letter"], 1 << 2),
            (["Lm", "Modifier_Letter"], 1 << 3),
            (["Lo", "Other_Letter"], 1 << 4),
            (["M", "Mark", "Combining_Mark"], mark),
            (["Mn", "Nonspacing_Mark"], 1 << 5),
            (["Mc", "Spacing_Mark"], 1 << 6),
            (["Me", "Enclosing_Mark"], 1 << 7),
            (["N", "Number"], number),
            (["Nd", "Decimal_Number", "digit"], 1 << 8),
            (["Nl", "Letter_Number"], 1 << 9),
            (["No", "Other_Number"], 1 << 10),
            (["P", "Punctuation", "punct"], punctuation),
            (["Pc", "Connector_Punctuation"], 1 << 11),
            (["Pd", "Dash_Punctuation"], 1 << 12),
            (["Ps", "Open_Punctuation"], 1 << 13),
            (["Pe", "Close_Punctuation"], 1 << 14),
            (["Pi", "Initial_Punctuation"], 1 << 15),
            (["Pf", "Final_Punctuation"], 1 << 16),
            (["Po", "Other_Punctuation"], 1 << 17),
            (["S", "Symbol"], symbol),
            (["Sm", "Math_Symbol"], 1 << 18),
            (["Sc", "Currency_Symbol"], 1 << 19),
            (["Sk", "Modifier_Symbol"], 1 << 20),
            (["So", "Other_Symbol"], 1 << 21),
            (["Z", "Separator"], separator),
            (["Zs", "Space_Separator"], 1 << 22),
            (["Zl", "Line_Separator"], 1 << 23),
            (["Zp", "Paragraph_Separator"], 1 << 24),
            (["C", "Other"], other),
            (["Cc", "Control", "cntrl"], 1 << 25),
            (["Cf", "Format"], 1 << 26),
            (["Cs", "Surrogate"], 1 << 27),
            (["Co", "Private_Use"], 1 << 28),
            (["Cn", "Unassigned"], 1 << 29),
        ]
        var table: [String: UInt32] = [:]
        for (names, mask) in entries {
            for name in names {
                table[name] = mask
            }
        }
        return table
    }()
}
