import HealthSignInSchemaSemantics

/// Which codecs, in which directions, each type needs.
extension TypeAnalysis {
    // MARK: Codecs

    /// Decides which codecs each type needs, and in which directions, from how methods and error formats use it:
    /// a request is written, a response or error body read, and a type they hold gets the same.
    mutating func markUsage(codecs: (IRMethodBinding) -> IRCodecUsage) {
        var roots: [(IRTypeRef, WritableKeyPath<IRType, IRDirections>, IRDirections)] = []
        for method in family.methods {
            let request = method.request.map(IRTypeRef.named)
            let response = method.response.map(IRTypeRef.named)
            let usage = codecs(method.binding)
            if let request, let codec = usage.request { roots.append((request, codec.keyPath, .encode)) }
            for codec in usage.response { if let response { roots.append((response, codec.keyPath, .decode)) } }
            guard usage.requestHasFields, let request = method.request.flatMap({ table.namedType(.named($0)) })
            else { continue }
            var fieldTypes = [request.qualifiedName]
            if case .union(let union) = request.kind {
                fieldTypes += union.variants.compactMap { table.namedType($0.type)?.qualifiedName }
            }
            for name in fieldTypes where table[name]?.isImported == false {
                table.update(name) { $0.needsHTTPFields = true }
            }
        }
        for error in family.errors {
            if error.xml { roots.append((error.body, \.xml, .decode)) }
            if error.json { roots.append((error.body, \.json, .decode)) }
        }
        // A type extending another family's is read from what its base keeps, wherever that base comes from: a
        // method of the other family, or a flow.
        for type in currentTypes where type.base != nil { roots.append((.named(type.qualifiedName), \.json, .decode)) }
        var needed: [IRTypeName: (json: IRDirections, xml: IRDirections)] = [:]
        for (root, codec, directions) in roots {
            for name in reachable(from: [root]) {
                guard table[name]?.isImported == false else {
                    if codec == \IRType.json { needed[name, default: ([], [])].json.formUnion(directions) }
                    if codec == \IRType.xml { needed[name, default: ([], [])].xml.formUnion(directions) }
                    continue
                }
                table.update(name) { $0[keyPath: codec].formUnion(directions) }
            }
        }
        checkImportedCodecs(needed)
        checkExtensions()
    }

    /// Reports another family's types used in a way their own family does not code them: generated code has only the
    /// codecs its family's methods need, and a family cannot add conformances to another's types.
    mutating func checkImportedCodecs(_ needed: [IRTypeName: (json: IRDirections, xml: IRDirections)]) {
        for name in needed.keys.sorted(by: { $0.qualified < $1.qualified }) {
            guard let type = table[name], let module = type.module, let use = needed[name],
                let reference = references[module]
            else { continue }
            for (codec, wanted, has) in [("JSON", use.json, type.json), ("XML", use.xml, type.xml)] {
                let missing = wanted.subtracting(has)
                guard !missing.isEmpty else { continue }
                let verb = missing.contains(.encode) ? "written" : "read"
                diagnostics.error(
                    "\(module)'s type \(type.name) is \(verb) as \(codec) here, but no method of \(module) does so, expected another family's types only where their own family codes them the same way",
                    at: reference.location, pointer: reference.pointer)
            }
        }
    }

    /// Reports types extending another family's type where they cannot be coded: they are read from JSON, from the
    /// members their base keeps, and never written or read as XML.
    mutating func checkExtensions() {
        for type in currentTypes where type.base != nil && (type.json.contains(.encode) || type.needsXML) {
            diagnostics.error(
                "\(type.name) extends another family's type and is \(type.needsXML ? "coded as XML" : "written in a request"), expected an extending type only in JSON responses and error bodies",
                at: type.sourceLocation, pointer: type.provenance.pointer + "/allOf")
        }
    }

    /// Reports properties a type's codec cannot carry: maps in XML, and any-value properties of the other codec
    /// (a JSON value cannot be XML content, nor XML content a JSON value).
    mutating func checkAnyValues() {
        for type in currentTypes {
            if type.extraMembers != nil, type.needsXML {
                diagnostics.error(
                    "\(type.name) keeps the members beyond its properties (\"additionalProperties\"), but is read as XML, which has no such members, expected it only in JSON",
                    at: type.sourceLocation, pointer: type.provenance.pointer + "/additionalProperties")
            }
            for property in type.properties where property.isStored {
                let element: IRTypeRef = {
                    if case .array(let element) = table.resolved(property.type) { element } else { property.type }
                }()
                if case .array = table.resolved(element), type.needsXML {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" is an array of arrays, but \(type.name) is read as XML, which has no nesting for it, expected an array of objects",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
                if case .map = table.resolved(element), type.needsXML {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" is a map (\"additionalProperties\"), but \(type.name) is read as XML, which has no maps, expected an object with properties or an array",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
                guard case .scalar(let scalar, _) = table.resolved(element) else { continue }
                if scalar == .jsonValue, type.needsXML {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" has no type, which holds any JSON value, but \(type.name) is read as XML, expected a typed schema",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
                if scalar == .xmlFragment, type.needsJSON {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" has no type, which holds XML content, but \(type.name) is read as JSON, expected a typed schema",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
            }
        }
    }

    /// Marks every type that holds a sensitive value, directly or through other types.
    mutating func markSensitivity() {
        var changed = true
        while changed {
            changed = false
            for type in currentTypes where !type.holdsSensitive {
                let references: [IRTypeRef]
                switch type.kind {
                case .object(let properties): references = properties.filter(\.isStored).map(\.type)
                case .union(let union): references = union.variants.map(\.type)
                case .alias(let target): references = [target]
                case .enumeration: references = []
                }
                if references.contains(where: carriesSensitive) {
                    table.update(type.qualifiedName) { $0.holdsSensitive = true }
                    changed = true
                }
            }
        }
    }

    func carriesSensitive(_ reference: IRTypeRef) -> Bool {
        switch reference {
        case .scalar(_, let sensitive): return sensitive
        case .named(let name): return table[name]?.holdsSensitive == true
        case .array(let element), .map(let element): return carriesSensitive(element)
        }
    }

    func reachable(from roots: [IRTypeRef]) -> [IRTypeName] {
        var result: [IRTypeName] = []
        var seen = Set<IRTypeName>()
        func visit(_ reference: IRTypeRef) {
            switch reference {
            case .scalar: return
            case .array(let element), .map(let element): visit(element)
            case .named(let name):
                guard seen.insert(name).inserted, let type = table[name] else { return }
                result.append(name)
                if let base = type.base { visit(.named(base)) }
                switch type.kind {
                case .object(let properties): for property in properties { visit(property.type) }
                case .union(let union): for variant in union.variants { visit(variant.type) }
                case .alias(let target): visit(target)
                case .enumeration: break
                }
            }
        }
        roots.forEach(visit)
        return result
    }
}
