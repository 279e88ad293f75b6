/// Swift member-access chains for resolved JSON pointers.
enum MemberChain {
    /// The expression for `steps` starting at `root`, and whether it is optional.
    ///
    /// `[.property(issue), .first, .property(code)]` from `body` becomes `body.issue.first?.code` (optional).
    static func expression(_ steps: [IRPathStep], from root: String, rootIsOptional: Bool = false) -> (
        expression: String, isOptional: Bool
    ) {
        var expression = root
        var isOptional = rootIsOptional
        for (index, step) in steps.enumerated() {
            let access = isOptional ? "?." : "."
            switch step {
            case .property(let property):
                expression += access + Emit.name(property.swiftName)
                if property.isOptional { isOptional = true }
                // A chain ends at a named type only where the resolver took an enum for its string (an error code).
                if index == steps.count - 1, case .named = property.type {
                    expression += (isOptional ? "?" : "") + ".rawValue"
                }
            case .first:
                expression += access + "first"
                isOptional = true
            case .each:
                // Chains through every element are split at this step by `everyElement`; on its own, a chain reads
                // the array.
                continue
            }
        }
        return (expression, isOptional)
    }

    /// The array that chains reading every element (`/*`) iterate, and the chains from one element on; nil when the
    /// chains read single values.
    static func everyElement(_ chains: [[IRPathStep]], from root: String) -> (array: String, element: [[IRPathStep]])? {
        guard let first = chains.first, let split = first.firstIndex(where: \.isEach)
        else { return nil }
        let array = expression(Array(first[..<split]), from: root)
        let elements = chains.map { chain in Array(chain.drop { !$0.isEach }.dropFirst()) }
        return (array.isOptional ? "(\(array.expression) ?? [])" : array.expression, elements)
    }

    /// Several chains tried in order with `??`; optional unless the first is not.
    static func firstPresent(_ chains: [[IRPathStep]], from root: String) -> (expression: String, isOptional: Bool)? {
        let parts = chains.map { expression($0, from: root) }
        guard let first = parts.first else { return nil }
        if !first.isOptional { return first }
        var used: [String] = []
        for part in parts {
            used.append(part.expression)
            if !part.isOptional { return (used.joined(separator: " ?? "), false) }
        }
        return (used.joined(separator: " ?? "), true)
    }
}
