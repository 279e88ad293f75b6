/// Emits the public declarations of generated types: structs, open enums, unions and type aliases, each with the
/// codec conformances its use needs declared on it.
struct DeclarationEmitter {
    /// The family's types, where nested types and references are found.
    let types: IRTypeTable
    /// The wire formats whose conformances types declare.
    let codecs: [any CodecEmitter]

    /// Emits `type` with the types nested in it declared inside its body.
    ///
    /// For an object it prints
    /// ```swift
    /// /// Which page to return.
    /// public struct Parameters: Sendable, Equatable, HealthSignInCore.XMLEncodable {
    ///     public let personIDCursor: Foundation.UUID?
    ///     public init(personIDCursor: Foundation.UUID? = nil) { … }
    ///     public func writeXML(_ writer: inout HealthSignInCore.XMLWriter, context: HealthSignInCore.EncodingContext) throws { … }
    /// }
    /// ```
    func emit(_ type: IRType, into p: inout SwiftPrinter) {
        p.blank()
        // A documented type declared inside another is found through its parent, whose remark names the schema.
        if type.parent != nil, let documentation = type.documentation, !documentation.isEmpty {
            p.doc(documentation)
        } else {
            p.doc(type.documentation, remarks: [Emit.remark(type.provenance)])
        }
        switch type.kind {
        case .object(let properties): structDeclaration(type, properties: properties, into: &p)
        case .enumeration(let cases): enumDeclaration(type, cases: cases, into: &p)
        case .union(let union): unionDeclaration(type, union: union, into: &p)
        case .alias(let target):
            p.line("public typealias \(type.name) = \(target.swiftType)")
            // A type alias has no body, so what would be nested in it goes in an extension of its target's name.
            if !type.nestedTypes.isEmpty {
                p.blank()
                p.block("extension \(type.qualifiedName)") { p in nested(type, into: &p) }
            }
        }
    }

    /// The types nested in `type`, each after a blank line.
    private func nested(_ type: IRType, into p: inout SwiftPrinter) {
        for nested in types.types(type.nestedTypes) { emit(nested, into: &p) }
    }

    /// The codecs whose conformances a declaration itself states (the others are in ``runtimeConformances``).
    private var declaredCodecs: [any CodecEmitter] { codecs.filter { !$0.isRuntimeOnly } }

    /// `Sendable, Equatable`, the codec protocols of `type` that its declaration states, and `SchemaValidating` when
    /// it has a `validate(at:)`.
    private func conformances(of type: IRType) -> String {
        let codecs = declaredCodecs.flatMap { $0.conformances(of: type, directions: $0.directions(of: type)) }
        let validating = ValidationEmitter(types: types).hasValidateMethod(type)
        return (["Sendable", "Equatable"] + codecs + (validating ? ["HealthSignInCore.SchemaValidating"] : []))
            .joined(separator: ", ")
    }

    /// The members implementing the codec protocols of `type` that its declaration states.
    private func codecMembers(of type: IRType, into p: inout SwiftPrinter) {
        for codec in declaredCodecs {
            codec.members(of: type, directions: codec.directions(of: type), delegating: false, into: &p)
        }
    }

    /// The `@_spi(Generated)` extensions conforming `type` to the runtime's codec protocols, at file level, one after
    /// another (the file puts one blank line before the first).
    func runtimeConformances(of type: IRType, into p: inout SwiftPrinter) {
        for codec in codecs where codec.isRuntimeOnly {
            codec.conformanceExtension(
                of: type, directions: codec.directions(of: type), delegating: false, spaced: false, into: &p)
        }
    }

    /// `public struct Name: Sendable, Equatable { var …; init(…) }`: members are variables, so an edit is a copy with
    /// one member set, which keeps every other member and `additionalProperties` as they were.
    private func structDeclaration(_ type: IRType, properties: [IRProperty], into p: inout SwiftPrinter) {
        let stored = properties.filter(\.isStored)
        // An extending type reads its base's members through itself: `response.accessToken`.
        if type.base != nil { p.line("@dynamicMemberLookup") }
        p.block("public struct \(type.name): \(conformances(of: type))") { p in
            for property in stored {
                // The struct's remark locates its properties; an undocumented property shows where it comes from.
                p.doc(property.documentation ?? Emit.remark(property.provenance))
                let wrapper = property.isIndirect ? "@HealthSignInCore.Indirect " : ""
                p.line("\(wrapper)public var \(Emit.name(property.swiftName)): \(property.swiftType)")
            }
            let extra = type.extraMembers.map { "[Swift.String: \($0.swiftType)]" }
            if let extra {
                p.doc("The members beyond the schema's properties, by key, as received and to be sent.")
                p.line("public var additionalProperties: \(extra)")
                if type.needsHTTPFields {
                    p.doc(
                        "The wire names of the properties; members of `additionalProperties` by these names are not sent."
                    )
                    p.call(
                        "public static let propertyNames: Swift.Set<Swift.String> = [",
                        properties.map { SwiftLiteral.string($0.wireName) }, "]")
                }
            }
            // The initializer follows its properties without a blank line: each parameter is the property of the
            // same name, documented just above.
            p.doc(
                stored.isEmpty
                    ? "Creates the value; every field is fixed by the schema." : "Creates a value from its properties.")
            if stored.isEmpty, extra == nil {
                p.line("public init() {}")
                codecMembers(of: type, into: &p)
                nested(type, into: &p)
                return
            }
            let parameters =
                stored.map { property -> String in
                    var parameter = "\(Emit.name(property.swiftName)): \(property.swiftType)"
                    if let value = property.defaultExpression {
                        parameter += " = \(value)"
                    } else if property.isOptional {
                        parameter += " = nil"
                    } else if property.isArrayDefaultingToEmpty {
                        parameter += " = []"
                    } else if let nested = types.namedType(property.type), types.hasEmptyInitializer(nested) {
                        parameter += " = .init()"
                    }
                    return parameter
                } + (extra.map { ["additionalProperties: \($0) = [:]"] } ?? [])
            p.memberwiseInitializer(
                "public init(", parameters, ")",
                names: stored.map { Emit.name($0.swiftName) } + (extra == nil ? [] : ["additionalProperties"]))
            codecMembers(of: type, into: &p)
            if let base = type.base { extensionMembers(of: type, base: base, stored: stored, into: &p) }
            ValidationEmitter(types: types).validateMethod(type, into: &p)
            nested(type, into: &p)
        }
    }

    /// What a type extending another family's `base` adds: reading the base's members through itself, and the
    /// members neither names.
    private func extensionMembers(of type: IRType, base: IRTypeName, stored: [IRProperty], into p: inout SwiftPrinter) {
        let holder = Emit.name(Naming.lowerCamel(base.simple))
        p.doc("The member of `\(base.qualified)` at `member`.")
        p.block("public subscript<Value>(dynamicMember member: Swift.KeyPath<\(base.qualified), Value>) -> Value") {
            p in p.line("\(holder)[keyPath: member]")
        }
        guard let extra = types[base]?.extraMembers else { return }
        let own = stored.filter { !$0.holdsBase }.flatMap { [$0.wireName] + $0.aliases }
        p.doc("The members neither this type nor `\(base.qualified)` names, by key, as received.")
        p.block("public var additionalProperties: [Swift.String: \(extra.swiftType)]") { p in
            p.call("let own: Swift.Set<Swift.String> = [", own.map(SwiftLiteral.string), "]")
            p.line("return \(holder).additionalProperties.filter { !own.contains($0.key) }")
        }
    }

    /// An open enum: one case per known value plus `unknown(String)`, conforming to `OpenEnum`.
    private func enumDeclaration(_ type: IRType, cases: [IREnumCase], into p: inout SwiftPrinter) {
        p.block("public enum \(type.name): HealthSignInCore.OpenEnum") { p in
            for enumCase in cases {
                p.doc("`\(enumCase.wireValue)`")
                p.line("case \(Emit.name(enumCase.swiftName))")
            }
            p.doc("A value this version of the schema does not list.")
            p.line("case unknown(Swift.String)")
            p.blank()
            Emit.rawValueInitializer(
                raw: "Swift.String", cases: cases.map { (SwiftLiteral.string($0.wireValue), $0.swiftName) },
                doc: "The case for a wire value; values the schema does not list become ``unknown(_:)``.", listed: true,
                into: &p
            )
            p.blank()
            p.doc("The wire value.")
            p.block("public var rawValue: Swift.String") { p in
                p.switchBlock("self") { p in
                    for enumCase in cases {
                        p.line(
                            "case .\(Emit.name(enumCase.swiftName)): return \(SwiftLiteral.string(enumCase.wireValue))")
                    }
                    p.line("case .unknown(let value): return value")
                }
            }
            nested(type, into: &p)
        }
    }

    /// An enum with one case per `oneOf` variant.
    ///
    /// A variant that is a struct is stored out of line (`indirect`): copying or destroying the union is then one
    /// reference count, where inline payloads made every file that copies it hold code for each variant's fields (a
    /// union of FHIR's 146 resources made 390 KB of machine code in each file that used it).
    private func unionDeclaration(_ type: IRType, union: IRUnion, into p: inout SwiftPrinter) {
        p.block("public enum \(type.name): \(conformances(of: type))") { p in
            for variant in union.variants {
                if let tag = variant.discriminatorValue {
                    p.doc("`\(union.discriminator ?? "")` = `\(tag)`")
                } else {
                    p.doc("The value is a `\(variant.type.swiftType)`.")
                }
                let isStruct: Bool = {
                    if case .object? = types.namedType(variant.type)?.kind { return true } else { return false }
                }()
                p.line("\(isStruct ? "indirect " : "")case \(Emit.name(variant.caseName))(\(variant.type.swiftType))")
            }
            ValidationEmitter(types: types).validateMethod(type, into: &p)
            codecMembers(of: type, into: &p)
            nested(type, into: &p)
        }
    }
}
