import Foundation

/// Follows a JSON pointer (`/response-results/person-info`) through resolved types to a chain of Swift members.
struct PointerResolver {
    /// The types the pointer walks through.
    let table: IRTypeTable
    var diagnostics = Diagnostics()

    /// The steps from `type` to the value `pointer` names, or nil (with a diagnostic) when it names nothing.
    ///
    /// - Parameters:
    ///   - allowFirst: whether `/0` may select an array's first element (error code and message pointers).
    ///   - allowEach: whether `/*` may select every element of one array (error code pointers).
    mutating func resolve(_ pointer: Located<String>, from type: IRType, allowFirst: Bool, allowEach: Bool = false)
        -> [IRPathStep]?
    {
        guard pointer.value.hasPrefix("/") else {
            diagnostics.error(
                "the pointer \"\(pointer.value)\" does not start with \"/\", expected a JSON pointer",
                at: pointer.location, pointer: pointer.pointer)
            return nil
        }
        let tokens = pointer.value.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        var steps: [IRPathStep] = []
        var current = IRTypeRef.named(type.qualifiedName)
        var walked = ""
        for token in tokens {
            switch table.resolved(current) {
            case .array(let element) where allowFirst && token == "0":
                steps.append(.first)
                current = element
            case .array(let element) where allowEach && token == "*":
                if steps.contains(where: \.isEach) {
                    diagnostics.error(
                        "the pointer \"\(pointer.value)\" has \"*\" twice, expected it on one array only",
                        at: pointer.location, pointer: pointer.pointer)
                    return nil
                }
                steps.append(.each)
                current = element
            case .named(let name):
                guard let owner = table[name], case .object(let properties) = owner.kind,
                    let property = properties.first(where: { $0.wireName == token && $0.isStored })
                else {
                    let known = (table[name]?.storedProperties ?? []).map { "\"\($0.wireName)\"" }
                        .joined(separator: ", ")
                    diagnostics.error(
                        "the pointer \"\(pointer.value)\" names \"\(token)\", which \(name.simple) does not have, expected one of \(known.isEmpty ? "no fields" : known)",
                        at: pointer.location, pointer: pointer.pointer)
                    return nil
                }
                steps.append(.property(property))
                current = property.type
            default:
                diagnostics.error(
                    "the pointer \"\(pointer.value)\" continues past \(walked.isEmpty ? "the start" : walked) with \"\(token)\", expected it to stop at a \(allowEach ? "value (or use /0 for an array's first element, /* for every element)" : allowFirst ? "value (or use /0 for an array's first element)" : "value")",
                    at: pointer.location, pointer: pointer.pointer)
                return nil
            }
            walked += "/" + token
        }
        return steps
    }

    /// The pointer that `steps` were resolved from, e.g. `/issue/*/code`.
    static func spelling(_ steps: ArraySlice<IRPathStep>) -> String {
        steps.map { step in
            switch step {
            case .property(let property): return "/" + property.wireName
            case .first: return "/0"
            case .each: return "/*"
            }
        }.joined()
    }

    /// A phrase for what a path ends at, for diagnostics.
    func describeEnd(_ path: [IRPathStep]) -> String {
        switch path.last {
        case .property(let property)?: return "\"\(property.wireName)\" (\(property.swiftType))"
        case .first?: return "an array element"
        case .each?: return "every array element"
        case nil: return "the whole document"
        }
    }
}
