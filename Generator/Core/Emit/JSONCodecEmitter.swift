/// The JSON side of a type's coding: `Decodable` for what is read, `Encodable` for what is written. Keys are string
/// literals of `SDKRuntime.AnyCodingKey`, so no coding-key enum is declared per type.
///
/// For `OAuth2ErrorBody`, which is only read, the members are
/// ```swift
/// public init(from decoder: any Decoder) throws {
///     let container = try decoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)
///     self.error = try container.decode(Swift.String.self, forKey: "error")
///     self.errorDescription = try container.decodeIfPresent(Swift.String.self, forKey: "error_description")
/// }
/// ```
///
/// An object's `init(from:)` and `encode(to:)` carry no doc comment of their own: DocC shows the protocol's.
struct JSONCodecEmitter: CodecEmitter {
    /// The family's types, where references are followed.
    let types: IRTypeTable

    var isRuntimeOnly: Bool { false }

    func directions(of type: IRType) -> IRDirections { type.json }

    func conformances(of type: IRType, directions: IRDirections) -> [String] {
        guard type.isCodedAsAValue else { return [] }
        return (directions.contains(.decode) ? ["Decodable"] : []) + (directions.contains(.encode) ? ["Encodable"] : [])
    }

    func members(of type: IRType, directions: IRDirections, delegating: Bool, into p: inout SwiftPrinter) {
        switch type.kind {
        case .object(let properties):
            let keyed = properties.filter { property in
                switch property.storage {
                case .stored, .constant: return !property.holdsBase
                case .bound, .fixed: return false
                }
            }
            if let base = type.base, let holder = properties.first(where: \.holdsBase) {
                if directions.contains(.decode) { extending(base, holder: holder, keyed: keyed, into: &p) }
                return
            }
            if directions.contains(.decode) {
                p.blank()
                decoder(keyed, extra: type.extraMembers, delegating: delegating, into: &p)
            }
            if directions.contains(.encode) {
                p.blank()
                encoder(keyed, extra: type.extraMembers, into: &p)
            }
        case .union(let union):
            if directions.contains(.decode) {
                p.blank()
                if let discriminator = union.discriminator {
                    tagged(union, discriminator: discriminator, into: &p)
                } else {
                    untagged(union, into: &p)
                }
            }
            if directions.contains(.encode) {
                p.blank()
                encodeUnion(union, into: &p)
            }
        case .enumeration, .alias:
            return
        }
    }

    // MARK: - Objects

    private func decoder(_ keyed: [IRProperty], extra: IRTypeRef?, delegating: Bool, into p: inout SwiftPrinter) {
        if keyed.isEmpty, extra == nil {
            p.line(
                delegating
                    ? "public init(from decoder: any Decoder) throws { self.init() }"
                    : "public init(from decoder: any Decoder) throws {}")
            return
        }
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("let container = try decoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
            var arguments: [String] = []
            for property in keyed {
                if case .constant = property.storage {
                    p.line(constantCheck(property))
                } else if delegating {
                    arguments.append("\(Emit.name(property.swiftName)): \(decodeExpression(property))")
                } else {
                    p.line("self.\(Emit.name(property.swiftName)) = \(decodeExpression(property))")
                }
            }
            if let extra {
                p.line("let known = \(knownKeys(keyed))")
                p.line("var additionalProperties: [Swift.String: \(extra.swiftType)] = [:]")
                p.block("for key in container.allKeys where !known.contains(key.stringValue)") { p in
                    p.line(
                        "additionalProperties[key.stringValue] = try container.decode(\(extra.swiftType).self, forKey: key)"
                    )
                }
                if delegating {
                    arguments.append("additionalProperties: additionalProperties")
                } else {
                    p.line("self.additionalProperties = additionalProperties")
                }
            }
            if delegating { p.call("self.init(", arguments, ")") }
        }
    }

    /// The decoding of a type that extends another family's `base`: the base reads the whole object, and the type's
    /// own members come from the ones the base keeps beyond its properties.
    private func extending(_ base: IRTypeName, holder: IRProperty, keyed: [IRProperty], into p: inout SwiftPrinter) {
        let name = Emit.name(holder.swiftName)
        p.blank()
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("try self.init(extending: \(base.qualified)(from: decoder))")
        }
        p.blank()
        p.doc("Reads the members this type adds from those `\(holder.swiftName)` keeps beyond its own properties.")
        p.block("public init(extending \(name): \(base.qualified)) throws") { p in
            p.line("self = try SDKRuntime.JSONCoding.decodeMembers(\(name).additionalProperties) { decoder in")
            p.indented { p in
                p.line("let container = try decoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
                var arguments = ["\(name): \(name)"]
                for property in keyed {
                    if case .constant = property.storage {
                        p.line(constantCheck(property))
                    } else {
                        arguments.append("\(Emit.name(property.swiftName)): \(decodeExpression(property))")
                    }
                }
                p.call("return Self(", arguments, ")")
            }
            p.line("}")
        }
    }

    private func encoder(_ keyed: [IRProperty], extra: IRTypeRef?, into p: inout SwiftPrinter) {
        p.block("public func encode(to encoder: any Encoder) throws") { p in
            if keyed.isEmpty, extra == nil {
                p.line("_ = encoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
                return
            }
            p.line("var container = encoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
            for property in keyed { p.line(encodeStatement(property)) }
            if extra != nil {
                p.line("let known = \(knownKeys(keyed))")
                p.block("for (key, value) in additionalProperties where !known.contains(key)") { p in
                    p.line("try container.encode(value, forKey: SDKRuntime.AnyCodingKey(key))")
                }
            }
        }
    }

    /// The wire names of the properties (and their aliases), as an array literal.
    private func knownKeys(_ keyed: [IRProperty]) -> String {
        "[" + keyed.flatMap { [$0.wireName] + $0.aliases }.map(SwiftLiteral.string).joined(separator: ", ") + "]"
    }

    private func key(_ property: IRProperty) -> String {
        let keys = ([property.wireName] + property.aliases).map(SwiftLiteral.string)
        return keys.count == 1 ? keys[0] : "container.firstPresentKey(\(keys.joined(separator: ", ")))"
    }

    /// The statement that checks a constant property's value.
    private func constantCheck(_ property: IRProperty) -> String {
        guard case .constant(let value) = property.storage else { return "" }
        let others =
            property.alsoAccepts.isEmpty
            ? "" : ", alsoAccepting: [" + property.alsoAccepts.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        return
            "try container.expectConstant(\(SwiftLiteral.string(value))\(others), forKey: \(key(property)), required: \(property.isRequired))"
    }

    /// The expression that reads a stored property.
    private func decodeExpression(_ property: IRProperty) -> String {
        let key = key(property)
        let present = property.isRequired && property.defaultExpression == nil && !property.isOptional
        let suffix = present ? "" : "IfPresent"
        let fallback = property.defaultExpression ?? (property.isArray && !property.isRequired ? "[]" : nil)
        let tail = fallback.map { " ?? \($0)" } ?? ""
        let call: String
        switch types.resolved(property.type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON:
            call = "decodeText\(suffix)(\(property.type.swiftType).self, forKey: \(key))"
        case .scalar(let scalar, _) where scalar.isLenientInJSON:
            call = "decodeLenient\(suffix)(\(property.type.swiftType).self, forKey: \(key))"
        case .array(let element) where isText(element):
            call = "decodeTextArray\(suffix)(\(element.swiftType).self, forKey: \(key))"
        case .array(let element) where property.acceptSingle:
            call = "decodeArrayAcceptingSingle\(suffix)(\(element.swiftType).self, forKey: \(key))"
        default:
            call = "decode\(suffix)(\(property.type.swiftType).self, forKey: \(key))"
        }
        let expression = "try container.\(call)"
        return tail.isEmpty ? expression : "(\(expression))\(tail)"
    }

    private func encodeStatement(_ property: IRProperty) -> String {
        let key = SwiftLiteral.string(property.wireName)
        let value = "self." + Emit.name(property.swiftName)
        // A required property that may be null is written as null rather than left out.
        if property.isOptional, property.isRequired {
            var present = property
            present.isOptional = false
            let statement = encodeStatement(present).replacingOccurrences(of: value, with: "value")
            return "if let value = \(value) { \(statement) } else { try container.encodeNil(forKey: \(key)) }"
        }
        if case .constant(let constant) = property.storage {
            return "try container.encode(\(SwiftLiteral.string(constant)), forKey: \(key))"
        }
        switch types.resolved(property.type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON:
            return "try container.encodeText\(property.isOptional ? "IfPresent" : "")(\(value), forKey: \(key))"
        case .array(let element):
            let call = isText(element) ? "encodeTextArray" : "encode"
            if property.isRequired { return "try container.\(call)(\(value), forKey: \(key))" }
            return "if !\(value).isEmpty { try container.\(call)(\(value), forKey: \(key)) }"
        default:
            return "try container.encode\(property.isOptional ? "IfPresent" : "")(\(value), forKey: \(key))"
        }
    }

    private func isText(_ type: IRTypeRef) -> Bool {
        if case .scalar(let scalar, _) = types.resolved(type) { return scalar.isTextInJSON }
        return false
    }

    // MARK: - Unions

    private func tagged(_ union: IRUnion, discriminator: String, into p: inout SwiftPrinter) {
        let key = SwiftLiteral.string(discriminator)
        p.doc("Reads the variant that `\(discriminator)` names.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("let container = try decoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
            p.line("let tag = try container.decode(Swift.String.self, forKey: \(key))")
            p.switchBlock("tag") { p in
                for variant in union.variants {
                    guard let value = variant.discriminatorValue else { continue }
                    p.line(
                        "case \(SwiftLiteral.string(value)): self = .\(Emit.name(variant.caseName))(try \(variant.type.swiftType)(from: decoder))"
                    )
                }
                p.line("default:")
                p.indented { p in
                    p.line(
                        "throw DecodingError.dataCorruptedError(forKey: \(key), in: container, debugDescription: \(SwiftLiteral.string("unknown " + discriminator)))"
                    )
                }
            }
        }
    }

    private func untagged(_ union: IRUnion, into p: inout SwiftPrinter) {
        p.doc("Reads the first variant the JSON value fits, in schema order.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            Emit.firstFittingVariant(of: union, into: &p) { type in
                types.isScalarLike(type)
                    ? "decoder.singleValueContainer().decode(\(type.swiftType).self)"
                    : "\(type.swiftType)(from: decoder)"
            }
        }
    }

    private func encodeUnion(_ union: IRUnion, into p: inout SwiftPrinter) {
        p.doc("Writes the variant.")
        p.block("public func encode(to encoder: any Encoder) throws") { p in
            p.switchBlock("self") { p in
                for variant in union.variants {
                    p.line("case .\(Emit.name(variant.caseName))(let value):")
                    p.indented { p in
                        if types.isScalarLike(variant.type) {
                            p.line("var container = encoder.singleValueContainer()")
                            p.line("try container.encode(value)")
                        } else {
                            p.line("try value.encode(to: encoder)")
                        }
                    }
                }
            }
        }
    }
}
