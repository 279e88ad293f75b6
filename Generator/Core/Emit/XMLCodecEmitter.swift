/// The XML side of a type's coding: straight-line `init(xml:)` for what is read and `writeXML(_:context:)` for
/// what is written.
///
/// For `Culture` (two optional elements), read and written, the members are
/// ```swift
/// public init(xml element: HealthSignInCore.XMLElementView) throws {
///     self.language = try element.first("language")?.scalar(Swift.String.self)
///     self.country = try element.first("country")?.scalar(Swift.String.self)
/// }
///
/// public func writeXML(_ writer: inout HealthSignInCore.XMLWriter, context: HealthSignInCore.EncodingContext) throws {
///     if let value = self.language { try writer.element("language", text: value) }
///     if let value = self.country { try writer.element("country", text: value) }
/// }
/// ```
///
/// An object's reader and writer carry no doc comment of their own: DocC shows those of `XMLDecodable` and
/// `XMLEncodable`.
struct XMLCodecEmitter: CodecEmitter {
    /// The family's types, where references are followed.
    let types: IRTypeTable
    /// How scalar elements are spelled in this family.
    let primitives: XMLPrimitiveStyle

    var isRuntimeOnly: Bool { true }

    func directions(of type: IRType) -> IRDirections { type.xml }

    func conformances(of type: IRType, directions: IRDirections) -> [String] {
        guard type.isCodedAsAValue else { return [] }
        return (directions.contains(.decode) ? ["HealthSignInCore.XMLDecodable"] : [])
            + (directions.contains(.encode) ? ["HealthSignInCore.XMLEncodable"] : [])
    }

    func members(of type: IRType, directions: IRDirections, delegating: Bool, into p: inout SwiftPrinter) {
        switch type.kind {
        case .object(let properties):
            if directions.contains(.decode) {
                p.blank()
                p.block("public init(xml element: HealthSignInCore.XMLElementView) throws") { p in
                    objectReader(properties, extra: type.extraMembers != nil, delegating: delegating, into: &p)
                }
            }
            if directions.contains(.encode) {
                p.blank()
                p.block(
                    "public func writeXML(_ writer: inout HealthSignInCore.XMLWriter, context: HealthSignInCore.EncodingContext) throws"
                ) { p in
                    objectWriter(properties, into: &p)
                }
            }
        case .union(let union):
            if directions.contains(.decode) {
                p.blank()
                p.doc("Reads the first variant that the element's content fits, in schema order.")
                p.block("public init(xml element: HealthSignInCore.XMLElementView) throws") { p in
                    Emit.firstFittingVariant(of: union, into: &p) { readContent(of: $0, from: "element") }
                }
            }
            if directions.contains(.encode) {
                p.blank()
                p.doc("Writes the variant's content into the element just opened.")
                p.block(
                    "public func writeXML(_ writer: inout HealthSignInCore.XMLWriter, context: HealthSignInCore.EncodingContext) throws"
                ) { p in
                    p.switchBlock("self") { p in
                        for variant in union.variants {
                            p.line(
                                "case .\(Emit.name(variant.caseName))(let value): \(writeContent(of: variant.type, value: "value"))"
                            )
                        }
                    }
                }
            }
        case .enumeration, .alias:
            return
        }
    }

    // MARK: - Reading

    /// One statement per stored property, each finding its element or attribute by name.
    private func objectReader(_ properties: [IRProperty], extra: Bool, delegating: Bool, into p: inout SwiftPrinter) {
        let stored = properties.filter(\.isStored)
        // A few children are found by looking from the first each time; more through a cursor that looks from
        // where the last was found, so that reading a type costs one pass over its children.
        let elements = stored.filter { $0.xmlKind == .element || ($0.xmlKind == .none && $0.isArray) }.count
        let children = elements > Self.directLookups ? "children" : "element"
        if elements > Self.directLookups { p.line("var children = element.elements") }
        if stored.contains(where: { $0.xmlKind == .attribute }) {
            p.line("var attributes = element.attributes")
        }
        if delegating {
            let arguments = stored.map { "\(Emit.name($0.swiftName)): \(readExpression($0, children: children))" }
            p.call("self.init(", arguments + (extra ? ["additionalProperties: [:]"] : []), ")")
            return
        }
        for property in stored {
            p.line("self.\(Emit.name(property.swiftName)) = \(readExpression(property, children: children))")
        }
    }

    /// The most element properties a reader looks up directly on its element.
    static let directLookups = 3

    /// The expression that reads one stored property, finding child elements through `children`.
    private func readExpression(_ property: IRProperty, children: String) -> String {
        // A default documents; nothing is substituted for an absent value (the property is optional then).
        let name = SwiftLiteral.string(property.xmlName)
        let type = property.type.swiftType
        switch property.xmlKind {
        case .attribute:
            return property.isOptional
                ? "try attributes.value(\(name), \(type).self)" : "try attributes.required(\(name), \(type).self)"
        case .text:
            let read = "try element.scalar(\(type).self)"
            if property.isOptional { return "element.hasText ? \(read) : nil" }
            return read
        case .element, .none:
            if case .array(let element) = property.type {
                if property.xmlKind == .element {
                    let items = SwiftLiteral.string(property.xmlItemName ?? property.xmlName)
                    return "try \(children).first(\(name))?.children(named: \(items))\(mapContent(of: element)) ?? []"
                }
                return "try \(children).children(named: \(name))\(mapContent(of: element))"
            }
            // Not carried in XML.
            if property.xmlKind == .none { return "nil" }
            if !property.isOptional {
                return "try \(readContent(of: property.type, from: "\(children).required(\(name))"))"
            }
            return "try \(optionalContent(of: property.type, from: "\(children).first(\(name))"))"
        }
    }

    /// `.map { … }` reading each element of an array as `type`.
    private func mapContent(of type: IRTypeRef) -> String {
        types.isScalarLike(type)
            ? ".map { try \(readContent(of: type, from: "$0")) }" : ".map(\(type.swiftType).init(xml:))"
    }

    /// The expression that reads a value of `type` from an optional element, nil when there is none.
    private func optionalContent(of type: IRTypeRef, from element: String) -> String {
        types.isScalarLike(type)
            ? readContent(of: type, from: element + "?") : "\(element).map(\(type.swiftType).init(xml:))"
    }

    /// The expression that reads a value of `type` from the content of the element `element`.
    private func readContent(of type: IRTypeRef, from element: String) -> String {
        if types.isScalarLike(type) {
            switch primitives {
            case .text: return "\(element).scalar(\(type.swiftType).self)"
            case .valueAttribute: return "\(element).valueAttribute(\(type.swiftType).self)"
            }
        }
        return "\(type.swiftType)(xml: \(element))"
    }

    // MARK: - Writing

    private func objectWriter(_ properties: [IRProperty], into p: inout SwiftPrinter) {
        let signers = properties.filter { $0.signs != nil }
        if properties.isEmpty || properties.allSatisfy({ $0.xmlKind == .none && !$0.isArray }) {
            p.line("_ = (writer, context)")
            return
        }
        var contexts: [String: String] = [:]
        var regions: [String: String] = [:]
        for signer in signers {
            guard let signed = signer.signs, let target = properties.first(where: { $0.wireName == signed }) else {
                continue
            }
            let region = "_" + target.swiftName + "Region"
            p.line("let \(region) = try HealthSignInCore.XMLWriter.fragment { fragment in")
            p.indented { p in
                for line in write(target, writer: "fragment", context: "context") { p.line(line) }
            }
            p.line("}")
            let context = "_" + signer.swiftName + "Context"
            p.line("let \(context) = context.binding(\"signature\", to: try context.signature(of: \(region)))")
            contexts[signer.wireName] = context
            regions[target.wireName] = region
        }
        let ordered = properties.filter { $0.xmlKind == .attribute } + properties.filter { $0.xmlKind != .attribute }
        for property in ordered {
            if let region = regions[property.wireName] {
                p.line("writer.mark(\(SwiftLiteral.string(property.wireName))) { $0.raw(\(region)) }")
                continue
            }
            for line in write(property, writer: "writer", context: contexts[property.wireName] ?? "context") {
                p.line(line)
            }
        }
    }

    /// The statements that write one property.
    private func write(_ property: IRProperty, writer: String, context: String) -> [String] {
        let name = SwiftLiteral.string(property.xmlName)
        let value: String
        switch property.storage {
        case .stored: value = property.isOptional ? "value" : "self." + Emit.name(property.swiftName)
        case .constant(let text): value = SwiftLiteral.string(text)
        case .bound(let bind): value = "try \(context).value(\(SwiftLiteral.string(bind.rawValue)))"
        case .fixed: value = "\(property.type.swiftType)()"
        }
        let isStored = property.isStored
        func guarded(_ statement: String) -> [String] {
            property.isOptional
                ? ["if let value = self.\(Emit.name(property.swiftName)) { \(statement) }"] : [statement]
        }
        func text(_ expression: String) -> String {
            isStored ? Emit.wireText(expression, property.type, types: types) : expression
        }
        switch property.xmlKind {
        case .attribute:
            return guarded("try \(writer).attribute(\(name), \(text(value)))")
        case .text:
            return guarded("try \(writer).text(\(text(value)))")
        case .none where !property.isArray:
            return []
        case .element, .none:
            if case .array(let element) = property.type {
                let item = writeElement(
                    SwiftLiteral.string(property.xmlItemName ?? property.xmlName), type: element, value: "item",
                    writer: writer, context: context)
                if property.xmlKind == .element {
                    return [
                        "\(writer).startElement(\(name))", "for item in \(value) { \(item) }", "\(writer).endElement()",
                    ]
                }
                return ["for item in \(value) { \(item) }"]
            }
            let isText = !isStored && !property.storage.isFixed
            return guarded(
                writeElement(name, type: property.type, value: value, writer: writer, context: context, isText: isText))
        }
    }

    /// The statement that writes `value` as the element `name`.
    private func writeElement(
        _ name: String, type: IRTypeRef, value: String, writer: String, context: String, isText: Bool = false
    ) -> String {
        if types.isScalarLike(type) || isText {
            let text = isText ? value : Emit.wireText(value, type, types: types)
            switch primitives {
            case .text: return "try \(writer).element(\(name), text: \(text))"
            case .valueAttribute: return "try \(writer).valueElement(\(name), value: \(text))"
            }
        }
        return "try \(writer).element(\(name), writing: \(value), context: \(context))"
    }

    /// The statement that writes a variant's content into the open element.
    private func writeContent(of type: IRTypeRef, value: String) -> String {
        if types.isScalarLike(type) {
            switch primitives {
            case .text: return "try writer.text(\(Emit.wireText(value, type, types: types)))"
            case .valueAttribute: return "try writer.attribute(\"value\", \(Emit.wireText(value, type, types: types)))"
            }
        }
        return "try \(value).writeXML(&writer, context: context)"
    }
}

extension IRStorage {
    /// Whether the property is an object written from `Type()`.
    var isFixed: Bool {
        if case .fixed = self { return true }
        return false
    }
}
