/// One of the JSON Schema 2020-12 assertions the schema language supports on a value, with its meaning: the generator
/// checks a schema's own `default` with it and generated `validate()` methods check values with it, so the two never
/// disagree.
public enum SchemaKeyword: Sendable, Hashable {
    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` and `multipleOf`, with the bound's JSON text
    /// (compared and divided by its decimal value).
    case minimum(String)
    case maximum(String)
    case exclusiveMinimum(String)
    case exclusiveMaximum(String)
    case multipleOf(String)
    /// `minLength`, `maxLength`, in Unicode code points as JSON Schema counts.
    case minLength(Int)
    case maxLength(Int)
    /// `pattern`, an ECMA-262 regular expression that matches anywhere in the string.
    case pattern(String)
    /// `minItems`, `maxItems`, `uniqueItems`.
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems

    /// What a value must be to satisfy the keyword, e.g. `at least 1`: the wording of every error that names it.
    public var requirement: String {
        switch self {
        case .minimum(let bound): return "at least \(bound)"
        case .maximum(let bound): return "at most \(bound)"
        case .exclusiveMinimum(let bound): return "more than \(bound)"
        case .exclusiveMaximum(let bound): return "less than \(bound)"
        case .multipleOf(let divisor): return "a multiple of \(divisor)"
        case .minLength(let count): return "at least \(count) characters long"
        case .maxLength(let count): return "at most \(count) characters long"
        case .pattern(let pattern): return "a match of the pattern \(pattern)"
        case .minItems(let count): return "at least \(count) items"
        case .maxItems(let count): return "at most \(count) items"
        case .uniqueItems: return "free of repeated items"
        }
    }

    /// Whether `number` satisfies the keyword; true for a keyword about strings or arrays, which JSON Schema does not
    /// apply to numbers. A bound that is not a JSON number is satisfied by nothing.
    public func accepts(number: DecimalNumber) -> Bool {
        let holds: (DecimalNumber, DecimalNumber) -> Bool
        let bound: String
        switch self {
        case .minimum(let text): (bound, holds) = (text, { $0 >= $1 })
        case .maximum(let text): (bound, holds) = (text, { $0 <= $1 })
        case .exclusiveMinimum(let text): (bound, holds) = (text, { $0 > $1 })
        case .exclusiveMaximum(let text): (bound, holds) = (text, { $0 < $1 })
        case .multipleOf(let text): (bound, holds) = (text, { $0.isMultiple(of: $1) })
        default: return true
        }
        guard let limit = DecimalNumber(jsonText: bound) else { return false }
        return holds(number, limit)
    }

    /// Whether `string` satisfies the keyword; true for a keyword about numbers or arrays. `compiled` is the keyword's
    /// pattern already compiled, for a caller that keeps them.
    ///
    /// - Throws: `ECMAPatternError` when the pattern does not compile.
    public func accepts(string: String, compiled: ECMAPattern? = nil) throws(ECMAPatternError) -> Bool {
        switch self {
        case .minLength(let count): return CodePoints.count(string) >= count
        case .maxLength(let count): return CodePoints.count(string) <= count
        case .pattern(let source):
            if let compiled { return try compiled.matches(string) }
            return try ECMAPattern(source).matches(string)
        default: return true
        }
    }

    /// Whether an array of `count` items satisfies the keyword's bound on the count; true for every other keyword
    /// (`uniqueItems` looks at the items: ``SchemaInstance/firstRepeat(in:)``).
    public func accepts(itemCount count: Int) -> Bool {
        switch self {
        case .minItems(let bound): return count >= bound
        case .maxItems(let bound): return count <= bound
        default: return true
        }
    }

    /// How `instance` breaks the keyword, as the words that follow "is not", e.g. `at least 1` or
    /// `free of repeated items (item 2)`; nil when it satisfies it or the keyword does not apply to its JSON type.
    public func violation<Instance: SchemaInstance>(by instance: Instance) -> String? {
        switch instance.schemaShape {
        case .number(let text):
            guard let number = DecimalNumber(jsonText: text) else { return requirement }
            return accepts(number: number) ? nil : requirement
        case .string(let text):
            return ((try? accepts(string: text)) ?? false) ? nil : requirement
        case .array(let items):
            if case .uniqueItems = self {
                return Instance.firstRepeat(in: items).map { "\(requirement) (item \($0))" }
            }
            return accepts(itemCount: items.count) ? nil : requirement
        case .null, .bool, .object:
            return nil
        }
    }
}
