/// Emits straight-line XML readers and writers: `init(xml:)` and `writeXML(to:context:)`.
struct XMLCodecEmitter {
    /// How scalar elements are spelled in this family.
    let primitives: XMLPrimitiveStyle

    /// Emits `extension T: SDKRuntime.XMLCodable { … }` for an object or union that needs XML.
    ///
    /// For `Culture` (two optional elements) it prints
    /// ```swift
    /// extension Culture: SDKRuntime.XMLCodable {
    ///     public init(xml element: SDKRuntime.XMLElementView) throws {
    ///         var _language: Swift.String?
    ///         for child in element.children {
    ///             switch child.localName {
    ///             case "language": _language = try child.scalar(Swift.String.self)
    ///             default: continue
    ///             }
    ///         }
    ///         self.language = _language
    ///     }
    ///
    ///     public func writeXML(to writer: inout SDKRuntime.XMLWriter, context: SDKRuntime.EncodingContext) throws {
    ///         if let language { try writer.element("language", text: language) }
    ///     }
    /// }
    /// ```
    func emit(_ type: IRType, into p: inout SwiftPrinter) {
        switch type.kind {
        case .object(let properties):
            p.blank()
            p.block("extension \(type.qualifiedName): SDKRuntime.XMLCodable") { p in
                p.doc("Reads the value from an element's attributes, children and text; unknown children are skipped.")
                p.block("public init(xml element: SDKRuntime.XMLElementView) throws") { p in objectReader(properties, into: &p) }
                p.blank()
                p.doc("Writes the value's attributes, then its children or text, into the element just opened.")
                p.block("public func writeXML(to writer: inout SDKRuntime.XMLWriter, context: SDKRuntime.EncodingContext) throws") { p in
                    objectWriter(properties, into: &p)
                }
            }
        case .union(let union):
            p.blank()
            p.block("extension \(type.qualifiedName): SDKRuntime.XMLCodable") { p in
                p.doc("Reads the first variant that the element's content fits, in schema order.")
                p.block("public init(xml element: SDKRuntime.XMLElementView) throws") { p in
                    Emit.firstFittingVariant(of: union, into: &p) { readContent(of: $0, from: "element") }
                }
                p.blank()
                p.doc("Writes the variant's content into the element just opened.")
                p.block("public func writeXML(to writer: inout SDKRuntime.XMLWriter, context: SDKRuntime.EncodingContext) throws") { p in
                    p.switchBlock("self") { p in
                        for variant in union.variants {
                            p.line("case .\(Emit.name(variant.caseName))(let value): \(writeContent(of: variant.type, value: "value"))")
                        }
                    }
                }
            }
        case .enumeration, .alias:
            return
        }
    }

    // MARK: - Reading

    private func objectReader(_ properties: [IRProperty], into p: inout SwiftPrinter) {
        let stored = properties.filter(\.isStored)
        let elements = stored.filter { $0.xmlKind == .element || ($0.xmlKind == .none && $0.isArray) }
        for property in elements {
            let local = Emit.local(property)
            if property.isArray {
                p.line("var \(local): \(property.type.swiftType) = []")
            } else {
                p.line("var \(local): \(property.type.swiftType)?")
            }
        }
        if !elements.isEmpty {
            p.block("for child in element.children") { p in
                p.switchBlock("child.localName") { p in
                    for property in elements {
                        p.line("case \(SwiftLiteral.string(property.xmlName)): \(readElement(property))")
                    }
                    p.line("default: continue")
                }
            }
        }
        if stored.contains(where: { $0.xmlKind == .attribute }) {
            p.line("var attributes = element.attributes")
        }
        for property in stored {
            let name = "self.\(Emit.name(property.swiftName))"
            let fallback = property.defaultExpression.map { " ?? \($0)" } ?? ""
            switch property.xmlKind {
            case .attribute:
                let type = property.type.swiftType
                if property.isRequired && property.defaultExpression == nil && !property.isOptional {
                    p.line("\(name) = try attributes.required(\(SwiftLiteral.string(property.xmlName)), \(type).self)")
                } else {
                    p.line("\(name) = try attributes.value(\(SwiftLiteral.string(property.xmlName)), \(type).self)\(fallback)")
                }
            case .text:
                let read = "try element.scalar(\(property.type.swiftType).self)"
                if property.isOptional {
                    p.line("\(name) = element.hasText ? \(read) : nil")
                } else if let value = property.defaultExpression {
                    p.line("\(name) = element.hasText ? \(read) : \(value)")
                } else {
                    p.line("\(name) = \(read)")
                }
            case .element, .none:
                if property.xmlKind == .none && !property.isArray {
                    // Not carried in XML.
                    p.line("\(name) = \(property.defaultExpression ?? "nil")")
                } else if property.isArray {
                    p.line("\(name) = \(Emit.local(property))")
                } else if property.isOptional {
                    p.line("\(name) = \(Emit.local(property))")
                } else if let value = property.defaultExpression {
                    p.line("\(name) = \(Emit.local(property)) ?? \(value)")
                } else {
                    p.line("\(name) = try element.required(\(Emit.local(property)), \(SwiftLiteral.string(property.xmlName)))")
                }
            }
        }
    }

    /// The statement that stores one matching child.
    private func readElement(_ property: IRProperty) -> String {
        let local = Emit.local(property)
        if case .array(let element) = property.type {
            if property.xmlKind == .element {
                let itemName = SwiftLiteral.string(property.xmlItemName ?? property.xmlName)
                return "\(local) = try child.children(named: \(itemName)).map { try \(readContent(of: element, from: "$0")) }"
            }
            return "\(local).append(try \(readContent(of: element, from: "child")))"
        }
        return "\(local) = try \(readContent(of: property.type, from: "child"))"
    }

    /// The expression that reads a value of `type` from the content of the element `element`.
    private func readContent(of type: IRTypeRef, from element: String) -> String {
        if type.isScalarLike {
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
            guard let signed = signer.signs, let target = properties.first(where: { $0.wireName == signed }) else { continue }
            let region = "_" + target.swiftName + "Region"
            p.line("let \(region) = try SDKRuntime.XMLWriter.fragment { fragment in")
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
            for line in write(property, writer: "writer", context: contexts[property.wireName] ?? "context") { p.line(line) }
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
            property.isOptional ? ["if let value = self.\(Emit.name(property.swiftName)) { \(statement) }"] : [statement]
        }
        func text(_ expression: String) -> String {
            isStored ? Emit.wireText(expression, property.type) : expression
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
                let item = writeElement(SwiftLiteral.string(property.xmlItemName ?? property.xmlName), type: element, value: "item", writer: writer, context: context)
                if property.xmlKind == .element {
                    return ["\(writer).startElement(\(name))", "for item in \(value) { \(item) }", "\(writer).endElement()"]
                }
                return ["for item in \(value) { \(item) }"]
            }
            let isText = !isStored && !property.storage.isFixed
            return guarded(writeElement(name, type: property.type, value: value, writer: writer, context: context, isText: isText))
        }
    }

    /// The statement that writes `value` as the element `name`.
    private func writeElement(_ name: String, type: IRTypeRef, value: String, writer: String, context: String, isText: Bool = false) -> String {
        if type.isScalarLike || isText {
            let text = isText ? value : Emit.wireText(value, type)
            switch primitives {
            case .text: return "try \(writer).element(\(name), text: \(text))"
            case .valueAttribute: return "try \(writer).valueElement(\(name), value: \(text))"
            }
        }
        return "try \(writer).element(\(name), writing: \(value), context: \(context))"
    }

    /// The statement that writes a variant's content into the open element.
    private func writeContent(of type: IRTypeRef, value: String) -> String {
        if type.isScalarLike {
            switch primitives {
            case .text: return "try writer.text(\(Emit.wireText(value, type)))"
            case .valueAttribute: return "try writer.attribute(\"value\", \(Emit.wireText(value, type)))"
            }
        }
        return "try \(value).writeXML(to: &writer, context: context)"
    }
}

extension IRStorage {
    /// Whether the property is an object written from `Type()`.
    var isFixed: Bool {
        if case .fixed = self { return true }
        return false
    }
}
