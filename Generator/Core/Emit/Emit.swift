/// Spellings shared by the emitters.
enum Emit {
    /// `- Remark: Generated from Schemas/…json#/pointer`
    static func remark(_ provenance: Provenance) -> String {
        "- Remark: Generated from \(provenance.text)"
    }

    /// A member name with backticks when it is a keyword.
    static func name(_ name: String) -> String { Naming.escaped(name) }

    /// `name` as an argument label at a call site, where only `inout`, `var` and `let` need backticks (Swift warns
    /// about any other escaped keyword there).
    static func argumentLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
    }

    /// A dictionary literal of header fields, `["Name": "value"]`, or `[:]` for none.
    static func headersLiteral(_ headers: [HTTPHeaderField]) -> String {
        guard !headers.isEmpty else { return "[:]" }
        let entries: [String] = headers.map { SwiftLiteral.string($0.name) + ": " + SwiftLiteral.string($0.value) }
        return "[" + entries.joined(separator: ", ") + "]"
    }

    /// The expression that gives a scalar's wire text: a string is its own text.
    static func wireText(_ expression: String, _ type: IRTypeRef, types: IRTypeTable) -> String {
        if case .scalar(.string, _) = types.resolved(type) { return expression }
        return expression + ".wireText"
    }

    /// Statements that pick the first variant whose read succeeds, in schema order; the last one's error propagates.
    ///
    /// ```swift
    /// if let value = try? <read first> {
    ///     self = .first(value)
    ///     return
    /// }
    /// self = .last(try <read last>)
    /// ```
    static func firstFittingVariant(of union: IRUnion, into p: inout SwiftPrinter, read: (IRTypeRef) -> String) {
        for (index, variant) in union.variants.enumerated() {
            let expression = read(variant.type)
            if index == union.variants.count - 1 {
                p.line("self = .\(name(variant.caseName))(try \(expression))")
            } else {
                p.block("if let value = try? \(expression)") { p in
                    p.line("self = .\(name(variant.caseName))(value)")
                    p.line("return")
                }
            }
        }
    }

    /// An open enum's `init(rawValue:)`: a lookup in a static table of the known values, falling back to
    /// `unknown(rawValue)`. A table, unlike a `switch` over string patterns, type-checks in constant time however
    /// many values a code table lists.
    ///
    /// - Parameter cases: each known value's Swift literal and case name, in schema order.
    static func rawValueInitializer(
        raw: String, cases: [(literal: String, caseName: String)], doc: String, listed: Bool = false,
        into p: inout SwiftPrinter
    ) {
        if cases.isEmpty {
            p.line("private static let known: [\(raw): Self] = [:]")
        } else {
            p.entries(
                "private static let known: [\(raw): Self] = [", cases.map { "\($0.literal): .\(name($0.caseName))" },
                "]")
        }
        p.blank()
        p.doc(doc)
        guard listed else {
            p.block("public init(rawValue: \(raw))") { p in
                p.line("self = Self.known[rawValue] ?? .unknown(rawValue)")
            }
            return
        }
        // Strings name a case only with the same code points: JSON Schema compares them so.
        p.block("public init(rawValue: \(raw))") { p in
            p.line("self = Self.listedCase(rawValue, in: Self.known) ?? .unknown(rawValue)")
        }
        p.blank()
        p.doc("Whether the value is one the schema lists; an unlisted one decodes, but `validate()` refuses it.")
        p.line("public var isListed: Swift.Bool { Self.listedCase(rawValue, in: Self.known) != nil }")
    }
}
