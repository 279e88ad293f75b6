import Foundation

/// A validation keyword added, removed or changed, and which way: tighter refuses values the old version accepted,
/// looser accepts values the old version refused.
struct ConstraintChange: Equatable {
    /// Whether the change refuses some value the old version accepted (otherwise it only accepts more).
    let tightened: Bool
    /// The keyword and its values before and after.
    let text: String

    /// The changes from `before` to `after`, one per keyword.
    static func changes(from before: [IRCheck], to after: [IRCheck]) -> [ConstraintChange] {
        var result: [ConstraintChange] = []
        let keywords = Set(before.map(\.keyword) + after.map(\.keyword)).sorted()
        for keyword in keywords {
            let old = before.filter { $0.keyword == keyword }
            let new = after.filter { $0.keyword == keyword }
            guard old != new else { continue }
            switch (old.first, new.first) {
            case (nil, let added?):
                result.append(ConstraintChange(tightened: true, text: "\(added.text) added"))
            case (let removed?, nil):
                result.append(ConstraintChange(tightened: false, text: "\(removed.text) removed"))
            case (let a?, let b?):
                result.append(ConstraintChange(tightened: tighter(a, b) ?? true, text: "\(a.text) → \(b.text)"))
            default:
                continue
            }
        }
        return result
    }

    /// Whether `after` is stricter than `before` (nil when neither contains the other, as for two patterns).
    private static func tighter(_ before: IRCheck, _ after: IRCheck) -> Bool? {
        func number(_ text: String) -> Decimal? { Decimal(string: text) }
        switch (before, after) {
        case (.minimum(let a), .minimum(let b)), (.exclusiveMinimum(let a), .exclusiveMinimum(let b)):
            return number(a).flatMap { a in number(b).map { b in b > a } }
        case (.maximum(let a), .maximum(let b)), (.exclusiveMaximum(let a), .exclusiveMaximum(let b)):
            return number(a).flatMap { a in number(b).map { b in b < a } }
        case (.multipleOf(let a), .multipleOf(let b)):
            guard let a = number(a), let b = number(b), a != 0, b != 0 else { return nil }
            // Every multiple of b is one of a when b is a multiple of a: only then is the change purely looser or
            // purely tighter.
            if Self.isMultiple(b, of: a) { return true }
            if Self.isMultiple(a, of: b) { return false }
            return nil
        case (.minLength(let a), .minLength(let b)), (.minItems(let a), .minItems(let b)):
            return b > a
        case (.maxLength(let a), .maxLength(let b)), (.maxItems(let a), .maxItems(let b)):
            return b < a
        default:
            return nil
        }
    }

    private static func isMultiple(_ value: Decimal, of divisor: Decimal) -> Bool {
        var quotient = value / divisor
        var rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, 0, .plain)
        return rounded == quotient
    }
}

extension IRCheck {
    /// The keyword's name.
    var keyword: String {
        switch self {
        case .minimum: return "minimum"
        case .maximum: return "maximum"
        case .exclusiveMinimum: return "exclusiveMinimum"
        case .exclusiveMaximum: return "exclusiveMaximum"
        case .multipleOf: return "multipleOf"
        case .minLength: return "minLength"
        case .maxLength: return "maxLength"
        case .pattern: return "pattern"
        case .minItems: return "minItems"
        case .maxItems: return "maxItems"
        case .uniqueItems: return "uniqueItems"
        }
    }

    /// The keyword with its value, as a schema writes it.
    var text: String {
        switch self {
        case .minimum(let value), .maximum(let value), .exclusiveMinimum(let value), .exclusiveMaximum(let value),
            .multipleOf(let value):
            return "\"\(keyword)\": \(value)"
        case .minLength(let value), .maxLength(let value), .minItems(let value), .maxItems(let value):
            return "\"\(keyword)\": \(value)"
        case .pattern(let value): return "\"pattern\": \"\(value)\""
        case .uniqueItems: return "\"uniqueItems\": true"
        }
    }
}
