/// The JSON side of a type's coding: `Decodable` for what is read, `Encodable` for what is written. Keys are string
/// literals of `HealthSignInCore.AnyCodingKey`, so no coding-key enum is declared per type.
///
/// For `OAuthErrorBody`, which is only read, the members are
/// ```swift
/// public init(from decoder: any Decoder) throws {
///     let container = try decoder.container(keyedBy: HealthSignInCore.AnyCodingKey.self)
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
                case .stored, .constant, .fixed: return !property.holdsBase
                case .bound: return false
                }
            }
            if let base = type.base, let holder = properties.first(where: \.holdsBase) {
                if directions.contains(.decode) { extending(base, holder: holder, keyed: keyed, into: &p) }
                return
            }
            // The decoding initializer joins the memberwise one; other members stand apart.
            if directions.contains(.decode) {
                decoder(keyed, of: type, delegating: delegating, into: &p)
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

    /// `init(from:)` of an object: it must be a JSON object; each property is read, a constant checked, a fixed
    /// object (one with no stored fields) checked for presence and shape; the members beyond the declared ones are
    /// kept (`additionalProperties`) or refused (`additionalProperties: false`).
    func decoder(_ keyed: [IRProperty], of type: IRType, delegating: Bool, into p: inout SwiftPrinter) {
        let extra = type.extraMembers
        let readsMembers = !keyed.isEmpty || extra != nil || type.isClosed
        p.block("public init(from decoder: any Decoder) throws") { p in
            guard readsMembers else {
                // Not even a property: the value must still be an object.
                p.line("_ = try decoder.container(keyedBy: HealthSignInCore.AnyCodingKey.self)")
                if delegating { p.line("self.init()") }
                return
            }
            openMembers(keyed, into: &p)
            var arguments: [String] = []
            for property in keyed {
                switch property.storage {
                case .constant: p.line(constantCheck(property))
                case .fixed:
                    let call = property.isRequired ? "decode" : "decodeIfPresent"
                    p.line("_ = try container.\(call)(\(property.type.swiftType).self, forKey: \(key(property)))")
                default:
                    if delegating {
                        arguments.append("\(Emit.name(property.swiftName)): \(decodeExpression(property))")
                    } else {
                        p.line("self.\(Emit.name(property.swiftName)) = \(decodeExpression(property))")
                    }
                }
            }
            // additionalProperties counts only the schema's own properties as declared (beside allOf, the parts'
            // members are additional too).
            let declared = keyLiterals(keyed.filter { type.declaredNames?.contains($0.wireName) ?? true })
            if type.isClosed {
                p.line("try container.expectNoMembers(besides: [\(declared.joined(separator: ", "))])")
            }
            if let extra {
                p.line("var additionalProperties: [Swift.String: \(extra.swiftType)] = [:]")
                let undeclared = "for key in try HealthSignInCore.JSONCoding.undeclaredKeys(of: decoder, besides: ["
                p.call(undeclared, declared, "]) {")
                p.indented { p in
                    p.line("additionalProperties[key.stringValue] = \(read(extra, from: "container", key: "key"))")
                }
                p.line("}")
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
    func extending(_ base: IRTypeName, holder: IRProperty, keyed: [IRProperty], into p: inout SwiftPrinter) {
        let name = Emit.name(holder.swiftName)
        p.block("public init(from decoder: any Decoder) throws") { p in
            p.line("try self.init(extending: \(base.qualified)(from: decoder))")
        }
        p.blank()
        p.doc("Reads the members this type adds from those `\(holder.swiftName)` keeps beyond its own properties.")
        p.block("public init(extending \(name): \(base.qualified)) throws") { p in
            p.line("self = try HealthSignInCore.JSONCoding.decodeMembers(\(name).additionalProperties) { decoder in")
            p.indented { p in
                openMembers(keyed, into: &p)
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

    func encoder(_ keyed: [IRProperty], extra: IRTypeRef?, into p: inout SwiftPrinter) {
        p.block("public func encode(to encoder: any Encoder) throws") { p in
            if keyed.isEmpty, extra == nil {
                p.line("_ = encoder.container(keyedBy: HealthSignInCore.AnyCodingKey.self)")
                return
            }
            p.line("var container = encoder.container(keyedBy: HealthSignInCore.AnyCodingKey.self)")
            for property in keyed { p.line(encodeStatement(property)) }
            if extra != nil {
                p.line("let known: [Swift.String] = \(knownKeys(keyed))")
                p.block("for (key, value) in additionalProperties where !known.contains(key)") { p in
                    p.line("try container.encode(value, forKey: HealthSignInCore.AnyCodingKey(key))")
                }
            }
        }
    }

    /// The wire names of the properties (and their aliases), as an array literal.
    func knownKeys(_ keyed: [IRProperty]) -> String {
        "[" + keyLiterals(keyed).joined(separator: ", ") + "]"
    }

    /// The wire names of the properties (and their aliases), as string literals.
    func keyLiterals(_ keyed: [IRProperty]) -> [String] {
        keyed.flatMap { [$0.wireName] + $0.aliases }.map(SwiftLiteral.string)
    }

    func key(_ property: IRProperty) -> String {
        let keys = ([property.wireName] + property.aliases).map(SwiftLiteral.string)
        return keys.count == 1 ? keys[0] : "container.firstPresentKey(\(keys.joined(separator: ", ")))"
    }

    /// The statement that checks a constant property's value.
    func constantCheck(_ property: IRProperty) -> String {
        guard case .constant(let value) = property.storage else { return "" }
        let others =
            property.alsoAccepts.isEmpty
            ? "" : ", alsoAccepting: [" + property.alsoAccepts.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        return
            "try container.expectConstant(\(SwiftLiteral.string(value))\(others), forKey: \(key(property)), required: \(property.isRequired))"
    }

    /// Opens the object's members as `container`, with what an optional cannot check, since it reads an absent
    /// member and a null one alike: the members that may be left out but not be null are refused as null (any value
    /// may be null; aliases count as the member), and the required properties that may be null must be present.
    func openMembers(_ keyed: [IRProperty], into p: inout SwiftPrinter) {
        let stored = keyed.filter { $0.storage == .stored }
        let notNull = stored.filter { !$0.isRequired && !$0.isNullable && !holdsAnyValue($0.type) }
            .flatMap { [$0.wireName] + $0.aliases }.map(SwiftLiteral.string)
        if notNull.isEmpty {
            p.line("let container = try decoder.container(keyedBy: HealthSignInCore.AnyCodingKey.self)")
        } else {
            p.call("let container = try HealthSignInCore.JSONCoding.members(of: decoder, notNull: [", notNull, "])")
        }
        let present = stored.filter { $0.isRequired && $0.isNullable }.map(key)
        if !present.isEmpty { p.line("try container.expectMembers(\(present.joined(separator: ", ")))") }
    }

    func holdsAnyValue(_ type: IRTypeRef) -> Bool {
        if case .scalar(.jsonValue, _) = types.resolved(type) { return true }
        return false
    }

    /// The expression that reads a stored property. Nothing is substituted for an absent one (a schema's `default`
    /// documents; it is never read in), but an array that is not required reads as empty when absent, as JSON
    /// Schema's keywords see no difference between the two unless it has a `minItems` (then it is optional).
    func decodeExpression(_ property: IRProperty) -> String {
        let key = key(property)
        let present = property.isRequired && !property.isOptional
        let suffix = present ? "" : "IfPresent"
        let tail = property.isArrayDefaultingToEmpty ? " ?? []" : ""
        let call: String
        switch types.resolved(property.type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON:
            call = "decodeText\(suffix)(\(property.type.swiftType).self, forKey: \(key))"
        case .scalar(let scalar, _) where scalar.isLenientInJSON && property.acceptsString:
            call = "decodeLenient\(suffix)(\(property.type.swiftType).self, forKey: \(key))"
        case .array(let element) where isText(element):
            call = "decodeTextArray\(suffix)(\(element.swiftType).self, forKey: \(key))"
        case .array(let element) where property.acceptSingle && !holdsText(element):
            call = "decodeArrayAcceptingSingle\(suffix)(\(element.swiftType).self, forKey: \(key))"
        case let resolved where holdsText(resolved):
            let read = "try container.decode\(suffix)(\(wrapped(property.type)).self, forKey: \(key))"
            let value = present ? read : "(\(read))"
            return unwrapped(value, property.type, optional: !present) + tail
        default:
            call = "decode\(suffix)(\(property.type.swiftType).self, forKey: \(key))"
        }
        return "try container.\(call)" + (tail.isEmpty ? "" : tail)
    }

    /// The expression that reads a value of `type` under `key` of `container` (a map's value, say).
    func read(_ type: IRTypeRef, from container: String, key: String) -> String {
        if case .scalar(let scalar, _) = types.resolved(type), scalar.isTextInJSON {
            return "try \(container).decodeText(\(type.swiftType).self, forKey: \(key))"
        }
        guard holdsText(type) else { return "try \(container).decode(\(type.swiftType).self, forKey: \(key))" }
        return unwrapped("try \(container).decode(\(wrapped(type)).self, forKey: \(key))", type, optional: false)
    }

    /// Whether a value of `type` holds, in arrays or maps at any depth, a scalar JSON carries as text.
    func holdsText(_ type: IRTypeRef) -> Bool {
        switch types.resolved(type) {
        case .scalar(let scalar, _): return scalar.isTextInJSON
        case .array(let element), .map(let element): return holdsText(element)
        case .named: return false
        }
    }

    /// The `Codable` type that codes a value of `type`, with each text scalar in a `JSONText`.
    func wrapped(_ type: IRTypeRef) -> String {
        switch types.resolved(type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON: return "HealthSignInCore.JSONText<\(scalar.swiftType)>"
        case .array(let element): return "[" + wrapped(element) + "]"
        case .map(let element): return "[Swift.String: " + wrapped(element) + "]"
        default: return type.swiftType
        }
    }

    /// `expression` (of the ``wrapped(_:)`` type) with its `JSONText`s unwrapped into `type`.
    func unwrapped(_ expression: String, _ type: IRTypeRef, optional: Bool) -> String {
        let chain = optional ? "?" : ""
        switch types.resolved(type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON: return expression + chain + ".value"
        case .array(let element):
            return expression + chain + ".map { " + unwrapped("$0", element, optional: false) + " }"
        case .map(let element):
            return expression + chain + ".mapValues { " + unwrapped("$0", element, optional: false) + " }"
        default: return expression
        }
    }

    /// `expression` of `type` rewrapped for writing, each text scalar in a `JSONText`.
    func rewrapped(_ expression: String, _ type: IRTypeRef) -> String {
        switch types.resolved(type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON: return "HealthSignInCore.JSONText(\(expression))"
        case .array(let element): return expression + ".map { " + rewrapped("$0", element) + " }"
        case .map(let element): return expression + ".mapValues { " + rewrapped("$0", element) + " }"
        default: return expression
        }
    }

    func encodeStatement(_ property: IRProperty) -> String {
        let key = SwiftLiteral.string(property.wireName)
        let value = "self." + Emit.name(property.swiftName)
        // A required property that may be null is written as null rather than left out.
        if property.isOptional, property.isRequired {
            var present = property
            present.isOptional = false
            let statement = encodeStatement(present).replacingOccurrences(of: value, with: "value")
            return "if let value = \(value) { \(statement) } else { try container.encodeNil(forKey: \(key)) }"
        }
        // A constant and an object without fields are written always, as the XML writer does, so that a member
        // the schema requires is never left out.
        switch property.storage {
        case .constant(let constant): return "try container.encode(\(SwiftLiteral.string(constant)), forKey: \(key))"
        case .fixed: return "try container.encode(\(property.type.swiftType)(), forKey: \(key))"
        case .stored, .bound: break
        }
        if property.isOptional, case .scalar(let scalar, _) = types.resolved(property.type), !scalar.isTextInJSON {
            return "try container.encodeIfPresent(\(value), forKey: \(key))"
        }
        if property.isOptional {
            var present = property
            present.isOptional = false
            present.isRequired = true
            let statement = encodeStatement(present).replacingOccurrences(of: value, with: "value")
            return "if let value = \(value) { \(statement) }"
        }
        let write: String
        switch types.resolved(property.type) {
        case .scalar(let scalar, _) where scalar.isTextInJSON:
            write = "try container.encodeText(\(value), forKey: \(key))"
        case .array(let element) where isText(element):
            write = "try container.encodeTextArray(\(value), forKey: \(key))"
        case let resolved where holdsText(resolved):
            write = "try container.encode(\(rewrapped(value, property.type)), forKey: \(key))"
        default:
            write = "try container.encode(\(value), forKey: \(key))"
        }
        // An array that is not required is left out when empty, as it reads back (see decodeExpression).
        if property.isArrayDefaultingToEmpty { return "if !\(value).isEmpty { \(write) }" }
        return write
    }

    func isText(_ type: IRTypeRef) -> Bool {
        if case .scalar(let scalar, _) = types.resolved(type) { return scalar.isTextInJSON }
        return false
    }

}
