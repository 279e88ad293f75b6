import HealthSignInSchemaSemantics

/// Whole-family passes over resolved types: fixed objects, defaults, recursion, XML shape, codecs and sensitivity.
struct TypeAnalysis {
    /// The family's methods and error formats, whose use of types decides their codecs.
    let family: IRFamily
    /// The family's types, which the passes complete.
    var table: IRTypeTable
    var diagnostics = Diagnostics()
    /// Every type of the family, nested ones included, in a stable order.
    let allTypes: [IRTypeName]
    /// The first reference to each other family whose types this one uses, where problems with them are reported.
    let references: [String: Located<String>]

    init(family: IRFamily, references: [String: Located<String>] = [:]) {
        self.family = family
        self.references = references
        table = family.typeTable
        var collected: [IRTypeName] = []
        var seen = Set<IRTypeName>()
        func visit(_ name: IRTypeName) {
            guard seen.insert(name).inserted else { return }
            collected.append(name)
            family.typeTable[name]?.nestedTypes.forEach(visit)
        }
        family.types.forEach(visit)
        family.methods.flatMap(\.namespaceTypes).forEach(visit)
        allTypes = collected
    }

    /// Every type of the family, as it is now.
    var currentTypes: [IRType] { table.types(allTypes) }

    // MARK: Fixed objects

    /// Marks properties whose type is an object without stored fields as `.fixed`, until nothing changes.
    mutating func resolveFixedProperties() {
        var changed = true
        while changed {
            changed = false
            for type in currentTypes {
                guard case .object(var properties) = type.kind else { continue }
                var fixedAny = false
                for index in properties.indices {
                    guard case .stored = properties[index].storage,
                        let target = table.namedType(properties[index].type),
                        target.isFixed, target.qualifiedName != type.qualifiedName
                    else { continue }
                    properties[index].storage = .fixed
                    properties[index].isOptional = false
                    fixedAny = true
                }
                guard fixedAny else { continue }
                changed = true
                table.update(type.qualifiedName) { $0.kind = .object(properties) }
            }
        }
    }

    // MARK: Recursion

    /// Breaks every cycle of types that hold each other through single values, which a struct cannot do inline: the
    /// first optional object property along each cycle (in the order the types are walked) is stored out of line
    /// (``IRProperty/isIndirect``). A cycle with no optional property (every member required, so no finite value
    /// exists) or through a union or alias is reported.
    mutating func breakRecursion() {
        /// One way a type holds another by value: through a property (by index) or a union variant or alias.
        struct Edge {
            let owner: IRTypeName
            let property: Int?
            let optional: Bool
            let target: IRType
        }
        var state: [IRTypeName: Int] = [:]  // 1 visiting, 2 done
        var reported = Set<IRTypeName>()
        var boxed: [(owner: IRTypeName, property: Int)] = []
        let table = table
        func edges(_ type: IRType) -> [Edge] {
            switch type.kind {
            case .object(let properties):
                return properties.indices.compactMap { index in
                    let property = properties[index]
                    guard case .named(let target) = property.type, let resolved = table[target] else { return nil }
                    return Edge(
                        owner: type.qualifiedName, property: index, optional: property.isOptional, target: resolved)
                }
            case .union(let union):
                return table.types(
                    union.variants.compactMap { variant in
                        if case .named(let target) = variant.type { return target }
                        return nil
                    }
                ).map { Edge(owner: type.qualifiedName, property: nil, optional: false, target: $0) }
            case .alias(.named(let target)):
                return table.types([target]).map {
                    Edge(owner: type.qualifiedName, property: nil, optional: false, target: $0)
                }
            default: return []
            }
        }
        func visit(_ type: IRType, path: [(type: IRType, edge: Edge?)]) {
            let id = type.qualifiedName
            if state[id] == 2 { return }
            state[id] = 1
            for edge in edges(type) {
                if boxed.contains(where: { $0.owner == edge.owner && $0.property == edge.property }) { continue }
                let here = path + [(type, edge)]
                guard state[edge.target.qualifiedName] == 1 else {
                    visit(edge.target, path: here)
                    continue
                }
                // A back edge: the cycle is the edges from the target's place on the path to this one.
                let cycle = here.drop { $0.type.qualifiedName != edge.target.qualifiedName }
                if let cut = cycle.compactMap(\.edge).first(where: { $0.property != nil && $0.optional }),
                    let property = cut.property
                {
                    boxed.append((cut.owner, property))
                } else if reported.insert(edge.target.qualifiedName).inserted {
                    let names = (cycle.map(\.type) + [edge.target]).map(\.name).joined(separator: " → ")
                    diagnostics.error(
                        "the type \(edge.target.name) contains itself (\(names)) through required properties, unions or aliases only, expected an optional property or an array on the way",
                        at: edge.target.sourceLocation, pointer: edge.target.provenance.pointer)
                }
            }
            state[id] = 2
        }
        for type in currentTypes { visit(type, path: []) }
        for (owner, index) in boxed {
            self.table.update(owner) { type in
                guard case .object(var properties) = type.kind else { return }
                properties[index].isIndirect = true
                type.kind = .object(properties)
            }
        }
    }

    // MARK: Defaults

    /// Turns each `default` into a Swift expression, reporting defaults that do not fit their type.
    mutating func resolveDefaults() {
        for type in currentTypes {
            guard case .object(var properties) = type.kind, properties.contains(where: { $0.defaultNode != nil })
            else { continue }
            for index in properties.indices {
                guard let node = properties[index].defaultNode else { continue }
                if !properties[index].isStored {
                    diagnostics.error(
                        "\"default\" on a constant or bound property, expected defaults only on fields of the model",
                        at: node.location, pointer: node.pointer)
                    continue
                }
                let property = properties[index]
                guard let value = expression(node, for: property.type),
                    checkDefault(node, type: property.type, constraints: property.constraints)
                else { continue }
                properties[index].defaultExpression = value
            }
            table.update(type.qualifiedName) { $0.kind = .object(properties) }
        }
    }

    mutating func expression(_ node: JSONNode, for type: IRTypeRef) -> String? {
        func mismatch(_ expected: String) -> String? {
            diagnostics.error(
                "\"default\" is \(ObjectReader.article(node.kindName)), expected \(expected)", at: node.location,
                pointer: node.pointer)
            return nil
        }
        switch table.resolved(type) {
        case .scalar(.string, _):
            guard let text = node.stringValue else { return mismatch("a string") }
            return SwiftLiteral.string(text)
        case .scalar(let scalar, _) where [.int, .int32, .int64].contains(scalar):
            // JSON Schema's integers include numbers with a zero fractional part (2.0, 2e0).
            guard case .number(_, let literal, _) = node.value,
                let integer = DecimalNumber(jsonText: literal)?.int64Value,
                scalar != .int32 || Int32(exactly: integer) != nil
            else { return mismatch(scalar == .int32 ? "an integer that fits Int32" : "an integer that fits 64 bits") }
            return String(integer)
        case .scalar(let scalar, _) where scalar == .double || scalar == .float:
            guard case .number(let value, let literal, _) = node.value, value.isFinite,
                scalar == .double || Float(value).isFinite
            else { return mismatch("a number that fits \(scalar == .float ? "Float" : "Double")") }
            return literal
        case .scalar(.decimal, _):
            guard case .number(_, let literal, _) = node.value else { return mismatch("a number") }
            // The schema's own spelling, which the parser has checked to be a JSON number.
            return "HealthSignInCore.JSONNumber(literal: \(SwiftLiteral.string(literal)))"
        case .scalar(.bool, _):
            guard case .bool(let flag) = node.value else { return mismatch("a boolean") }
            return flag ? "true" : "false"
        case .scalar(let scalar, _):
            diagnostics.error(
                "\"default\" on a \(String(describing: scalar)) value, expected defaults only for strings, numbers, booleans, enums, arrays and objects",
                at: node.location, pointer: node.pointer)
            return nil
        case .array(let element):
            guard let elements = node.elements else { return mismatch("an array") }
            let parts = elements.compactMap { expression($0, for: element) }
            guard parts.count == elements.count else { return nil }
            return "[" + parts.joined(separator: ", ") + "]"
        case .map:
            diagnostics.error(
                "\"default\" on a map, expected defaults only for strings, numbers, booleans, enums, arrays and objects",
                at: node.location, pointer: node.pointer)
            return nil
        case .named(let name):
            guard let named = table[name] else { return nil }
            switch named.kind {
            case .enumeration(let cases):
                guard let text = node.stringValue else { return mismatch("one of the enum's values") }
                guard let match = cases.first(where: { CodePoints.equal($0.wireValue, text) }) else {
                    return mismatch("one of \(cases.map { "\"\($0.wireValue)\"" }.joined(separator: ", "))")
                }
                return "." + Naming.escaped(match.swiftName)
            case .object:
                guard let members = node.members else { return mismatch("an object") }
                var arguments: [String] = []
                let stored = named.storedProperties
                for member in members where !stored.contains(where: { $0.wireName == member.key }) {
                    diagnostics.error(
                        "\"default\" sets \"\(member.key)\", which \(named.name) does not have as a field",
                        at: member.keyLocation, pointer: member.value.pointer)
                    return nil
                }
                for property in stored {
                    if let member = members.first(where: { $0.key == property.wireName }) {
                        guard let value = expression(member.value, for: property.type) else { return nil }
                        arguments.append("\(property.swiftName): \(value)")
                    } else if !(property.isOptional || property.isArrayDefaultingToEmpty || property.defaultNode != nil)
                    {
                        diagnostics.error(
                            "\"default\" omits \"\(property.wireName)\", which \(named.name) requires",
                            at: node.location, pointer: node.pointer)
                        return nil
                    }
                }
                return ".init(" + arguments.joined(separator: ", ") + ")"
            case .union, .alias:
                diagnostics.error(
                    "\"default\" on \(named.name), expected defaults only for strings, numbers, booleans, enums, arrays and objects",
                    at: node.location, pointer: node.pointer)
                return nil
            }
        }
    }

    // MARK: XML shape

    /// Checks text and attribute properties against the shape XML can express.
    mutating func checkXMLShapes() {
        for type in currentTypes {
            let properties = type.properties
            for property in properties
            where [.attribute, .text].contains(property.xmlKind) && !table.isScalarLike(property.type) {
                let kind = property.xmlKind.rawValue
                diagnostics.error(
                    "\"nodeType\": \"\(kind)\" on \"\(property.wireName)\", which is \(table.describe(property.type)), expected \(kind)s to hold a single scalar value",
                    at: property.sourceLocation, pointer: property.provenance.pointer + "/xml/nodeType")
            }
            for property in properties
            where property.isStored && property.xmlKind == .none && !property.isArray && !property.isOptional
                && property.defaultExpression == nil && !property.holdsBase
            {
                diagnostics.error(
                    "the required property \"\(property.wireName)\" has \"nodeType\": \"none\", so XML could never supply it, expected it optional or with a default",
                    at: property.sourceLocation, pointer: property.provenance.pointer + "/xml/nodeType")
            }
            var elementNames: [String: String] = [:]
            for property in properties
            where property.xmlKind != .text && !(property.xmlKind == .none && !property.isArray) {
                let key = (property.xmlKind == .attribute ? "@" : "") + property.xmlName
                if let other = elementNames[key] {
                    diagnostics.error(
                        "the properties \"\(other)\" and \"\(property.wireName)\" both use the XML name \"\(property.xmlName)\", expected distinct names",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
                elementNames[key] = property.wireName
            }
            let texts = properties.filter { $0.xmlKind == .text }
            if texts.count > 1 {
                diagnostics.error(
                    "\(type.name) has \(texts.count) text properties (\(texts.map { "\"\($0.wireName)\"" }.joined(separator: ", "))), expected at most one",
                    at: texts[1].sourceLocation, pointer: texts[1].provenance.pointer)
            }
            if let text = texts.first,
                let element = properties.first(where: {
                    [.element].contains($0.xmlKind) || ($0.xmlKind == .none && $0.isArray)
                })
            {
                diagnostics.error(
                    "\(type.name) has the text property \"\(text.wireName)\" and the element \"\(element.wireName)\", expected text only beside attributes",
                    at: text.sourceLocation, pointer: text.provenance.pointer)
            }
        }
    }

}

extension IRProperty {
    /// Whether the property's type is an array.
    var isArray: Bool {
        if case .array = type { return true }
        return false
    }
}

/// Swift literal spelling.
enum SwiftLiteral {
    /// A string literal with quotes and escapes, e.g. `"a\"b"`: the one way schema text becomes a literal. Control,
    /// format (bidi, zero-width) and separator characters are written as `\u{…}` escapes, so the literal shows what
    /// it holds and cannot reorder the code around it.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if VisibleText.isInvisible(scalar) {
                    result += VisibleText.escaped(scalar)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
