/// oneOf: read by its discriminator, or as the one variant a value is valid against; written as its variant.
extension JSONCodecEmitter {
    // MARK: - Unions

    func tagged(_ union: IRUnion, discriminator: String, into p: inout SwiftPrinter) {
        let key = SwiftLiteral.string(discriminator)
        p.doc("Reads the variant that `\(discriminator)` names.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("let container = try decoder.container(keyedBy: HealthSignInCore.AnyCodingKey.self)")
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

    /// `oneOf` as JSON Schema means it: the value must be valid against exactly one variant (its type and its
    /// constraints), or it is a decoding error.
    func untagged(_ union: IRUnion, into p: inout SwiftPrinter) {
        p.doc("Reads the one variant the JSON value is valid against; none, or more than one, is an error.")
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("var valid: [Self] = []")
            let validation = ValidationEmitter(types: types)
            for variant in union.variants {
                let found = "valid.append(.\(Emit.name(variant.caseName))(value))"
                p.block("if let value = try? \(variantRead(variant.type))") { p in
                    guard validation.needsValidation(variant.type, constraints: variant.constraints) else {
                        return p.line(found)
                    }
                    p.block("do") { p in
                        validation.statements(
                            for: "value", optional: false, type: variant.type, constraints: variant.constraints,
                            path: "\"\"", into: &p)
                        p.line(found)
                    }
                    p.rewriteLine(p.lines.count - 1) { $0 + " catch {}" }
                }
            }
            p.line("self = try HealthSignInCore.JSONCoding.exactlyOne(valid, at: decoder.codingPath)")
        }
    }

    /// The expression that reads a union's value as `type` from `decoder`.
    func variantRead(_ type: IRTypeRef) -> String {
        if holdsText(type) {
            return unwrapped(
                "decoder.singleValueContainer().decode(\(wrapped(type)).self)", type, optional: false)
        }
        switch types.resolved(type) {
        case .scalar, .array, .map: return "decoder.singleValueContainer().decode(\(type.swiftType).self)"
        case .named: return "\(type.swiftType)(from: decoder)"
        }
    }

    func encodeUnion(_ union: IRUnion, into p: inout SwiftPrinter) {
        p.doc("Writes the variant.")
        p.block("public func encode(to encoder: any Encoder) throws") { p in
            p.switchBlock("self") { p in
                for variant in union.variants {
                    p.line("case .\(Emit.name(variant.caseName))(let value):")
                    p.indented { p in
                        if case .named = types.resolved(variant.type), !types.isScalarLike(variant.type) {
                            p.line("try value.encode(to: encoder)")
                        } else {
                            p.line("var container = encoder.singleValueContainer()")
                            p.line("try container.encode(\(rewrapped("value", variant.type)))")
                        }
                    }
                }
            }
        }
    }
}
