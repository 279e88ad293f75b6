/// Emits `Codable` conformances with explicit coding keys, tolerant readers and deterministic writers.
enum JSONCodecEmitter {
    /// Emits `extension T: Codable { … }` for an object or union that needs JSON.
    ///
    /// For `OAuth2ErrorBody` it prints
    /// ```swift
    /// extension OAuth2ErrorBody: Codable {
    ///     enum CodingKeys: Swift.String, CodingKey {
    ///         case error
    ///         case errorDescription = "error_description"
    ///     }
    ///
    ///     public init(from decoder: any Decoder) throws {
    ///         let container = try decoder.container(keyedBy: CodingKeys.self)
    ///         self.error = try container.decode(Swift.String.self, forKey: .error)
    ///         self.errorDescription = try container.decodeIfPresent(Swift.String.self, forKey: .errorDescription)
    ///     }
    ///
    ///     public func encode(to encoder: any Encoder) throws {
    ///         var container = encoder.container(keyedBy: CodingKeys.self)
    ///         try container.encode(error, forKey: .error)
    ///         try container.encodeIfPresent(errorDescription, forKey: .errorDescription)
    ///     }
    /// }
    /// ```
    static func emit(_ type: IRType, into p: inout SwiftPrinter) {
        switch type.kind {
        case .object(let properties):
            p.blank()
            p.block("extension \(type.qualifiedName): Codable") { p in object(properties, extra: type.extraMembers, into: &p) }
        case .union(let union):
            p.blank()
            p.block("extension \(type.qualifiedName): Codable") { p in
                if let discriminator = union.discriminator { tagged(union, discriminator: discriminator, into: &p) } else { untagged(union, into: &p) }
            }
        case .enumeration, .alias:
            return
        }
    }

    // MARK: - Objects

    private static func object(_ properties: [IRProperty], extra: IRTypeRef?, into p: inout SwiftPrinter) {
        let keyed = properties.filter { property in
            switch property.storage {
            case .stored, .constant: return true
            case .bound, .fixed: return false
            }
        }
        if keyed.isEmpty, extra == nil {
            p.doc("Reads the value; every field is fixed, so nothing is read.")
            p.line("public init(from decoder: any Decoder) throws {}")
            p.blank()
            p.doc("Writes an empty JSON object.")
            p.block("public func encode(to encoder: any Encoder) throws") { p in
                p.line("_ = encoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
            }
            return
        }
        p.block("enum CodingKeys: Swift.String, CodingKey") { p in
            for property in keyed {
                p.line(key(property.swiftName, raw: property.wireName))
                for (index, alias) in property.aliases.enumerated() {
                    p.line(key(aliasKey(property, index), raw: alias))
                }
            }
        }
        p.blank()
        p.doc(extra == nil ? "Reads the value; unknown fields are ignored." : "Reads the value; unknown fields go to `additionalProperties`.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            for property in keyed { p.line(decodeStatement(property)) }
            if let extra {
                p.line("let members = try decoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
                p.line("var additionalProperties: [Swift.String: \(extra.swiftType)] = [:]")
                p.block("for key in members.allKeys where CodingKeys(rawValue: key.stringValue) == nil") { p in
                    p.line("additionalProperties[key.stringValue] = try members.decode(\(extra.swiftType).self, forKey: key)")
                }
                p.line("self.additionalProperties = additionalProperties")
            }
        }
        p.blank()
        p.doc("Writes the value.")
        p.block("public func encode(to encoder: any Encoder) throws") { p in
            p.line("var container = encoder.container(keyedBy: CodingKeys.self)")
            for property in keyed { p.line(encodeStatement(property)) }
            if extra != nil {
                p.line("var members = encoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
                p.block("for (key, value) in additionalProperties where CodingKeys(rawValue: key) == nil") { p in
                    p.line("try members.encode(value, forKey: SDKRuntime.AnyCodingKey(key))")
                }
            }
        }
    }

    private static func key(_ name: String, raw: String) -> String {
        name == raw ? "case \(Emit.name(name))" : "case \(Emit.name(name)) = \(SwiftLiteral.string(raw))"
    }

    private static func aliasKey(_ property: IRProperty, _ index: Int) -> String {
        "\(property.swiftName)Alias\(index + 1)"
    }

    private static func decodeStatement(_ property: IRProperty) -> String {
        let keys = ["." + Emit.name(property.swiftName)] + property.aliases.indices.map { "." + aliasKey(property, $0) }
        let key = keys.count == 1 ? keys[0] : "container.firstPresentKey(\(keys.joined(separator: ", ")))"
        if case .constant(let value) = property.storage {
            let others = property.alsoAccepts.isEmpty
                ? "" : ", alsoAccepting: [" + property.alsoAccepts.map(SwiftLiteral.string).joined(separator: ", ") + "]"
            return "try container.expectConstant(\(SwiftLiteral.string(value))\(others), forKey: \(key), required: \(property.isRequired))"
        }
        let present = property.isRequired && property.defaultExpression == nil && !property.isOptional
        let suffix = present ? "" : "IfPresent"
        let fallback = property.defaultExpression ?? (property.isArray && !property.isRequired ? "[]" : nil)
        let tail = fallback.map { " ?? \($0)" } ?? ""
        let call: String
        switch property.type.resolved {
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
        return "self.\(Emit.name(property.swiftName)) = " + (tail.isEmpty ? expression : "(\(expression))\(tail)")
    }

    private static func encodeStatement(_ property: IRProperty) -> String {
        let key = "." + Emit.name(property.swiftName)
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
        switch property.type.resolved {
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

    private static func isText(_ type: IRTypeRef) -> Bool {
        if case .scalar(let scalar, _) = type.resolved { return scalar.isTextInJSON }
        return false
    }

    // MARK: - Unions

    private static func tagged(_ union: IRUnion, discriminator: String, into p: inout SwiftPrinter) {
        let key = "SDKRuntime.AnyCodingKey(\(SwiftLiteral.string(discriminator)))"
        p.doc("Reads the variant that `\(discriminator)` names.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("let container = try decoder.container(keyedBy: SDKRuntime.AnyCodingKey.self)")
            p.line("let tag = try container.decode(Swift.String.self, forKey: \(key))")
            p.switchBlock("tag") { p in
                for variant in union.variants {
                    guard let value = variant.discriminatorValue else { continue }
                    p.line("case \(SwiftLiteral.string(value)): self = .\(Emit.name(variant.caseName))(try \(variant.type.swiftType)(from: decoder))")
                }
                p.line("default:")
                p.line("    throw DecodingError.dataCorruptedError(forKey: \(key), in: container, debugDescription: \(SwiftLiteral.string("unknown " + discriminator)))")
            }
        }
        p.blank()
        encodeUnion(union, into: &p)
    }

    private static func untagged(_ union: IRUnion, into p: inout SwiftPrinter) {
        p.doc("Reads the first variant the JSON value fits, in schema order.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            Emit.firstFittingVariant(of: union, into: &p) { type in
                type.isScalarLike ? "decoder.singleValueContainer().decode(\(type.swiftType).self)" : "\(type.swiftType)(from: decoder)"
            }
        }
        p.blank()
        encodeUnion(union, into: &p)
    }

    private static func encodeUnion(_ union: IRUnion, into p: inout SwiftPrinter) {
        p.doc("Writes the variant.")
        p.block("public func encode(to encoder: any Encoder) throws") { p in
            p.switchBlock("self") { p in
                for variant in union.variants {
                    p.line("case .\(Emit.name(variant.caseName))(let value):")
                    if variant.type.isScalarLike {
                        p.line("    var container = encoder.singleValueContainer()")
                        p.line("    try container.encode(value)")
                    } else {
                        p.line("    try value.encode(to: encoder)")
                    }
                }
            }
        }
    }
}
