/// Emits the public declarations of generated types: structs, open enums, unions and type aliases.
enum DeclarationEmitter {
    /// Emits `type`, wrapped in `extension <Parent>` when it is nested, then its nested types.
    ///
    /// For an object it prints
    /// ```swift
    /// extension GetAuthorizedPeople.Request {
    ///     /// Which page to return.
    ///     public struct Parameters: Sendable, Hashable {
    ///         public let personIDCursor: Foundation.UUID?
    ///         public init(personIDCursor: Foundation.UUID? = nil) { … }
    ///     }
    /// }
    /// ```
    static func emit(_ type: IRType, into printer: inout SwiftPrinter) {
        printer.blank()
        if let parent = type.parent {
            printer.block("extension \(parent)") { p in declaration(type, into: &p) }
        } else {
            declaration(type, into: &printer)
        }
        for nested in type.nestedTypes { emit(nested, into: &printer) }
    }

    private static func declaration(_ type: IRType, into p: inout SwiftPrinter) {
        p.doc(type.documentation, remarks: [Emit.remark(type.provenance)])
        switch type.kind {
        case .object(let properties): structDeclaration(type, properties: properties, into: &p)
        case .enumeration(let cases): enumDeclaration(type, cases: cases, into: &p)
        case .union(let union): unionDeclaration(type, union: union, into: &p)
        case .alias(let target): p.line("public typealias \(type.name) = \(target.swiftType)")
        }
    }

    /// `public struct Name: Sendable, Hashable { let …; init(…) }`
    private static func structDeclaration(_ type: IRType, properties: [IRProperty], into p: inout SwiftPrinter) {
        let stored = properties.filter(\.isStored)
        p.block("public struct \(type.name): Sendable, Hashable") { p in
            for property in stored {
                // The struct's remark locates its properties; an undocumented property shows where it comes from.
                p.doc(property.documentation ?? Emit.remark(property.provenance))
                p.line("public let \(Emit.name(property.swiftName)): \(property.swiftType)")
                p.blank()
            }
            let extra = type.extraMembers.map { "[Swift.String: \($0.swiftType)]" }
            if let extra {
                p.doc("The members beyond the schema's properties, by key, as received and to be sent.")
                p.line("public let additionalProperties: \(extra)")
                p.blank()
            }
            // Each parameter is the property of the same name, documented above.
            p.doc(stored.isEmpty ? "Creates the value; every field is fixed by the schema." : "Creates a value from its properties.")
            if stored.isEmpty, extra == nil {
                p.line("public init() {}")
                return
            }
            let parameters = stored.map { property -> String in
                var parameter = "\(Emit.name(property.swiftName)): \(property.swiftType)"
                if let value = property.defaultExpression {
                    parameter += " = \(value)"
                } else if property.isOptional {
                    parameter += " = nil"
                } else if property.isArrayDefaultingToEmpty {
                    parameter += " = []"
                } else if property.type.namedType?.hasEmptyInitializer == true {
                    parameter += " = .init()"
                }
                return parameter
            } + (extra.map { ["additionalProperties: \($0) = [:]"] } ?? [])
            p.listBlock("public init(", parameters, ")") { p in
                for property in stored { p.line("self.\(Emit.name(property.swiftName)) = \(Emit.name(property.swiftName))") }
                if extra != nil { p.line("self.additionalProperties = additionalProperties") }
            }
            ValidationEmitter.validateMethod(type, properties: stored, into: &p)
        }
    }

    /// An open enum: one case per known value plus `unknown(String)`, conforming to `OpenEnum`.
    private static func enumDeclaration(_ type: IRType, cases: [IREnumCase], into p: inout SwiftPrinter) {
        p.block("public enum \(type.name): SDKRuntime.OpenEnum") { p in
            for enumCase in cases {
                p.doc("`\(enumCase.wireValue)`")
                p.line("case \(Emit.name(enumCase.swiftName))")
            }
            p.doc("A value this version of the schema does not list.")
            p.line("case unknown(Swift.String)")
            p.blank()
            Emit.rawValueInitializer(
                raw: "Swift.String", cases: cases.map { (SwiftLiteral.string($0.wireValue), $0.swiftName) },
                doc: "The case for a wire value; values the schema does not list become ``unknown(_:)``.", into: &p
            )
            p.blank()
            p.doc("The wire value.")
            p.block("public var rawValue: Swift.String") { p in
                p.switchBlock("self") { p in
                    for enumCase in cases {
                        p.line("case .\(Emit.name(enumCase.swiftName)): return \(SwiftLiteral.string(enumCase.wireValue))")
                    }
                    p.line("case .unknown(let value): return value")
                }
            }
        }
    }

    /// An enum with one case per `oneOf` variant.
    private static func unionDeclaration(_ type: IRType, union: IRUnion, into p: inout SwiftPrinter) {
        p.block("public enum \(type.name): Sendable, Hashable") { p in
            for variant in union.variants {
                if let tag = variant.discriminatorValue {
                    p.doc("`\(union.discriminator ?? "")` = `\(tag)`")
                } else {
                    p.doc("The value is a `\(variant.type.swiftType)`.")
                }
                p.line("case \(Emit.name(variant.caseName))(\(variant.type.swiftType))")
            }
        }
    }
}
