/// References to types, in this family and others, and scalar types.
extension TypeResolver {

    /// The type a property, item or variant schema refers to, creating nested types for inline ones.
    mutating func typeRef(_ schema: SchemaNode, nameHint: String, owner: IRTypeName, scope: ResolutionScope)
        -> IRTypeRef?
    {
        if let ref = schema.ref {
            checkOnlyReferenceKeywords(
                schema,
                allowed: [
                    "description", "xml", "sensitive", "default", "aliases", "in", "signs", "acceptSingle",
                    "x-swift-name",
                ])
            return reference(ref, scope: scope).map { .named($0) }
        }
        if let values = schema.additionalProperties, !schema.hasProperties, schema.oneOf == nil, schema.allOf == nil,
            schema.type == nil || schema.type?.value == .object
        {
            return mapRef(values, nameHint: nameHint, owner: owner, scope: scope)
        }
        // `oneOf` of one schema and null: the schema itself (the property that holds it is optional).
        if let variants = schema.oneOf, variants.count == 1, let only = variants.first {
            return typeRef(only, nameHint: nameHint, owner: owner, scope: scope)
        }
        if schema.oneOf != nil || schema.allOf != nil || schema.enumValues != nil || schema.type?.value == .object {
            guard
                let nested = inlineType(
                    named: schema.swiftName.map { Naming.upperCamel($0.value) } ?? nameHint, parent: owner,
                    schema: schema, scope: scope, nested: true)
            else { return nil }
            table.update(owner) { $0.nestedTypes.append(nested) }
            return .named(nested)
        }
        if let constant = schema.constValue {
            diagnostics.error(
                "\"const\" here is not a property, expected constants only as object properties", at: constant.location,
                pointer: constant.pointer)
            return nil
        }
        guard let declared = schema.type else {
            if schema.hasProperties || schema.items != nil {
                diagnostics.error(
                    "the schema has no \"type\", expected \"type\", \"$ref\", \"oneOf\", \"enum\" or \"const\"",
                    at: schema.location, pointer: schema.pointer)
                return nil
            }
            // No type at all: any value.
            return .scalar(anyValueIsXML ? .xmlFragment : .jsonValue, sensitive: false)
        }
        if schema.hasProperties {
            diagnostics.error(
                "\"properties\" on a schema of type \(declared.value.rawValue), expected properties only on objects",
                at: schema.location, pointer: schema.pointer + "/properties")
        }
        if declared.value != .array, let items = schema.items {
            diagnostics.error(
                "\"items\" on a schema of type \(declared.value.rawValue), expected items only on arrays",
                at: items.location, pointer: items.pointer)
        }
        switch declared.value {
        case .array:
            guard let items = schema.items else {
                diagnostics.error(
                    "an array without \"items\", expected the element type in \"items\"", at: declared.location,
                    pointer: declared.pointer)
                return nil
            }
            if items.nullable {
                diagnostics.error(
                    "array items that may be null, expected non-null items (make the array optional instead)",
                    at: items.location, pointer: items.pointer)
            }
            guard let element = typeRef(items, nameHint: nameHint, owner: owner, scope: scope) else { return nil }
            return .array(element)
        case .string, .integer, .number, .boolean:
            guard let scalar = scalar(declared, format: schema.format, encoding: schema.contentEncoding) else {
                return nil
            }
            return .scalar(scalar, sensitive: schema.isSensitive && declared.value == .string)
        case .object:
            return nil
        }
    }

    mutating func scalar(
        _ type: Located<SchemaType>, format: Located<SchemaFormat>?, encoding: Located<ContentEncoding>?
    ) -> IRScalar? {
        if let encoding, type.value != .string || format != nil {
            diagnostics.error(
                "\"contentEncoding\" on \(format == nil ? "a schema of type \(type.value.rawValue)" : "a string with a \"format\""), expected it only on a plain string",
                at: encoding.location, pointer: encoding.pointer
            )
            return nil
        }
        switch (type.value, format?.value) {
        case (.string, nil): return encoding == nil ? .string : .bytes
        case (.string, .byte?): return .bytes
        case (.string, .uuid?): return .uuid
        case (.string, .dateTime?): return .dateTime
        case (.string, .date?): return .date
        case (.string, .uri?): return .uri
        case (.integer, nil): return .int
        case (.integer, .int32?): return .int32
        case (.integer, .int64?): return .int64
        case (.number, nil), (.number, .double?): return .double
        case (.number, .float?): return .float
        case (.number, .decimal?): return .decimal
        case (.boolean, nil): return .bool
        default:
            if let format {
                let expected: String
                switch type.value {
                case .integer: expected = "int32 or int64"
                case .number: expected = "float, double or decimal"
                case .string: expected = "uuid, date-time, date, uri or byte"
                default: expected = "no format"
                }
                diagnostics.error(
                    "\"format\": \"\(format.value.rawValue)\" on a schema of type \(type.value.rawValue), expected \(expected)",
                    at: format.location, pointer: format.pointer)
            }
            return nil
        }
    }

    mutating func reference(_ ref: Located<String>, scope: ResolutionScope) -> IRTypeName? {
        let text = ref.value
        if text.hasPrefix("../") { return externals.type(ref, into: &table, diagnostics: &diagnostics) }
        if text.hasPrefix("#/$defs/") {
            guard let key = Self.pointerKey(text.dropFirst("#/$defs/".count)) else {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" has an escape that is not %XX or ~0/~1, expected an RFC 6901 pointer in a URI fragment",
                    at: ref.location, pointer: ref.pointer)
                return nil
            }
            if let type = scope.localTypes[key] { return type }
            diagnostics.error(
                "\"$ref\": \"\(text)\" names no type in this file's \"$defs\", expected one of \(list(scope.localTypes.keys))",
                at: ref.location, pointer: ref.pointer)
            return nil
        }
        if text.hasPrefix("types.json#/$defs/") {
            guard let key = Self.pointerKey(text.dropFirst("types.json#/$defs/".count)) else {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" has an escape that is not %XX or ~0/~1, expected an RFC 6901 pointer in a URI fragment",
                    at: ref.location, pointer: ref.pointer)
                return nil
            }
            if let type = familyTypes[key] { return type }
            if typesFile == nil {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" refers to types.json, which this family does not have", at: ref.location,
                    pointer: ref.pointer)
            } else {
                diagnostics.error(
                    "\"$ref\": \"\(text)\" names no type in types.json, expected one of \(list(familyTypes.keys))",
                    at: ref.location, pointer: ref.pointer)
            }
            return nil
        }
        diagnostics.error(
            "\"$ref\": \"\(text)\" is not a reference sdkgen understands, expected \"#/$defs/Name\", \"types.json#/$defs/Name\" or another family's \"../Family/types.json#/$defs/Name\"",
            at: ref.location, pointer: ref.pointer)
        return nil
    }

    /// The `$defs` key a pointer token names: the fragment's percent-encoding decoded (RFC 3986), then `~1` as `/`
    /// and `~0` as `~` (RFC 6901); nil for a malformed escape or a token that is not a single key.
    static func pointerKey(_ token: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = token.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let digits = utf8.prefix(2)
            guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), !decoded.contains("/") else { return nil }
        var key = ""
        var characters = decoded.makeIterator()
        while let character = characters.next() {
            guard character == "~" else {
                key.append(character)
                continue
            }
            switch characters.next() {
            case "0": key.append("~")
            case "1": key.append("/")
            default: return nil
            }
        }
        return key
    }

    mutating func checkOnlyReferenceKeywords(_ schema: SchemaNode, allowed: Set<String>) {
        var extra: [String] = []
        if schema.type != nil { extra.append("type") }
        if schema.format != nil { extra.append("format") }
        if schema.contentEncoding != nil { extra.append("contentEncoding") }
        if schema.hasProperties { extra.append("properties") }
        if !schema.required.isEmpty { extra.append("required") }
        if schema.items != nil { extra.append("items") }
        if schema.enumValues != nil { extra.append("enum") }
        if schema.constValue != nil { extra.append("const") }
        if schema.oneOf != nil { extra.append("oneOf") }
        if schema.bind != nil { extra.append("bind") }
        if schema.xml != nil, !allowed.contains("xml") { extra.append("xml") }
        if schema.defaultValue != nil, !allowed.contains("default") { extra.append("default") }
        if schema.signs != nil, !allowed.contains("signs") { extra.append("signs") }
        if schema.parameterLocation != nil, !allowed.contains("in") { extra.append("in") }
        if !extra.isEmpty {
            diagnostics.error(
                "\(extra.map { "\"\($0)\"" }.joined(separator: ", ")) beside \"$ref\", expected the referenced type to define those",
                at: schema.location, pointer: schema.pointer)
        }
    }

    // MARK: - Helpers

    func isArray(_ type: IRTypeRef) -> Bool {
        if case .array = type { return true }
        return false
    }

    /// Whether `type` is an integer, number or boolean, which `acceptString` lets JSON spell as a string.
    func isLenient(_ type: IRTypeRef) -> Bool {
        if case .scalar(let scalar, _) = table.resolved(type) { return scalar.isLenientInJSON }
        return false
    }

    func describe(_ type: IRTypeRef) -> String { table.describe(type) }

    func list(_ keys: Dictionary<String, IRTypeName>.Keys) -> String {
        Diagnostics.choices(keys, empty: "there are no types")
    }
}
